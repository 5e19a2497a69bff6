// A finished model onto disk: Kiln keeps its own copy of every completed model (upstream links
// expire), so `kiln` waits for that copy and downloads it from Kiln with the key, never sending
// the key anywhere else. Where it goes: --out (a file, or a folder for the default name), else
// the model's own file name (src/formats/file-name.ts, as the studio's downloads) in the folder.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { sleep } from '../async/index.ts';
import type { KilnApi } from '../client/kiln/index.ts';
import type { LibraryEntry } from '../contract/index.ts';
import { glbFileName } from '../formats/index.ts';
import { CliFailure, UsageError } from './exit.ts';

/** How long to wait for Kiln's copy of a completed model before using its link. */
const ARCHIVE_WAIT_MS = 120_000;

/** Where --out points: undefined (the default name in `cwd`), a folder, or a file. */
export interface OutTarget {
  /** A file to write, or a folder to write the default name into. */
  path: string;
  folder: boolean;
}

/** --out checked before anything is sent: its folder must exist. */
export function outTarget(out: string | undefined, cwd: string, flag = '--out'): OutTarget {
  if (out === undefined || out === '') return { path: cwd, folder: true };
  const path = resolve(cwd, out);
  if (existsSync(path) && statSync(path).isDirectory()) return { path, folder: true };
  if (!existsSync(dirname(path)) || !statSync(dirname(path)).isDirectory())
    throw new UsageError(flag, `the folder of "${out}" does not exist.`);
  return { path, folder: false };
}

/** The file `target` names for a model whose own file name is `fileName`. */
export const outFile = (target: OutTarget, fileName: string) =>
  target.folder ? join(target.path, fileName) : target.path;

/** The model's own download name (`kiln-beta-chair-2026-11-29-1b2c3d.glb`). */
export const modelFileName = (entry: LibraryEntry) => glbFileName(entry);

/** Kiln's entry for a completed task once its copy of the model is kept (or given up on). */
async function archivedEntry(api: KilnApi, id: string, signal?: AbortSignal) {
  const until = Date.now() + ARCHIVE_WAIT_MS;
  for (let pause = 100; ; pause = Math.min(pause * 2, 1000)) {
    const entry = await api.library.get(id);
    const state = entry.archive?.state ?? (entry.archived ? 'archived' : 'pending');
    if (state === 'archived' || state === 'failed' || Date.now() >= until) return entry;
    await sleep(pause, signal);
  }
}

/** A completed task's model bytes from Kiln, and its library entry. */
export async function modelOf(
  api: KilnApi,
  id: string,
  signal?: AbortSignal,
): Promise<{ entry: LibraryEntry; bytes: Uint8Array }> {
  const entry = await archivedEntry(api, id, signal);
  const url = entry.model_url;
  const onKiln = url !== null && (url.startsWith('/') || url.startsWith(`${api.baseUrl}/`));
  if (!entry.archived && !onKiln)
    throw new CliFailure(
      'failed',
      `${id} is made, but Kiln has no copy of its model yet${entry.archive?.error ? ` (${entry.archive.error})` : ''}; it is in the library, and Kiln tries again by itself.`,
    );
  const { bytes } = await api.download(url!, { signal });
  return { entry, bytes };
}

/** Writes a file `kiln` made; a failure names `flag`. */
export function writeOut(path: string, bytes: Uint8Array, flag = '--out'): void {
  try {
    writeFileSync(path, bytes);
  } catch (err) {
    throw new CliFailure('failed', `could not write "${path}": ${(err as Error).message}`, flag);
  }
}
