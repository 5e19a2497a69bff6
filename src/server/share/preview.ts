// The link preview picture of a shared model or collection (decision 0089): an opaque
// 1200 × 630 JPEG, the size chat apps and social sites show large (`og:image`, `twitter:card`
// summary_large_image). The model's kept picture (480 × 360, transparent, drawn by a browser),
// or a collection's first three side by side, stands on the viewer's stage with a soft floor
// shadow, the name beside it, and Kiln's mark. Made with sharp: the text
// is laid out by Pango (libvips' text), which wraps, shapes right-to-left scripts and falls back
// across fonts; it never throws on a character it has no glyph for.
import { createHash } from 'node:crypto';
import sharp, { type OutputInfo, type OverlayOptions } from 'sharp';

export const PREVIEW_WIDTH = 1200;
export const PREVIEW_HEIGHT = 630;
export const PREVIEW_TYPE = 'image/jpeg';

/**
 * The layout's version: part of every picture's key, so that a change here makes every link's
 * picture again on its next request.
 */
const PREVIEW_LAYOUT = 1;

/** What a preview shows. */
export interface PreviewInput {
  /** The model's name, else its prompt, else what it was made from (`modelTitle` of src/contract). */
  title: string;
  /** A line under the title: the prompt of a named model, or what it was made from. */
  subtitle: string;
  /** The model's kept picture (any image sharp reads), when a browser has drawn one. */
  picture: Uint8Array | null;
  /**
   * A collection's pictures (its first three are used), side by side in place of `picture`;
   * with one readable picture the card is laid out as a model's.
   */
  row?: readonly Uint8Array[];
}

/**
 * The key of a preview: everything the picture depends on (the layout's version, the picture's
 * hash, the words). Two requests with the same key get the same bytes.
 */
export function previewKey(input: {
  title: string;
  subtitle: string;
  pictureSha256: string | null;
  /** A collection's pictures' hashes, in order (its `row`). */
  rowSha256s?: readonly string[];
}): string {
  const words = [PREVIEW_LAYOUT, input.pictureSha256 ?? '', input.title, input.subtitle];
  // A model's key stays what it was before rows existed (its stored pictures stay valid).
  const parts = input.rowSha256s ? [...words, 'row', ...input.rowSha256s] : words;
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** How many pictures a collection's card shows at most. */
export const PREVIEW_ROW_MAX = 3;

/** `& < > " '` as entities: Pango's markup is XML. */
function escapeMarkup(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch]!,
  );
}

/**
 * Text Pango can be given: no control characters (XML 1.0 refuses most of them, and a line
 * break is not wanted), and no lone surrogates.
 */
function cleanText(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
      .replace(/[\ud800-\udfff]/g, (ch, i: number, all: string) => {
        const code = ch.charCodeAt(0);
        const next = all.charCodeAt(i + 1);
        const prev = all.charCodeAt(i - 1);
        const paired =
          code < 0xdc00 ? next >= 0xdc00 && next <= 0xdfff : prev >= 0xd800 && prev < 0xdc00;
        return paired ? ch : '\ufffd';
      })
      .replace(/\s+/g, ' ')
      .trim()
  );
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

interface TextBlock {
  png: Buffer;
  width: number;
  height: number;
}

/** One block of wrapped text (transparent PNG), `width` wide at most. */
async function textBlock(
  text: string,
  options: { font: string; colour: string; width: number; spacing?: number },
): Promise<TextBlock> {
  const { data, info } = await sharp({
    text: {
      text: `<span foreground="${options.colour}">${escapeMarkup(text)}</span>`,
      font: options.font,
      width: options.width,
      dpi: 72,
      rgba: true,
      wrap: 'word-char',
      ...(options.spacing ? { spacing: options.spacing } : {}),
    },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { png: data, width: info.width, height: info.height };
}

/**
 * `text` wrapped to `width` and at most `maxHeight` tall: when it does not fit, as many of its
 * first characters as do, ending in "…" (characters are whole graphemes, so an emoji or an
 * accented letter is never cut in two).
 */
async function fittedText(
  text: string,
  options: { font: string; colour: string; width: number; maxHeight: number; spacing?: number },
): Promise<TextBlock> {
  const whole = await textBlock(text, options);
  if (whole.height <= options.maxHeight) return whole;
  const parts = [...graphemes.segment(text)].map((s) => s.segment);
  // Binary search for the longest prefix that fits with its ellipsis.
  let lo = 1;
  let hi = parts.length - 1;
  let best: TextBlock | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const block = await textBlock(`${parts.slice(0, mid).join('').trimEnd()}…`, options);
    if (block.height <= options.maxHeight) {
      best = block;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best ?? (await textBlock('…', options));
}

// The viewer's stage (src/web/features/viewer/viewer.css, light theme): white at the middle
// towards warm grey at the edges, and Kiln's orange.
const STAGE_CENTRE = '#ffffff';
const STAGE_MID = '#f8f5f0';
const STAGE_EDGE = '#efe8dd';
const INK = '#1c1917';
const MUTED = '#57534e';
const ACCENT = '#c2410c';

/** The stage: an opaque radial gradient, brightest behind the model. */
function stageSvg(centreX: number): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PREVIEW_WIDTH}" height="${PREVIEW_HEIGHT}">` +
      `<defs><radialGradient id="g" cx="${centreX}" cy="${PREVIEW_HEIGHT * 0.4}" r="${PREVIEW_WIDTH * 0.62}" gradientUnits="userSpaceOnUse">` +
      `<stop offset="0" stop-color="${STAGE_CENTRE}"/><stop offset="0.55" stop-color="${STAGE_MID}"/>` +
      `<stop offset="1" stop-color="${STAGE_EDGE}"/></radialGradient></defs>` +
      `<rect width="100%" height="100%" fill="url(#g)"/>` +
      `<rect y="${PREVIEW_HEIGHT - 8}" width="100%" height="8" fill="${ACCENT}"/></svg>`,
  );
}

/** A soft elliptical floor shadow, `width` wide, centred in its own transparent box. */
async function floorShadow(width: number): Promise<{ png: Buffer; width: number; height: number }> {
  const rx = Math.round(width / 2);
  const ry = Math.max(10, Math.round(width * 0.07));
  const pad = 40;
  const w = rx * 2 + pad * 2;
  const h = ry * 2 + pad * 2;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">` +
    `<ellipse cx="${w / 2}" cy="${h / 2}" rx="${rx}" ry="${ry}" fill="#3b2f25" fill-opacity="0.14"/></svg>`;
  const png = await sharp(Buffer.from(svg)).blur(18).png().toBuffer();
  return { png, width: w, height: h };
}

/** Kiln's mark (the favicon's kiln, drawn here) and its name, for the bottom right. */
async function kilnMark(): Promise<{ png: Buffer; width: number; height: number }> {
  const icon = await sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="44" height="44" viewBox="0 0 32 32">` +
        `<path d="M6 28h20l-3-16a7 7 0 0 0-14 0z" fill="${ACCENT}"/>` +
        `<path d="M12 14h8l1 6H11z" fill="#fdba74"/></svg>`,
    ),
  )
    .png()
    .toBuffer();
  const word = await textBlock('Kiln', { font: 'sans bold 34', colour: INK, width: 200 });
  const gap = 10;
  const width = 44 + gap + word.width;
  const height = Math.max(44, word.height);
  const png = await sharp({
    create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .composite([
      { input: icon, left: 0, top: Math.round((height - 44) / 2) },
      { input: word.png, left: 44 + gap, top: Math.round((height - word.height) / 2) },
    ])
    .png()
    .toBuffer();
  return { png, width, height };
}

/**
 * The model's picture without its empty margin, scaled to fit `box` (upscaled at most 2×, with
 * Lanczos, so that it stays sharp-edged without looking blown up); null when it cannot be read.
 */
async function modelPicture(
  bytes: Uint8Array,
  box: { width: number; height: number },
): Promise<{ png: Buffer; width: number; height: number } | null> {
  try {
    const source = sharp(bytes).ensureAlpha();
    let trimmed: { data: Buffer; info: OutputInfo };
    try {
      trimmed = await source
        .clone()
        .trim({ threshold: 1 })
        .png()
        .toBuffer({ resolveWithObject: true });
    } catch {
      // Nothing but margin (an empty picture): use it as it is.
      trimmed = await source.clone().png().toBuffer({ resolveWithObject: true });
    }
    const { width, height } = trimmed.info;
    const scale = Math.min(box.width / width, box.height / height, 2);
    const w = Math.max(1, Math.round(width * scale));
    const h = Math.max(1, Math.round(height * scale));
    const png = await sharp(trimmed.data)
      .resize(w, h, { kernel: 'lanczos3', fit: 'fill' })
      .png()
      .toBuffer();
    return { png, width: w, height: h };
  } catch {
    return null;
  }
}

// A collection's row: from ROW_LEFT, ROW_WIDTH wide (clear of the words at 700), in equal slots.
const ROW_LEFT = 48;
const ROW_WIDTH = 608;
const ROW_GAP = 24;
const rowSlot = (n: number) => (ROW_WIDTH - ROW_GAP * (n - 1)) / n;

type Picture = NonNullable<Awaited<ReturnType<typeof modelPicture>>>;

/** The pictures to draw: the model's, or a collection's first three that can be read. */
async function picturesOf(input: PreviewInput): Promise<Picture[]> {
  const given = input.row
    ? input.row.slice(0, PREVIEW_ROW_MAX)
    : input.picture
      ? [input.picture]
      : [];
  // Two or three side by side share the left two-thirds: each a slot of it, shorter.
  const boxOf = (n: number) =>
    n <= 1 ? { width: 560, height: 430 } : { width: Math.floor(rowSlot(n)), height: 360 };
  const first = await Promise.all(given.map((bytes) => modelPicture(bytes, boxOf(given.length))));
  const read = given.filter((_, i) => first[i] !== null);
  if (read.length === given.length) return first.filter((p): p is Picture => p !== null);
  // One was unreadable: the others, laid out for how many they are.
  const again = await Promise.all(read.map((bytes) => modelPicture(bytes, boxOf(read.length))));
  return again.filter((p): p is Picture => p !== null);
}

/** The preview picture: an opaque 1200 × 630 JPEG. */
export async function renderPreview(input: PreviewInput): Promise<Uint8Array> {
  const title = cleanText(input.title) || 'A 3D model';
  const subtitle = cleanText(input.subtitle);
  const margin = 64;
  const mark = await kilnMark();
  const pictures = await picturesOf(input);
  const picture = pictures[0] ?? null;
  const layers: OverlayOptions[] = [];

  // With a picture: the model on the left two-thirds' stage, the words in a column on the right.
  // Without: the words across the card.
  const textLeft = picture ? 700 : margin + 16;
  const textWidth = PREVIEW_WIDTH - textLeft - margin;
  const titleFont =
    title.length > 60 ? 'sans bold 46' : title.length > 28 ? 'sans bold 54' : 'sans bold 64';
  const titleBlock = await fittedText(title, {
    font: picture
      ? titleFont
      : titleFont.replace(/\d+$/, (n) => String(Math.round(Number(n) * 1.15))),
    colour: INK,
    width: textWidth,
    maxHeight: picture ? 300 : 280,
    spacing: 4,
  });
  const subBlock = subtitle
    ? await fittedText(subtitle, {
        font: 'sans 28',
        colour: MUTED,
        width: textWidth,
        maxHeight: 110,
        spacing: 4,
      })
    : null;
  const gap = subBlock ? 24 : 0;
  const textHeight = titleBlock.height + gap + (subBlock?.height ?? 0);
  const textTop = Math.max(margin, Math.round((PREVIEW_HEIGHT - 110 - textHeight) / 2) + 20);

  let stageCentre = PREVIEW_WIDTH / 2;
  const floorY = 560;
  if (pictures.length === 1 && picture) {
    const areaCentre = 370;
    stageCentre = areaCentre;
    const shadow = await floorShadow(Math.round(picture.width * 0.8));
    layers.push({
      input: shadow.png,
      left: Math.round(areaCentre - shadow.width / 2),
      // Under the model's own contact shadow (the viewer draws one into the picture), lighter.
      top: Math.round(floorY - shadow.height / 2 - Math.max(12, picture.height * 0.05)),
    });
    layers.push({
      input: picture.png,
      left: Math.round(areaCentre - picture.width / 2),
      top: Math.max(24, floorY - picture.height),
    });
  } else if (pictures.length > 1) {
    // A collection: its pictures side by side on one floor, each centred in its slot.
    stageCentre = ROW_LEFT + ROW_WIDTH / 2;
    const slot = rowSlot(pictures.length);
    const shadows = await Promise.all(pictures.map((p) => floorShadow(Math.round(p.width * 0.8))));
    pictures.forEach((p, i) => {
      const centre = ROW_LEFT + slot / 2 + i * (slot + ROW_GAP);
      const shadow = shadows[i]!;
      layers.push({
        input: shadow.png,
        left: Math.round(centre - shadow.width / 2),
        top: Math.round(floorY - shadow.height / 2 - Math.max(10, p.height * 0.05)),
      });
    });
    pictures.forEach((p, i) => {
      const centre = ROW_LEFT + slot / 2 + i * (slot + ROW_GAP);
      layers.push({
        input: p.png,
        left: Math.max(0, Math.round(centre - p.width / 2)),
        top: Math.max(24, floorY - p.height),
      });
    });
  }
  layers.push({ input: titleBlock.png, left: textLeft, top: textTop });
  if (subBlock)
    layers.push({ input: subBlock.png, left: textLeft, top: textTop + titleBlock.height + gap });
  layers.push({
    input: mark.png,
    left: PREVIEW_WIDTH - margin - mark.width,
    top: PREVIEW_HEIGHT - 40 - mark.height,
  });

  const out = await sharp(stageSvg(stageCentre))
    .composite(layers)
    .flatten({ background: STAGE_EDGE })
    .removeAlpha()
    .jpeg({ quality: 86, chromaSubsampling: '4:4:4', mozjpeg: true })
    .toBuffer();
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
