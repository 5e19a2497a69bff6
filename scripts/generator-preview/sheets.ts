// The contact sheets: text, input cells and rows of shots composited by sharp into one PNG.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';

/** Side of one picture on the sheets. */
export const CELL = 280;

const GAP = 8;

const PAD = 16;

const FONT = 'DejaVu Sans, Liberation Sans, Arial, sans-serif';

const xml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

interface Line {
  text: string;
  size: number;
  bold?: boolean;
  color?: string;
}

/** Lines broken at spaces to fit `width` (a DejaVu Sans character is about 0.6 em wide). */
function wrap(lines: Line[], width: number): Line[] {
  return lines.flatMap((line) => {
    const max = Math.max(10, Math.floor(width / (line.size * 0.6)));
    const out: Line[] = [];
    let current = '';
    for (const word of line.text.split(' ')) {
      if (current && `${current} ${word}`.length > max) {
        out.push({ ...line, text: current });
        current = word;
      } else current = current ? `${current} ${word}` : word;
    }
    out.push({ ...line, text: current });
    return out;
  });
}

/** An SVG of text lines (top left), for sharp to composite. */
function text(width: number, height: number, lines: Line[]): OverlayOptions['input'] {
  let y = 0;
  const spans = lines.map((l) => {
    y += l.size * 1.3;
    return `<text x="0" y="${y.toFixed(1)}" font-family="${FONT}" font-size="${l.size}" font-weight="${l.bold ? 700 : 400}" fill="${l.color ?? '#1c1917'}">${xml(l.text)}</text>`;
  });
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${spans.join('')}</svg>`,
  );
}

/** The input pictures in one cell: one photo, or 2 × 2 views; on white. */
export async function inputCell(inputs: Uint8Array[]): Promise<Buffer> {
  const n = Math.ceil(Math.sqrt(inputs.length));
  const side = Math.floor(CELL / n);
  const tiles = await Promise.all(
    inputs.map((bytes) =>
      sharp(bytes)
        .resize(side, side, { fit: 'contain', background: '#ffffff' })
        .flatten({ background: '#ffffff' })
        .png()
        .toBuffer(),
    ),
  );
  return sharp({ create: { width: CELL, height: CELL, channels: 3, background: '#ffffff' } })
    .composite(
      tiles.map((input, i) => ({ input, left: (i % n) * side, top: Math.floor(i / n) * side })),
    )
    .png()
    .toBuffer();
}

export interface Group {
  title: string;
  detail: string;
  cells: Buffer[];
}

export async function writeSheet(
  path: string,
  heading: string[],
  columns: string[],
  groups: Group[],
  perRow: number,
): Promise<void> {
  const cellsPerGroup = columns.length;
  const groupWidth = cellsPerGroup * CELL + (cellsPerGroup - 1) * GAP;
  const GROUP_GAP = perRow > 1 ? 3 * GAP : GAP;
  const width = 2 * PAD + perRow * groupWidth + (perRow - 1) * GROUP_GAP;
  const headingLines = wrap(
    heading.map((t, i) => ({
      text: t,
      size: i === 0 ? 17 : 13,
      bold: i === 0,
      color: i === 0 ? '#1c1917' : '#57534e',
    })),
    width - 2 * PAD,
  );
  const headingHeight = Math.ceil(headingLines.reduce((h, l) => h + l.size * 1.3, 0)) + 12;
  const columnsHeight = 22;
  const titleHeight = 40;
  const rowHeight = titleHeight + CELL + 2 * GAP;
  const rows = Math.ceil(groups.length / perRow);
  const height = PAD + headingHeight + columnsHeight + rows * rowHeight + PAD;
  const layers: OverlayOptions[] = [
    {
      input: text(width - 2 * PAD, headingHeight, headingLines),
      left: PAD,
      top: PAD,
    },
  ];
  const top0 = PAD + headingHeight;
  for (let g = 0; g < perRow; g++)
    for (const [c, label] of columns.entries())
      layers.push({
        input: text(CELL, columnsHeight, [{ text: label, size: 13, color: '#57534e' }]),
        left: PAD + g * (groupWidth + GROUP_GAP) + c * (CELL + GAP),
        top: top0,
      });
  for (const [i, group] of groups.entries()) {
    const left = PAD + (i % perRow) * (groupWidth + GROUP_GAP);
    const top = top0 + columnsHeight + Math.floor(i / perRow) * rowHeight;
    layers.push({
      input: text(groupWidth, titleHeight, [
        { text: group.title, size: 15, bold: true },
        // One line: the figures are short.
        { text: group.detail, size: 12, color: '#57534e' },
      ]),
      left,
      top: top + GAP,
    });
    for (const [c, cell] of group.cells.entries())
      layers.push({
        input: await sharp(cell).resize(CELL, CELL, { fit: 'cover' }).png().toBuffer(),
        left: left + c * (CELL + GAP),
        top: top + GAP + titleHeight,
      });
  }
  mkdirSync(dirname(path), { recursive: true });
  await sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .composite(layers)
    .png({ compressionLevel: 9, palette: true, quality: 95, dither: 0.5 })
    .toFile(path);
}

/** A grey cell saying why there is no picture. */
export async function failedCell(message: string): Promise<Buffer> {
  return sharp({ create: { width: CELL, height: CELL, channels: 3, background: '#e7e5e4' } })
    .composite([
      {
        input: text(
          CELL - 20,
          CELL - 20,
          wrap(
            [
              { text: 'not rendered:', size: 13, bold: true },
              { text: message.slice(0, 300), size: 12 },
            ],
            CELL - 20,
          ),
        ),
        left: 10,
        top: 10,
      },
    ])
    .png()
    .toBuffer();
}
