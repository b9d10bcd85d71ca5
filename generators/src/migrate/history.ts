import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MigrateError } from './errors.js';
import type { BindProvider } from './urls.js';

const LOCKED_PROVIDER = /^\s*provider\s*=\s*"([^"]+)"/m;

/**
 * The provider a bind's committed migrations were written for: the `provider` of
 * `prisma/<bind>/migrations/migration_lock.toml` when the folder holds at least one migration
 * (a folder with a `migration.sql`), else undefined (no history yet: any provider may start one).
 * Migration SQL is provider-specific, so this, not the bind's current URL, says where it can run.
 */
export function migrationHistoryProvider(root: string, bind: string): string | undefined {
  const dir = path.join(root, 'prisma', bind, 'migrations');
  const lock = path.join(dir, 'migration_lock.toml');
  if (!existsSync(lock)) return undefined;
  const migrations = readdirSync(dir, { withFileTypes: true }).some((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, 'migration.sql')));
  if (!migrations) return undefined;
  return LOCKED_PROVIDER.exec(readFileSync(lock, 'utf8'))?.[1];
}

/**
 * Throws when a bind's migrations were written for another provider than its URL's (a bind moved
 * from SQLite to PostgreSQL in `fw.json`): SQLite's SQL fails on PostgreSQL with a syntax error
 * that says nothing about why. The error names the bind, both providers and the way out.
 */
export function checkMigrationHistory(root: string, bind: string, provider: BindProvider): void {
  const history = migrationHistoryProvider(root, bind);
  if (history === undefined || history === provider) return;
  const dir = path.posix.join('prisma', bind, 'migrations');
  throw new MigrateError(
    `bind "${bind}": the migrations in ${dir} were written for ${history} (its migration_lock.toml), but DATABASE_BINDS.${bind} ` +
      `is now a ${provider} URL, where they cannot run. To start a ${provider} history, delete the migration folders and ` +
      `migration_lock.toml in ${dir} (keep a copy if the ${history} database still matters), then run ` +
      `"npx fw migrate dev --name init" (npx fw docs databases, "Moving a bind to another database")`,
    { bind },
  );
}
