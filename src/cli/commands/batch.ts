// `kiln batch FOLDER`: a model of every photo in the folder, a progress line each, resumable
// (batch-state.ts, batch-run.ts): run it again after an interrupt and it waits on the tasks it
// made and sends a create again only under the key it wrote down, so nothing is charged twice.
import { readdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { createAbortGroup, createLimiter } from '../../async/index.ts';
import { numberFlag, parseCommand, positionals } from '../args.ts';
import { lockFolder, loadState, saveState, STATE_FILE, type BatchItem } from '../batch-state.ts';
import { runItem, type BatchRun } from '../batch-run.ts';
import { collectionRef, ensureCollection } from '../collections.ts';
import { connect } from '../connect.ts';
import { CliFailure, EXIT, UsageError, type ExitKind, type Failure } from '../exit.ts';
import { checkModel } from '../generate-input.ts';
import { PHOTO_FILE, readPhotoFile, type Photo } from '../inputs.ts';
import { printJson, say, type Io } from '../io.ts';
import { outTarget } from '../model-file.ts';
import { createBoard } from '../progress.ts';
import { showHelp } from './help.ts';

const OPTIONS = {
  model: { type: 'string' },
  collection: { type: 'string' },
  out: { type: 'string' },
  concurrency: { type: 'string' },
} as const;

/** The folder's photos, read and checked, by name. */
function photosIn(folderArg: string, cwd: string): { folder: string; photos: Photo[] } {
  const folder = resolve(cwd, folderArg);
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError('FOLDER', `"${folderArg}" is not a folder.`);
  const names = readdirSync(folder)
    .filter((n) => !n.startsWith('.') && PHOTO_FILE.test(n))
    .sort();
  if (names.length === 0)
    throw new UsageError('FOLDER', `no photos (.png, .jpg, .jpeg, .webp) in "${folderArg}".`);
  return { folder, photos: names.map((n) => readPhotoFile(n, folder, 'FOLDER')) };
}

/** The exit a batch ends with: the failure that says most (a key, Kiln gone, credits, …). */
const WORST: readonly ExitKind[] = ['auth', 'unreachable', 'credits', 'usage', 'failed'];
function exitOf(failures: Failure[]): number {
  const kind = WORST.find((k) => failures.some((f) => f.kind === k));
  return kind ? EXIT[kind] : EXIT.ok;
}

/** Runs every photo, at most `concurrency` at once; Ctrl-C or SIGTERM stops them all. */
async function runAll(run: BatchRun, photos: Photo[], concurrency: number, abort: () => void) {
  const limit = createLimiter(concurrency);
  const stop = () => abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    return await Promise.all(photos.map((p, i) => limit(() => runItem(run, p, i))));
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    run.board.finish();
  }
}

function report(
  io: Io,
  json: boolean | undefined,
  doc: Record<string, unknown>,
  items: BatchItem[],
) {
  if (json) return printJson(io, doc);
  for (const i of items)
    io.out(`${[i.file, i.task_id ?? '-', i.status, i.out ?? i.error ?? ''].join('  ')}\n`);
  const done = items.filter((i) => i.status === 'completed').length;
  say(io, `${done} of ${items.length} made.`);
}

/** What --json says of a finished batch: each photo's task, status and file or failure. */
function summaryOf(run: BatchRun, folder: string, items: BatchItem[]) {
  return {
    folder,
    model: run.model,
    collection: collectionRef(run.collection),
    state_file: resolve(folder, STATE_FILE),
    completed: items.filter((i) => i.status === 'completed').length,
    failed: run.failures.size,
    items: items.map(({ file, task_id, status, out, error }) => ({
      file,
      task_id,
      status,
      out,
      error,
    })),
  };
}

export async function batchCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals: given } = parseCommand('batch', args, OPTIONS);
  if (values.help) return showHelp(io, 'batch', values.json);
  const [folderArg] = positionals(given, ['FOLDER']);
  const model = checkModel(values.model, 'image');
  const concurrency =
    numberFlag(values.concurrency, '--concurrency', { min: 1, max: 10, whole: true }) ?? 3;
  const { folder, photos } = photosIn(folderArg!, io.cwd);
  const out = outTarget(values.out ?? folder, io.cwd);
  if (!out.folder) throw new UsageError('--out', `"${values.out}" is not a folder.`);
  const conn = connect(values, io, model);
  const release = lockFolder(folder);
  try {
    const collection = values.collection
      ? await ensureCollection(conn.api, values.collection)
      : null;
    const state = loadState(folder);
    const group = createAbortGroup();
    const run: BatchRun = {
      ...conn,
      model,
      collection,
      outDir: out.path,
      state,
      save: () => saveState(folder, state),
      board: createBoard(
        io,
        photos.map((p) => p.name),
      ),
      signal: group.signal,
      stopped: null,
      failures: new Map(),
    };
    const items = await runAll(run, photos, concurrency, () => group.abort()).catch(
      (err: unknown) => {
        if (!group.signal.aborted) throw err;
        throw new CliFailure(
          'interrupted',
          `interrupted; run the same command again to resume (${STATE_FILE} keeps where each photo is).`,
        );
      },
    );
    report(io, values.json, summaryOf(run, folder, items), items);
    return exitOf([...run.failures.values()]);
  } finally {
    release();
  }
}
