// A batch's memory, in the photos' folder (`.kiln-batch.json`): for each photo and model, the
// Idempotency-Key its create goes with (written before the create is sent), the task it made
// (written as soon as Kiln answers), and where its model went. A run that is killed anywhere
// leaves a file that says, per photo, either "no create sent" or "a create may have gone with
// this key" or "this task": the next run waits on the task, or sends the same key again, which
// Kiln and the upstream answer with the same task (decision 0122). Written whole to a temporary
// file and renamed over the old one, so a kill never leaves half a file.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { CliFailure } from './exit.ts';

export const STATE_FILE = '.kiln-batch.json';
export const LOCK_FILE = '.kiln-batch.lock';

const ITEM_STATUSES = ['new', 'sending', 'pending', 'completed', 'failed'] as const;

const ItemSchema = z.object({
  /** The photo's file name in the folder. */
  file: z.string(),
  /** The photo's bytes when it was sent: a changed photo is a new item. */
  sha256: z.string(),
  model: z.string(),
  /**
   * The key its create goes with: set before the create is sent, kept until the task is known;
   * null again when Kiln refused the create for good (no task was made, a new run sends anew).
   */
  idempotency_key: z.string().nullable(),
  /** The address the create named (Kiln's stored copy of the photo): a repeat sends the same body. */
  upload_url: z.string().nullable(),
  task_id: z.string().nullable(),
  /** new (nothing sent), sending (a create may be on its way), pending, completed, failed. */
  status: z.enum(ITEM_STATUSES),
  /** The collection it was put in. */
  collection_id: z.string().nullable(),
  /** The GLB written. */
  out: z.string().nullable(),
  error: z.string().nullable(),
});
export type BatchItem = z.infer<typeof ItemSchema>;

const StateSchema = z.object({ version: z.literal(1), items: z.array(ItemSchema) });
export type BatchState = z.infer<typeof StateSchema>;

export const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The folder's state, or an empty one; a file that is not one stops the batch untouched. */
export function loadState(folder: string): BatchState {
  const path = join(folder, STATE_FILE);
  if (!existsSync(path)) return { version: 1, items: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    parsed = undefined;
  }
  const state = StateSchema.safeParse(parsed);
  if (!state.success)
    throw new CliFailure(
      'failed',
      `"${path}" is not a batch's state Kiln can read; move it away to start the batch afresh (tasks it names stay in the library).`,
      STATE_FILE,
    );
  return state.data;
}

/** Writes the state whole: a temporary file renamed over the old one. */
export function saveState(folder: string, state: BatchState): void {
  const path = join(folder, STATE_FILE);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(temporary, path);
}

/** The item of this photo (its bytes) and model, made new when there is none. */
export function itemFor(state: BatchState, file: string, sha256: string, model: string): BatchItem {
  const found = state.items.find(
    (i) => i.file === file && i.sha256 === sha256 && i.model === model,
  );
  if (found) return found;
  const item: BatchItem = {
    file,
    sha256,
    model,
    idempotency_key: null,
    upload_url: null,
    task_id: null,
    status: 'new',
    collection_id: null,
    out: null,
    error: null,
  };
  state.items.push(item);
  return item;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * One batch at a time in a folder: a lock file with this process's id. A lock whose process is
 * gone (killed) is taken over. Returns the release.
 */
export function lockFolder(folder: string): () => void {
  const path = join(folder, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx' });
      return () => {
        if (existsSync(path) && readFileSync(path, 'utf8') === String(process.pid))
          unlinkSync(path);
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(readFileSync(path, 'utf8'));
      if (Number.isInteger(holder) && holder > 0 && alive(holder))
        throw new CliFailure(
          'failed',
          `another kiln batch (process ${holder}) is running in "${folder}".`,
          LOCK_FILE,
        );
      unlinkSync(path);
    }
  }
  throw new CliFailure('failed', `could not lock "${folder}" for the batch.`, LOCK_FILE);
}
