import type { CreateGenerationInput, LibraryEntry } from '../../contract/index.ts';
import type { ShownError } from './describe-error.ts';
import { createStore, type Store } from './store.ts';

/**
 * A request handed back to the studio's form: "Try again" on a task whose input was at fault
 * opens the form with that input loaded and the field that was wrong marked, instead of
 * sending the same input again; "Same input, another model" opens it with a result's input and
 * the next model for it. Kept in sessionStorage for the hop between pages; read once.
 */
export interface Draft {
  body: CreateGenerationInput;
  /** What was wrong, at the field it names (none when nothing was). */
  error?: ShownError;
  /** The input photos' names, by URL, for the form's previews. */
  names?: Record<string, string>;
}

const KEY = 'kiln.draft';
const saved = createStore(0);

/**
 * How many drafts this tab has saved: a form on screen keyed by it (`useStore(draftVersion)`)
 * starts again when a draft arrives, and takes it.
 */
export const draftVersion: Store<number> = saved;

/** The file names of an entry's Kiln uploads, by their full address: a draft's `names`. */
export function uploadNames(entry: LibraryEntry | undefined): Record<string, string> {
  return Object.fromEntries(
    (entry?.images ?? []).flatMap((image) =>
      image.upload && image.name ? [[new URL(image.upload, location.origin).href, image.name]] : [],
    ),
  );
}

export function saveDraft(draft: Draft): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(draft));
  } catch {
    // storage off: the form opens empty
  }
  saved.set((n) => n + 1);
}

/**
 * The draft, left in place: the form that shows it clears it once it is on screen
 * ({@link clearDraft} in an effect). A render that React throws away (a part of the page still
 * loading, on its first mount) must find it again.
 */
export function readDraft(): Draft | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Draft) : null;
  } catch {
    return null;
  }
}

/** The draft is shown: gone, so a later visit opens the form empty. */
export function clearDraft(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // storage off: nothing was kept
  }
}

/**
 * Whether a failed task's error is about its input (the photo, the views, the prompt: `param`
 * names it, or the request was refused as invalid), so that trying the same input again would
 * fail the same way. Other failures (the generator broke, a timeout) are worth resending.
 */
export function isInputFailure(
  error: { type?: string | null | undefined; param?: string | null | undefined } | null | undefined,
): boolean {
  if (!error) return false;
  return Boolean(error.param) || error.type === 'invalid_request_error';
}
