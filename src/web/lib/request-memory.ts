import type { CreateGenerationInput, LibraryEntry } from '../../contract/index.ts';

/**
 * The body each task was created with, for "Try again with the same inputs".
 * Kept in sessionStorage; after that, rebuilt from the library entry.
 */
const STORAGE_KEY = 'kiln.requests';

function readAll(): Record<string, CreateGenerationInput> {
  try {
    return JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}') as Record<
      string,
      CreateGenerationInput
    >;
  } catch {
    return {};
  }
}

export function rememberRequest(taskId: string, body: CreateGenerationInput) {
  const all = readAll();
  all[taskId] = body;
  const ids = Object.keys(all);
  for (const old of ids.slice(0, Math.max(0, ids.length - 30))) delete all[old];
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(all));
  } catch {
    // too big (data: URIs) or storage off: the library entry is the fallback
  }
}

export function requestFor(
  taskId: string,
  entry: LibraryEntry | undefined,
): CreateGenerationInput | null {
  const remembered = readAll()[taskId];
  if (remembered) return remembered;
  if (!entry) return null;
  const urls = entry.images.map((i) =>
    i.upload ? new URL(i.upload, location.origin).href : i.url,
  );
  if (urls.some((u) => u.startsWith('data:') && u.includes(' '))) return null; // shortened data: URI
  const base = { model: entry.model as CreateGenerationInput['model'], mode: entry.mode };
  if (entry.prompt !== null && urls.length === 0) return { ...base, prompt: entry.prompt };
  if (urls.length === 1) return { ...base, image_url: urls[0] ?? '' };
  return { ...base, image_urls: urls };
}
