/**
 * The SQLite schema, created and migrated by the store itself: `zhin_schema` holds the version,
 * each migration runs once, in order, inside one immediate transaction (so two processes opening
 * the same file at once migrate it once). A file written by a newer runtime is refused rather
 * than guessed at.
 */

/** The slice of a better-sqlite3 `Statement` the stores use. */
export interface SqliteStatement {
  run(...params: readonly unknown[]): { readonly changes: number };
  get(...params: readonly unknown[]): unknown;
  all(...params: readonly unknown[]): unknown[];
}

/**
 * The slice of a better-sqlite3 `Database` the stores use (structural: the runtime never imports
 * the driver; the host opens the database and passes it in).
 */
export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): unknown;
  pragma(source: string, options?: { readonly simple?: boolean }): unknown;
  transaction<T>(fn: () => T): { (): T; immediate(): T };
}

/** Migration n (1-based) takes the schema from version n-1 to n. Append only: never edit one. */
export const MIGRATIONS: readonly string[] = Object.freeze([
  `CREATE TABLE zhin_sessions (
     session_key TEXT PRIMARY KEY,
     snapshot TEXT NOT NULL,
     updated_at INTEGER NOT NULL,
     expires_at INTEGER
   );
   CREATE TABLE zhin_approvals (
     session_key TEXT NOT NULL,
     tool TEXT NOT NULL,
     approved_at INTEGER NOT NULL,
     expires_at INTEGER,
     PRIMARY KEY (session_key, tool)
   );
   CREATE TABLE zhin_journal (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     turn_id TEXT NOT NULL,
     seq INTEGER NOT NULL,
     session_key TEXT NOT NULL,
     trace_id TEXT NOT NULL,
     principal TEXT,
     tool TEXT NOT NULL,
     type TEXT NOT NULL,
     at INTEGER NOT NULL,
     duration_ms REAL,
     entry TEXT NOT NULL,
     UNIQUE (turn_id, seq)
   );
   CREATE INDEX zhin_journal_session ON zhin_journal (session_key, id);`,
]);

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Creates or migrates the schema; returns the version found before. */
export function migrate(db: SqliteDatabase): number {
  return db
    .transaction(() => {
      db.exec('CREATE TABLE IF NOT EXISTS zhin_schema (version INTEGER NOT NULL)');
      const row = db.prepare('SELECT max(version) AS version FROM zhin_schema').get() as
        | { version: number | null }
        | undefined;
      const found = typeof row?.version === 'number' ? row.version : 0;
      if (found > SCHEMA_VERSION)
        throw new Error(
          `SQLite store: the database is at schema version ${found}, newer than this runtime's ${SCHEMA_VERSION}; upgrade @zhin-gen/runtime or use another file`,
        );
      for (let version = found + 1; version <= SCHEMA_VERSION; version++) {
        db.exec(MIGRATIONS[version - 1]!);
        db.prepare('DELETE FROM zhin_schema').run();
        db.prepare('INSERT INTO zhin_schema (version) VALUES (?)').run(version);
      }
      return found;
    })
    .immediate();
}
