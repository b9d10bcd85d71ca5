import { copyFile, rm, stat } from 'node:fs/promises';

/** SQLite's side files that belong to a database file's state. */
const SIDE_FILES = ['-journal', '-wal', '-shm'];

/**
 * A copy of a SQLite database taken before a migration, so a failed migration can be undone
 * completely. Prisma applies a SQLite migration script statement by statement without a
 * transaction, so a script that fails halfway would otherwise leave its first statements (and a
 * failed `_prisma_migrations` row) behind. PostgreSQL needs no snapshot: a migration script runs
 * as one implicit transaction there.
 */
export interface SqliteSnapshot {
  /** Puts the database back exactly as it was (removes it if it did not exist). */
  restore(): Promise<void>;
  /** Drops the copy after a successful run. */
  discard(): Promise<void>;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/** Copies `file` (and its side files) aside as `<file>.fw-snapshot*`. */
export async function snapshotSqlite(file: string): Promise<SqliteSnapshot> {
  const copy = `${file}.fw-snapshot`;
  const existed = await exists(file);
  const sides: string[] = [];
  if (existed) {
    await copyFile(file, copy);
    for (const suffix of SIDE_FILES) {
      if (await exists(file + suffix)) {
        await copyFile(file + suffix, copy + suffix);
        sides.push(suffix);
      }
    }
  }
  const discard = async (): Promise<void> => {
    await rm(copy, { force: true });
    for (const suffix of SIDE_FILES) await rm(copy + suffix, { force: true });
  };
  return {
    async restore() {
      for (const suffix of SIDE_FILES) await rm(file + suffix, { force: true });
      if (!existed) {
        await rm(file, { force: true });
        return;
      }
      await copyFile(copy, file);
      for (const suffix of sides) await copyFile(copy + suffix, file + suffix);
      await discard();
    },
    discard,
  };
}
