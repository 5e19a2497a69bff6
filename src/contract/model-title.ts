import { neutraliseBidi } from './text.ts';

/**
 * What a model is called wherever one line names it, the one rule for the SPA and the server
 * (issue 33): the gallery card, the task's result and its card in the studio, the viewer, the
 * optimise page, the share and collections dialogs, and a shared model's page, its link preview
 * and a shared collection's page. Its own name (decision 0085), else its prompt, else the name
 * of the photo it came from (only its owner sees that: a public page gets no photo names,
 * decision 0067), else what it was made from, with what and when.
 */
export interface TitleSource {
  /** The model's own name, given by its owner. */
  name?: string | null | undefined;
  /** The text prompt of a text task. */
  prompt?: string | null | undefined;
  /** The task's photos, with their file names when the reader may see them (the owner). */
  images?: readonly { name?: string | null | undefined }[] | undefined;
  /** How many photos, when `images` is not given (a public page knows only the count). */
  photos?: number | undefined;
  /**
   * With what and when it was made (`beta`, Unix seconds), said when nothing else names it: a
   * public page, where the model and its day are not shown beside the title. The SPA's lines
   * say the model themselves.
   */
  made?: { model: string; created: number } | undefined;
}

/** The longest title of a prompt, in characters, quotes included: a longer one is cut with "…". */
export const MODEL_TITLE_MAX = 100;

const DAY = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** Text as a title shows it: direction controls out, runs of white space one space. */
const tidy = (text: string | null | undefined) =>
  text ? neutraliseBidi(text).trim().replace(/\s+/g, ' ') : '';

/** `text` of at most `max` characters (code points), cut with "…". */
function shorten(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}

/**
 * "Blue teapot"; "“a red ceramic vase”"; "chair.png", "front.png + 3 more"; "A 3D model from a
 * photo, made with beta on 25 Nov 2026", "A 3D model from 3 photos".
 */
export function modelTitle(source: TitleSource): string {
  const name = tidy(source.name);
  if (name) return name;
  // A prompt is quoted, so it reads as what was typed, never as a name the owner gave.
  const prompt = tidy(source.prompt);
  if (prompt) return `“${shorten(prompt, MODEL_TITLE_MAX - 2)}”`;
  const images = source.images ?? [];
  const photo = tidy(images.find((i) => tidy(i.name))?.name);
  if (photo)
    return shorten(
      images.length > 1 ? `${photo} + ${images.length - 1} more` : photo,
      MODEL_TITLE_MAX,
    );
  const photos = source.images ? images.length : (source.photos ?? 1);
  const from = photos > 1 ? `A 3D model from ${photos} photos` : 'A 3D model from a photo';
  const made = source.made;
  return made
    ? `${from}, made with ${made.model} on ${DAY.format(new Date(made.created * 1000))}`
    : from;
}

/** The day of Unix seconds as `DAY` writes it ("25 Nov 2026", UTC). */
export const dayOf = (seconds: number) => DAY.format(new Date(seconds * 1000));

/**
 * "From a text prompt · beta · 24 Nov 2026": what a public page says under a model's title (the
 * SPA's pages, and the server's first paint of a share page). `day` writes the day of epoch
 * seconds (the SPA's in the reader's locale).
 */
export function factsLine(
  model: { input: string; model: string; created: number },
  day: (seconds: number) => string = dayOf,
): string {
  const from =
    model.input === 'prompt'
      ? 'From a text prompt'
      : model.input === 'photos'
        ? 'From photos'
        : 'From a photo';
  return `${from} · ${model.model} · ${day(model.created)}`;
}
