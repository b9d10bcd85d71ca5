/**
 * A bind moved to another database in fw.json (SQLite → PostgreSQL, the step before deploying):
 * its committed migrations are SQLite's SQL. `fw generate` keeps their migration_lock.toml, and
 * `fw migrate` stops before touching any database, naming the bind, both providers and the way
 * out, instead of PostgreSQL's `syntax error at or near "AUTOINCREMENT"` from the first migration.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { fw, editConfig, linkKernel, newProject } from '../generators/project-helpers.js';

const SQLITE_MIGRATION = 'CREATE TABLE "User" ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "email" TEXT);\n';
// Nothing listens here: the check must come before any connection.
const POSTGRES = 'postgresql://app:secret-pw@127.0.0.1:9/app';

describe('fw migrate after DATABASE_BINDS moved from SQLite to PostgreSQL', () => {
  test('fw generate keeps the history\'s lock; dev, deploy and status stop with the way out; a new history starts cleanly', async () => {
    const root = await newProject('moving');
    expect((await fw(root, 'migrate', 'init', '--no-install')).code).toBe(0);
    const migrations = path.join(root, 'prisma/main/migrations');
    const lock = path.join(migrations, 'migration_lock.toml');
    expect(await readFile(lock, 'utf8')).toContain('provider = "sqlite"');
    await mkdir(path.join(migrations, '20260101000000_init'));
    await writeFile(path.join(migrations, '20260101000000_init/migration.sql'), SQLITE_MIGRATION);

    await editConfig(root, (json) => {
      json.config.DATABASE_BINDS = { main: POSTGRES };
    });
    expect((await fw(root, 'generate', '--no-install')).code).toBe(0);
    expect(await readFile(path.join(root, 'prisma/main/schema.prisma'), 'utf8')).toContain('provider = "postgresql"');
    expect(await readFile(lock, 'utf8')).toContain('provider = "sqlite"'); // what the migrations were written for

    await linkKernel(root);
    for (const action of [['deploy'], ['dev', '--force'], ['status']]) {
      const ran = await fw(root, 'migrate', ...action);
      expect(ran.code, action[0]).toBe(1);
      expect(ran.error).toBe(
        'bind "main": the migrations in prisma/main/migrations were written for sqlite (its migration_lock.toml), but DATABASE_BINDS.main ' +
          'is now a postgresql URL, where they cannot run. To start a postgresql history, delete the migration folders and ' +
          'migration_lock.toml in prisma/main/migrations (keep a copy if the sqlite database still matters), then run ' +
          '"npx fw migrate dev --name init" (npx fw docs databases, "Moving a bind to another database")',
      );
      expect(ran.error).not.toContain('secret-pw');
    }

    // The way out, as the error says.
    await rm(path.join(migrations, '20260101000000_init'), { recursive: true });
    await rm(lock);
    // Your deletion stands (Prisma writes the new lock at the first `migrate dev`)...
    expect((await fw(root, 'generate', '--no-install')).out).toContain('skip-deleted        prisma/main/migrations/migration_lock.toml');
    // ...and migrate goes on to Prisma (not installed in this project).
    expect((await fw(root, 'migrate', 'deploy')).error).toMatch(/^bind "main": prisma CLI not found/);
  });
});
