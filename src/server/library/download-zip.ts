import { Zip, ZipPassThrough, strToU8 } from 'fflate';
import { Hono, type Context } from 'hono';
import { ERROR_CODES } from '../../contract/index.ts';
import { glbFileName, isoDay } from '../../formats/index.ts';
import { ApiError } from '../../http/index.ts';
import { owner, ownerOf as theOwner, type OwnerEnv } from '../middleware/owner.ts';
import type { OwnerOf } from '../owner-id.ts';
import type { BlobStore } from '../storage/blobs.ts';
import type { LibraryRow, LibraryStore } from '../storage/library.ts';

export interface DownloadZipDeps {
  store: LibraryStore;
  blobs: BlobStore;
  ownerOf: OwnerOf;
  now?: () => number;
  log?: (message: string) => void;
}

/** The most task ids one zip takes (a batch is at most 20; the gallery's selection a page or so). */
export const ZIP_MAX_IDS = 100;

/** What a task id looks like: the upstream's ids (`task_…`), with room for another upstream's. */
const TASK_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/;

type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

const badIds = (message: string, code: ErrorCode = ERROR_CODES.invalidValue) =>
  new ApiError(400, { code, message, param: 'ids' });

/** `?ids=a,b,c` → the distinct ids, in order; a 400 naming `ids` when empty, too many or malformed. */
export function parseZipIds(text: string | undefined): string[] {
  const parts = (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (parts.length === 0)
    throw badIds(
      `ids is required: the task ids to download, separated by commas (at most ${ZIP_MAX_IDS}).`,
      ERROR_CODES.missingField,
    );
  const ids = [...new Set(parts)];
  if (ids.length > ZIP_MAX_IDS)
    throw badIds(`ids takes at most ${ZIP_MAX_IDS} task ids; got ${ids.length}.`);
  const bad = ids.find((id) => !TASK_ID.test(id));
  if (bad !== undefined)
    throw badIds(
      `ids must be task ids separated by commas; “${bad.length > 40 ? `${bad.slice(0, 40)}…` : bad}” is not one.`,
    );
  return ids;
}

/** Names made unique in order: a second `a.glb` becomes `a-2.glb`. */
export function uniqueNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem}-${n}${ext}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

interface ZipEntry {
  id: string;
  name: string;
  sha256: string;
  /** Epoch ms: the file's date in the zip. */
  mtime: number;
}

export interface Skipped {
  id: string;
  reason: string;
}

/** Why a row's model cannot go in the zip, or null when it can. */
export function unusable(row: LibraryRow | undefined): string | null {
  if (!row) return 'not in your library';
  if (row.assetSha256 !== null) return null;
  if (row.status === 'failed') return 'the task failed, so it has no model';
  if (row.status !== 'completed') return `the task is not finished yet (${row.status})`;
  return 'Kiln has not kept a copy of its model yet; try again in a minute';
}

function readme(skipped: readonly Skipped[], included: number): string {
  return [
    `Kiln: ${included} model${included === 1 ? '' : 's'} in this zip.`,
    '',
    `Left out (${skipped.length}):`,
    ...skipped.map((s) => `- ${s.id}: ${s.reason}.`),
    '',
  ].join('\r\n');
}

/**
 * A zip of `entries`' archived GLBs, streamed: one blob is open at a time and each chunk is
 * handed on as the reader asks for more (a pull stream, so a slow client holds the server to its
 * pace and nothing is gathered in memory). Stored, not deflated: GLBs hardly shrink. A blob found
 * missing while streaming is left out and named, with the `skipped` ones, in a README.txt.
 */
export function zipStream(
  blobs: BlobStore,
  entries: readonly ZipEntry[],
  skipped: readonly Skipped[],
  log: (message: string) => void = () => {},
): ReadableStream<Uint8Array> {
  const out: Uint8Array[] = [];
  let finished = false;
  let failure: Error | undefined;
  const zip = new Zip((err, chunk, final) => {
    if (err) failure = err;
    else {
      out.push(chunk);
      if (final) finished = true;
    }
  });
  const left = [...skipped];
  let next = 0;
  let included = 0;
  let ended = false;
  let current: { file: ZipPassThrough; reader: ReadableStreamDefaultReader<Uint8Array> } | null =
    null;

  /** One step: open the next blob, pass one chunk on, or end the zip. */
  async function step(): Promise<void> {
    if (current) {
      const { done, value } = await current.reader.read();
      if (done) {
        current.file.push(new Uint8Array(0), true);
        current = null;
      } else current.file.push(value);
      return;
    }
    const entry = entries[next++];
    if (entry) {
      const opened = await blobs.open('assets', entry.sha256, 'glb');
      if (!opened) {
        log(`zip: ${entry.id}: archived model ${entry.sha256.slice(0, 12)} is missing`);
        left.push({ id: entry.id, reason: 'its model is missing from Kiln’s storage' });
        return;
      }
      const file = new ZipPassThrough(entry.name);
      file.mtime = entry.mtime;
      zip.add(file);
      included++;
      current = { file, reader: opened.stream.getReader() };
      return;
    }
    if (left.length > 0) {
      const note = new ZipPassThrough('README.txt');
      zip.add(note);
      note.push(strToU8(readme(left, included)), true);
      left.length = 0;
    }
    ended = true;
    zip.end();
  }

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (out.length === 0 && !finished && !failure) {
          if (ended) break;
          await step();
        }
        if (failure) {
          controller.error(failure);
          return;
        }
        for (const chunk of out.splice(0)) controller.enqueue(chunk);
        if (finished) controller.close();
      },
      async cancel(reason) {
        zip.terminate();
        await current?.reader.cancel(reason);
        current = null;
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * The zip of `rows`' archived models (each has one), named as the browser names a download
 * (`glbFileName`), made unique, with the `skipped` ones listed in its README.txt: the answer,
 * streamed, as the file `file`. Shared by the selection's zip and a collection's.
 */
export function zipAnswer(
  c: Context,
  deps: Pick<DownloadZipDeps, 'blobs' | 'log'>,
  rows: readonly LibraryRow[],
  skipped: readonly Skipped[],
  file: string,
): Response {
  const names = uniqueNames(
    rows.map((r) =>
      glbFileName({
        id: r.taskId,
        model: r.model,
        images: r.images,
        prompt: r.prompt,
        name: r.name,
        created: r.created,
      }),
    ),
  );
  const entries = rows.map((r, i) => ({
    id: r.taskId,
    name: names[i]!,
    sha256: r.assetSha256!,
    mtime: Math.max(315_532_800_000, (r.completedAt ?? r.created) * 1000), // zip dates start in 1980
  }));
  return c.body(zipStream(deps.blobs, entries, skipped, deps.log), 200, {
    'Content-Type': 'application/zip',
    'Content-Disposition': `attachment; filename="${file}"`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
}

/**
 * `GET /api/library/download.zip?ids=a,b,c`: the caller's archived models of those tasks in one
 * zip, named as the browser names a download (`glbFileName`), made unique. Tasks that are not
 * the caller's or have no archived model are left out and listed in a README.txt inside; when
 * none is left, 404.
 */
export function downloadZipRoutes(deps: DownloadZipDeps) {
  const now = deps.now ?? Date.now;
  const app = new Hono<OwnerEnv>();
  app.get(
    '/download.zip',
    owner(deps.ownerOf, { required: 'to download your models' }),
    async (c) => {
      const ids = parseZipIds(c.req.query('ids'));
      const who = theOwner(c);
      const usable: LibraryRow[] = [];
      const skipped: Skipped[] = [];
      for (const id of ids) {
        const row = await deps.store.get(who, id);
        const why = unusable(row);
        if (row && why === null) usable.push(row);
        else skipped.push({ id, reason: why ?? 'not in your library' });
      }
      if (usable.length === 0)
        throw new ApiError(404, {
          code: ERROR_CODES.taskNotFound,
          message:
            ids.length === 1
              ? `There is no model to download for ${ids[0]}: ${skipped[0]?.reason ?? 'not in your library'}.`
              : 'None of these tasks has a model in your library to download yet.',
          param: 'ids',
        });
      const file = `kiln-${usable.length}-model${usable.length === 1 ? '' : 's'}-${isoDay(new Date(now()))}.zip`;
      return zipAnswer(c, deps, usable, skipped, file);
    },
  );
  return app;
}
