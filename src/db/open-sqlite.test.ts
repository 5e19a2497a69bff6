import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openSqlite } from './open-sqlite.ts';

const migrations = {
  '001': {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('t').addColumn('x', 'integer').execute();
    },
  },
};

describe('openSqlite', () => {
  it('creates the database, its WAL and shared memory readable by this user only', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kiln-db-')), 'sub', 'a.sqlite');
    const db = await openSqlite<{ t: { x: number } }>(file, migrations);
    await db.insertInto('t').values({ x: 1 }).execute();
    for (const f of [file, `${file}-wal`, `${file}-shm`])
      expect((statSync(f).mode & 0o777).toString(8), f).toBe('600');
    const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
    expect(mode.rows[0]?.journal_mode).toBe('wal');
    await db.destroy();
  });

  it('tightens a file an older Kiln left 0644', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kiln-db-')), 'old.sqlite');
    writeFileSync(file, '', { mode: 0o644 });
    const db = await openSqlite(file, migrations);
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
    await db.destroy();
  });
});
