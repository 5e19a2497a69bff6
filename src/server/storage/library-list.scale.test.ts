// The library's list suite on PostgreSQL: a throwaway cluster per file (scale tests).
import { afterAll, beforeAll } from 'vitest';
import { startPostgres, type TestPostgres } from '../../testing/postgres.ts';
import { openPostgresStorage } from './database.ts';
import { libraryListSuite } from './library-list-suite.ts';

let pg: TestPostgres;
let n = 0;
beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);
afterAll(() => pg?.destroy());

libraryListSuite('PostgreSQL', async () => {
  // A fresh database per test, as SQLite's :memory: is.
  const admin = await import('pg');
  const client = new admin.default.Client({ connectionString: pg.url });
  await client.connect();
  const name = `l${++n}`;
  await client.query(`create database ${name}`);
  await client.end();
  return openPostgresStorage(pg.url.replace(/\/kiln$/, `/${name}`));
});
