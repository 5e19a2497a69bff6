import Database from 'better-sqlite3';
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, Migrator, SqliteDialect, type Migration } from 'kysely';

/**
 * One SQLite file as Kysely sees it, the way every Kiln database is opened: the file (and its
 * WAL and shared-memory files, which SQLite creates with the database's mode) readable by this
 * user only, WAL journal (survives kill -9; readers never wait for the writer), a busy timeout,
 * foreign keys on, and the migrations run to the latest.
 */
export async function openSqlite<Tables>(
  file: string,
  migrations: Record<string, Migration>,
): Promise<Kysely<Tables>> {
  if (file !== ':memory:') {
    mkdirSync(dirname(file), { recursive: true });
    closeSync(openSync(file, 'a', 0o600)); // created 0600 when new
    chmodSync(file, 0o600); // and tightened when an older Kiln made it 0644
    for (const side of [`${file}-wal`, `${file}-shm`])
      try {
        chmodSync(side, 0o600);
      } catch {
        // not there yet: SQLite will create it with the database's mode
      }
  }
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Tables>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
  });
  await migrate(db, migrations);
  return db;
}

/**
 * better-sqlite3 as Kysely's dialect sees it, with prepared statements kept by their SQL: Kysely
 * prepares every query anew, and preparing costs more than running a small one. (Kysely runs a
 * statement to completion before the next, so one statement object per SQL text is safe.)
 */
function withStatementCache(sqlite: Database.Database) {
  const cache = new Map<string, Database.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (cache.size >= 500) cache.delete(cache.keys().next().value as string);
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}

/** Runs `migrations` (applied in name order) to the latest; throws the first failure. */
export async function migrate<Tables>(db: Kysely<Tables>, migrations: Record<string, Migration>) {
  const { error } = await new Migrator({
    db: db as unknown as Kysely<unknown>,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
