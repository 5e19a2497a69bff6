import type { ErrorObject, LibraryImage } from '../../contract/index.ts';

/** One task made through Kiln, as stored (owner = HMAC of the API key, never the key). */
export interface LibraryRow {
  owner: string;
  taskId: string;
  model: string;
  mode: 'sync' | 'async';
  images: LibraryImage[];
  prompt: string | null;
  status: string;
  progress: number;
  progressStage: string | null;
  created: number;
  completedAt: number | null;
  createdMs: number;
  updatedMs: number;
  creditsConsumed: number | null;
  creditsRemaining: number | null;
  error: ErrorObject | null;
  upstreamModelUrl: string | null;
  assetSha256: string | null;
  archiveAttempts: number;
  archiveError: string | null;
  hidden: boolean;
  seq: number;
}

/** What a response passing through tells about a task. */
export interface TaskUpdate {
  status: string;
  progress: number;
  progressStage: string | null;
  completedAt: number | null;
  creditsConsumed: number | null;
  creditsRemaining: number | null;
  error: ErrorObject | null;
  upstreamModelUrl: string | null;
}

export interface StoredResponse {
  bodySha256: string;
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
  createdMs: number;
}

/**
 * Library rows, balances and idempotency records. One implementation now
 * (Kysely over SQLite); a Postgres one would implement the same interface.
 */
export interface LibraryStore {
  /** Records a task created through Kiln (no-op when already recorded). */
  insert(
    row: Omit<LibraryRow, 'seq' | 'archiveAttempts' | 'archiveError' | 'hidden' | 'assetSha256'>,
  ): Promise<void>;
  /** Applies what a response showed to every owner's row of this task. Returns the rows after. */
  update(taskId: string, update: TaskUpdate, nowMs: number): Promise<LibraryRow[]>;
  get(owner: string, taskId: string): Promise<LibraryRow | undefined>;
  /** Newest first; `beforeSeq` is the cursor. Hidden rows are left out. */
  list(
    owner: string,
    options: { limit: number; beforeSeq?: number | undefined },
  ): Promise<LibraryRow[]>;
  hide(owner: string, taskId: string): Promise<boolean>;
  archived(taskId: string, sha256: string): Promise<void>;
  archiveFailed(taskId: string, error: string): Promise<void>;

  /** Appends a balance when it differs from the last one known. */
  recordBalance(
    owner: string,
    balance: number,
    nowMs: number,
    taskId: string | null,
  ): Promise<void>;
  balances(
    owner: string,
    limit: number,
  ): Promise<{ balance: number; learnedMs: number; taskId: string | null }[]>;

  getIdempotent(owner: string, key: string, sinceMs: number): Promise<StoredResponse | undefined>;
  putIdempotent(owner: string, key: string, response: StoredResponse): Promise<void>;
  purgeIdempotent(beforeMs: number): Promise<void>;

  close(): Promise<void>;
}
