import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { migrate, openSqlite } from '../../db/index.ts';
import { collectionStore, type CollectionStore } from './collections.ts';
import { counters, type Counters } from './counters.ts';
import { idempotencyStore, type IdempotencyStore } from './idempotency.ts';
import { intentStore, type IntentStore } from './intents.ts';
import { leases, type Leases } from './leases.ts';
import { libraryStore, type LibraryStore } from './library.ts';
import { migrations } from './migrations.ts';
import { optimiseJobStore, type OptimiseJobStore } from './optimise-jobs.ts';
import { providerRefStore, type ProviderRefStore } from './provider-refs.ts';
import { shareStore, type ShareStore } from './shares.ts';
import type { Tables } from './schema.ts';
import { uploadIndex, type UploadIndex } from './uploads.ts';

/** Everything Kiln keeps in its database, one store per concern over one connection. */
export interface Storage {
  library: LibraryStore;
  idempotency: IdempotencyStore;
  /** Creates recorded before they are forwarded. */
  intents: IntentStore;
  uploads: UploadIndex;
  counters: Counters;
  leases: Leases;
  /** Public links to models. */
  shares: ShareStore;
  /** Owners' collections of models, and their public links. */
  collections: CollectionStore;
  /** Optimise jobs, readable by every replica. */
  optimiseJobs: OptimiseJobStore;
  /** Where a vendor's task moved on to (a second charged stage). */
  providerRefs: ProviderRefStore;
  /** This process's name in leases and in-flight records. */
  holder: string;
  /** True when no other process can share the database (embedded SQLite). */
  exclusive: boolean;
  /** One trivial query: resolves when the database answers (readiness). */
  ping(): Promise<void>;
  /** The connection pool's state (PostgreSQL; none for embedded SQLite). */
  pool?: () => { inUse: number; idle: number; waiting: number };
  close(): Promise<void>;
}

function storageOver(
  db: Kysely<Tables>,
  exclusive: boolean,
  pool?: () => { inUse: number; idle: number; waiting: number },
): Storage {
  return {
    ...(pool ? { pool } : {}),
    library: libraryStore(db),
    idempotency: idempotencyStore(db),
    intents: intentStore(db),
    uploads: uploadIndex(db),
    counters: counters(db),
    leases: leases(db),
    shares: shareStore(db),
    collections: collectionStore(db),
    optimiseJobs: optimiseJobStore(db),
    providerRefs: providerRefStore(db),
    holder: `${process.pid}-${randomBytes(6).toString('hex')}`,
    exclusive,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

/**
 * The embedded default: one SQLite file (WAL, 0600), used by this process alone. In-flight
 * idempotency records left by a previous process are freed at once: it cannot still be running.
 */
export async function openSqliteStorage(file: string): Promise<Storage> {
  const db = await openSqlite<Tables>(file, migrations);
  const storage = storageOver(db, true);
  await storage.idempotency.expireAllLeases();
  return storage;
}

/**
 * The shared store of a scaled-out Kiln (DATABASE_URL): PostgreSQL through a pool. Migrations run
 * at start under Kysely's migration lock (a session-level PostgreSQL advisory lock), so replicas
 * starting at once do not race; bigints come back as numbers (times in ms fit); a connection
 * the server drops is replaced on the next query.
 */
export async function openPostgresStorage(
  url: string,
  options: { max?: number; log?: (message: string) => void } = {},
): Promise<Storage> {
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === pg.types.builtins.INT8
        ? (value: string) => Number(value)
        : pg.types.getTypeParser(oid, format as 'text'),
  };
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    types,
  });
  // A connection the server drops (a restart, a crash, an administrator's kill) must never end
  // the process. pg emits 'error' on the client itself: the pool listens only while a client is
  // idle, so a client checked out by a request or a transaction needs its own listener, or the
  // event is unhandled and Node exits (issue 31). The query in flight fails on its own (a 503
  // to retry, isStorageUnavailable), and the broken client is dropped when it is released.
  const lost = (err: Error) => options.log?.(`database connection lost: ${err.message}`);
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  await migrate(db, migrations);
  return storageOver(db, false, () => ({
    inUse: pool.totalCount - pool.idleCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
  }));
}

/** SQLSTATE classes and Node error codes that mean "the database is not there right now". */
const UNAVAILABLE = /^(08|57P0[1-3]|53300)|^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|SQLITE_BUSY)$/;

/**
 * True for an error that says the database cannot be reached (refused, restarting, shutting
 * down, too many connections, a dropped connection, a busy SQLite file): the request gets a 503
 * to retry, and the next query tries again.
 */
export function isStorageUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && UNAVAILABLE.test(code)) return true;
    if (
      typeof message === 'string' &&
      /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(
        message,
      )
    )
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
