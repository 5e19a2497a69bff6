import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { isPostgres } from './dialect.ts';
import { OptimiseJobSchema, type OptimiseJob } from '../../contract/index.ts';
import type { Tables } from './schema.ts';

/** A job as kept: the job, whose it is, and who runs it. */
export interface StoredOptimiseJob {
  owner: string;
  dedupeKey: string;
  job: OptimiseJob;
  /** The process that runs it. */
  holder: string;
  /** When its runner last wrote it. */
  updatedMs: number;
}

/**
 * Optimise jobs shared by every replica (server/optimise/jobs.ts keeps the ones it runs in
 * memory too, and writes them through here).
 */
export interface OptimiseJobStore {
  /** Writes the job as it is now (inserted the first time). */
  put(row: StoredOptimiseJob): Promise<void>;
  get(id: string): Promise<StoredOptimiseJob | undefined>;
  /** The newest job asked with this key that has not failed. */
  findUnfailed(dedupeKey: string): Promise<StoredOptimiseJob | undefined>;
  /** The owner's unfinished jobs (queued or running), whoever runs them. */
  unfinished(owner: string): Promise<StoredOptimiseJob[]>;
  /**
   * Writes a new job unless its owner already has `limit` jobs under way (alive: written by
   * `holder`, or by another runner since `alive.sinceMs`), or an unfailed job with the same key
   * exists (succeeded, or under way and alive: a silent runner's job is neither counted nor
   * given out, decision 0097): counted and written in one transaction under a per-owner lock, so
   * replicas starting jobs at once cannot pass the limit together (decision 0075).
   */
  insertIfUnder(
    row: StoredOptimiseJob,
    limit: number,
    alive: { holder: string; sinceMs: number },
  ): Promise<
    | { kind: 'inserted' }
    | { kind: 'existing'; row: StoredOptimiseJob }
    | { kind: 'full'; underWay: number }
  >;
  /**
   * Writes `failed` (a job that failed) over an unfinished job whose runner went silent, unless
   * that runner wrote it since it was `seen` (it is alive after all); whether it was written.
   */
  failSilent(failed: OptimiseJob, seen: { holder: string; updatedMs: number }): Promise<boolean>;
  /**
   * Forgets jobs that finished before `beforeMs`, and unfinished ones no runner has written
   * since then (their runner is long gone); how many.
   */
  sweep(beforeMs: number): Promise<number>;
}

type Row = Tables['optimise_jobs'];

/** Written by `alive.holder` (this process), or by another runner since `alive.sinceMs`. */
const isAlive = (
  eb: ExpressionBuilder<Tables, 'optimise_jobs'>,
  alive: { holder: string; sinceMs: number },
) => eb.or([eb('holder', '=', alive.holder), eb('updated_ms', '>=', alive.sinceMs)]);

const fromRow = (r: Row): StoredOptimiseJob => ({
  owner: r.owner,
  dedupeKey: r.dedupe_key,
  // Written by Kiln itself; parsed anyway, so a row from an older version fails loudly here.
  job: OptimiseJobSchema.parse(JSON.parse(r.job_json)),
  holder: r.holder,
  updatedMs: Number(r.updated_ms),
});

type Db = Kysely<Tables>;
type Part<K extends keyof OptimiseJobStore> = Pick<OptimiseJobStore, K>;
const UNDER_WAY = ['queued', 'running'];

/** A job's row as written: every column, from the job as it is now. */
function columnsOf({ owner, dedupeKey, job, holder, updatedMs }: StoredOptimiseJob) {
  return {
    id: job.id,
    owner,
    dedupe_key: dedupeKey,
    created_ms: job.created_ms,
    status: job.status,
    holder,
    updated_ms: updatedMs,
    finished_ms: job.finished_ms,
    job_json: JSON.stringify(job),
  };
}

/** The newest job with this key that succeeded, or is under way and alive. */
function unfailedAlive(db: Db, dedupeKey: string, alive: { holder: string; sinceMs: number }) {
  return db
    .selectFrom('optimise_jobs')
    .selectAll()
    .where('dedupe_key', '=', dedupeKey)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'succeeded'),
        eb.and([eb('status', 'in', UNDER_WAY), isAlive(eb, alive)]),
      ]),
    )
    .orderBy('created_ms', 'desc')
    .executeTakeFirst();
}

/** How many of the owner's jobs are under way and alive. */
async function underWayOf(db: Db, owner: string, alive: { holder: string; sinceMs: number }) {
  const counted = await db
    .selectFrom('optimise_jobs')
    .select(sql<number | string>`count(*)`.as('n'))
    .where('owner', '=', owner)
    .where('status', 'in', UNDER_WAY)
    .where((eb) => isAlive(eb, alive))
    .executeTakeFirst();
  return Number(counted?.n ?? 0);
}

/** Jobs written: as they are now, or a new one admitted under the owner's limit. */
function writes(db: Db): Part<'put' | 'insertIfUnder'> {
  return {
    async put(row) {
      const { id, owner, dedupe_key, created_ms, ...values } = columnsOf(row);
      await db
        .insertInto('optimise_jobs')
        .values({ id, owner, dedupe_key, created_ms, ...values })
        .onConflict((oc) => oc.column('id').doUpdateSet(values))
        .execute();
    },

    async insertIfUnder(row, limit, alive) {
      return db.transaction().execute(async (trx) => {
        if (isPostgres(db as unknown as Kysely<unknown>))
          await sql`select pg_advisory_xact_lock(hashtext(${`optimise:${row.owner}`}))`.execute(
            trx,
          );
        const same = await unfailedAlive(trx, row.dedupeKey, alive);
        if (same) return { kind: 'existing' as const, row: fromRow(same) };
        const underWay = await underWayOf(trx, row.owner, alive);
        if (underWay >= limit) return { kind: 'full' as const, underWay };
        await trx.insertInto('optimise_jobs').values(columnsOf(row)).execute();
        return { kind: 'inserted' as const };
      });
    },
  };
}

/** Jobs read: one by id, the newest unfailed with a key, the owner's under way. */
function reads(db: Db): Part<'get' | 'findUnfailed' | 'unfinished'> {
  return {
    async get(id) {
      const r = await db
        .selectFrom('optimise_jobs')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return r && fromRow(r);
    },

    async findUnfailed(dedupeKey) {
      const r = await db
        .selectFrom('optimise_jobs')
        .selectAll()
        .where('dedupe_key', '=', dedupeKey)
        .where('status', '!=', 'failed')
        .orderBy('created_ms', 'desc')
        .executeTakeFirst();
      return r && fromRow(r);
    },

    async unfinished(owner) {
      const rows = await db
        .selectFrom('optimise_jobs')
        .selectAll()
        .where('owner', '=', owner)
        .where('status', 'in', ['queued', 'running'])
        .execute();
      return rows.map(fromRow);
    },
  };
}

/** Jobs ended by someone other than their runner: a silent runner's failed, old ones forgotten. */
function ends(db: Db): Part<'failSilent' | 'sweep'> {
  return {
    async failSilent(failed, seen) {
      const result = await db
        .updateTable('optimise_jobs')
        .set({
          status: 'failed',
          finished_ms: failed.finished_ms,
          job_json: JSON.stringify(failed),
        })
        .where('id', '=', failed.id)
        .where('status', 'in', ['queued', 'running'])
        .where('holder', '=', seen.holder)
        .where('updated_ms', '=', seen.updatedMs)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async sweep(beforeMs) {
      const result = await db
        .deleteFrom('optimise_jobs')
        .where((eb) =>
          eb.or([
            eb.and([eb('finished_ms', 'is not', null), eb('finished_ms', '<', beforeMs)]),
            eb.and([eb('status', 'in', ['queued', 'running']), eb('updated_ms', '<', beforeMs)]),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export function optimiseJobStore(db: Db): OptimiseJobStore {
  return { ...writes(db), ...reads(db), ...ends(db) };
}
