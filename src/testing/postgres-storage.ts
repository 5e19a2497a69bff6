// Scale tests only: Kiln's storage on a throwaway PostgreSQL cluster, for the suites that run on
// both dialects (storage-suite.ts, server/storage/library-list-suite.ts).
import { afterAll, beforeAll } from 'vitest';
import { openPostgresStorage, type Storage } from '../server/storage/database.ts';
import { startPostgres, type TestPostgres } from './postgres.ts';

/**
 * Starts a cluster before the calling file's tests and removes it after them; the function it
 * returns opens the storage on a fresh database each call, as SQLite's :memory: is.
 */
export function freshPostgresStorage(): () => Promise<Storage> {
  let pg: TestPostgres;
  let n = 0;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 60_000);
  afterAll(() => pg?.destroy());
  return async () => {
    const admin = await import('pg');
    const client = new admin.default.Client({ connectionString: pg.url });
    await client.connect();
    const name = `t${++n}`;
    await client.query(`create database ${name}`);
    await client.end();
    return openPostgresStorage(pg.url.replace(/\/kiln$/, `/${name}`));
  };
}
