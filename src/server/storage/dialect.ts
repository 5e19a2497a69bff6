import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

export function isPostgres(db: Kysely<unknown> | Kysely<never>): boolean {
  return (db as Kysely<unknown>).getExecutor().adapter instanceof PostgresAdapter;
}

/** Column types that differ between the two dialects. */
export function columnTypes(db: Kysely<unknown>) {
  const pg = isPostgres(db);
  return {
    /** An auto-incrementing integer key (use with `.primaryKey()` only). */
    serial: (pg ? 'bigserial' : 'integer') as 'integer',
    /** Epoch milliseconds and other integers past 2^31. */
    bigint: 'bigint' as const,
    bytes: (pg ? sql`bytea` : sql`blob`) as RawBuilder<unknown>,
    /** Whether `.autoIncrement()` is needed beside `serial` (SQLite) or implied (Postgres). */
    autoIncrement: !pg,
  };
}
