import type { ColumnType, Generated } from 'kysely';

/**
 * Kiln's tables, the same in SQLite (embedded) and PostgreSQL (scaled out). Times are epoch
 * milliseconds (bigint in Postgres, read back as numbers), flags are 0/1 integers, and JSON is
 * text, so one set of queries serves both dialects.
 */
export interface Tables {
  library: {
    seq: Generated<number>;
    owner: string;
    task_id: string;
    model: string;
    mode: string;
    images_json: string;
    prompt: string | null;
    status: string;
    progress: number;
    progress_stage: string | null;
    created: number;
    completed_at: number | null;
    created_ms: number;
    updated_ms: number;
    credits_consumed: number | null;
    credits_remaining: number | null;
    error_json: string | null;
    upstream_model_url: string | null;
    asset_sha256: string | null;
    archive_attempts: Generated<number>;
    archive_error: string | null;
    /** When the archive may be tried again; null when it need not be (archived, or given up). */
    archive_next_ms: number | null;
    hidden: Generated<number>;
    /** A WebP picture of the archived model, once a browser has drawn one. */
    thumbnail_sha256: ColumnType<string | null, string | null | undefined, string | null>;
    /** 1 when its owner starred it (migration 006). */
    favourite: Generated<number>;
    /** When the create was sent upstream and when its answer came (its charge is between). */
    sent_ms: ColumnType<number | null, number | null | undefined, number | null>;
    answered_ms: ColumnType<number | null, number | null | undefined, number | null>;
    /** The last time the task was seen pending, and the first time it was seen ended. */
    last_pending_ms: ColumnType<number | null, number | null | undefined, number | null>;
    ended_ms: ColumnType<number | null, number | null | undefined, number | null>;
    /** The model's own name, given by its owner; null until named (migration 009). */
    name: ColumnType<string | null, string | null | undefined, string | null>;
    /**
     * 1 when the create reached the library through a recovery path (migration 013): a retry
     * that found an earlier attempt's intent, or an upstream that replayed an earlier create.
     * Its charge happened within [sent_ms, answered_ms], but its figure proves nothing (0091).
     */
    recovered: ColumnType<number, number | undefined, number>;
    /** A vendor's task: what it cost in `cost_unit` (credits or USD), all its stages (migration 015). */
    cost_amount: ColumnType<number | null, number | null | undefined, number | null>;
    cost_unit: ColumnType<string | null, string | null | undefined, string | null>;
  };
  /** A create recorded before it is forwarded; deleted once its answer is known (migration 008). */
  create_intents: {
    id: string;
    owner: string;
    holder: string;
    sent_ms: number;
    model: string;
    /** The prompt, or the photos' names, shortened: what the artist would recognise. */
    summary: string;
  };
  /** A vendor task's current reference, where it moved on from its id's (migration 014). */
  provider_refs: {
    task_id: string;
    ref: string;
    updated_ms: number;
    /** What the stages before `ref`'s cost, in the task's unit (migration 015). */
    prior_cost: ColumnType<number, number | undefined, number>;
  };
  balances: {
    seq: Generated<number>;
    owner: string;
    balance: number;
    learned_ms: number;
    task_id: string | null;
    /** When the refused create was sent (migration 008); learned_ms is when it was answered. */
    sent_ms: ColumnType<number | null, number | null | undefined, number | null>;
  };
  idempotency_keys: {
    owner: string;
    key: string;
    body_sha256: string;
    /** 'in_flight' until the answer is kept, then 'done'. */
    state: string;
    /** Which process forwards it (a random id per process), and until when it may. */
    holder: string | null;
    lease_until_ms: number;
    status: number | null;
    headers_json: string | null;
    body: Uint8Array | null;
    created_ms: number;
  };
  uploads: {
    sha256: string;
    ext: string;
    bytes: number;
    created_ms: number;
    /** 1 once a task names it: kept for as long as the library keeps the task. */
    referenced: number;
    /** The file name it was uploaded with, when it came with one (the latest wins). */
    name: string | null;
  };
  counters: {
    /** What is counted and for whom, e.g. `create:<owner>` or `upload:<client>`. */
    name: string;
    window_start_ms: number;
    count: number;
  };
  leases: {
    /** What is claimed, e.g. `archive:<taskId>`. */
    name: string;
    holder: string;
    until_ms: number;
  };
  optimise_jobs: {
    /** `opt_` + 96 random bits. */
    id: string;
    owner: string;
    /** Owner, model and plan: the same request asked again gets the same job. */
    dedupe_key: string;
    /** queued, running, succeeded or failed (also inside job_json). */
    status: string;
    /** The process that runs it (Storage.holder). */
    holder: string;
    created_ms: number;
    /** Written by the runner at least every few seconds while the job is unfinished. */
    updated_ms: number;
    finished_ms: number | null;
    /** The contract's OptimiseJob. */
    job_json: string;
  };
  shares: {
    /** The link's secret (base64url, 144 random bits): `/s/{token}`. */
    token: string;
    owner: string;
    task_id: string;
    created_ms: number;
    /** The USDZ (AR Quick Look) the owner's browser made of the model, once uploaded. */
    usdz_sha256: string | null;
    /** What the link preview picture was made from (see share/preview.ts), and the picture. */
    preview_key: string | null;
    preview_sha256: string | null;
  };
  /** An owner's named group of library models (migration 010, decision 0087). */
  collections: {
    /** `col_` and 20 base64url characters (120 random bits). */
    id: string;
    owner: string;
    /** As the owner gave it (trimmed). */
    name: string;
    /** The name lower-cased: unique per owner. */
    name_key: string;
    created_ms: number;
    updated_ms: number;
  };
  /** A model in a collection: the collection owner's library row with this task id. */
  collection_models: {
    collection_id: string;
    task_id: string;
    added_ms: number;
  };
  /** A collection's public link (`/c/{token}`): one per collection; revoking deletes it. */
  collection_shares: {
    token: string;
    collection_id: string;
    owner: string;
    created_ms: number;
    /** What the link preview picture was made from, and the picture (migration 012). */
    preview_key: string | null;
    preview_sha256: string | null;
  };
}
