import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { MigrateError } from './errors.js';

/** What {@link trialRunPostgres} needs: the bind, its URL and its migrations folder. */
export interface PostgresTrial {
  /** The bind's normalised `postgresql://` URL. */
  url: string;
  /** Absolute path of `prisma/<bind>/migrations`. */
  migrations: string;
}

/** The slice of `pg` the trial uses. */
interface PgClient {
  connect(): Promise<unknown>;
  query<R = Record<string, unknown>>(text: string): Promise<{ rows: R[] }>;
  end(): Promise<void>;
}
export type PgModule = { Client: new (config: { connectionString: string }) => PgClient };

// Statements that would end our enclosing transaction (and commit the trial for real).
const TRANSACTION_CONTROL = /^\s*(BEGIN|COMMIT|END|ROLLBACK|START\s+TRANSACTION|ABORT)\b/im;
// SQLSTATE 25001: the statement cannot run inside a transaction block (CREATE INDEX CONCURRENTLY).
const NOT_IN_TRANSACTION = '25001';
// SQLSTATE 3D000: the database does not exist yet (Prisma creates it).
export const NO_DATABASE = '3D000';

/** The project's own `pg` (a PostgreSQL bind's dependency); a missing one throws naming `npm install`. */
export function loadPg(root: string, bind: string): PgModule {
  try {
    return createRequire(path.join(root, 'package.json'))('pg') as PgModule;
  } catch (error) {
    throw new MigrateError(`bind "${bind}": fw migrate needs the "pg" package, which is not installed in ${root}/node_modules; fw generate lists it in package.json for a PostgreSQL bind: run "npm install"`, {
      bind,
      cause: error,
    });
  }
}

/** Migration folders (with a `migration.sql`) in the order Prisma applies them. */
function migrationFolders(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort();
}

/**
 * Runs a PostgreSQL bind's pending migrations inside one transaction and rolls it back, before
 * Prisma applies them for real. Prisma applies a migration statement by statement, so a
 * migration that fails halfway would leave its first statements and a failed
 * `_prisma_migrations` row behind. PostgreSQL's DDL is transactional, so the trial shows the
 * failure while the database stays untouched. Throws a {@link MigrateError} naming the bind, the
 * migration and PostgreSQL's message.
 *
 * The trial is left out (Prisma runs as it always does) when there is nothing pending, when the
 * database does not exist yet, when a pending migration has its own transaction control, or when
 * a statement cannot run inside a transaction (`CREATE INDEX CONCURRENTLY`).
 */
export async function trialRunPostgres(bind: string, root: string, trial: PostgresTrial): Promise<void> {
  const folders = migrationFolders(trial.migrations);
  if (folders.length === 0) return;
  const pg = loadPg(root, bind);
  const client = new pg.Client({ connectionString: trial.url });
  try {
    await client.connect();
  } catch (error) {
    if ((error as { code?: string }).code === NO_DATABASE) return;
    throw new MigrateError(`bind "${bind}": cannot connect to PostgreSQL: ${(error as Error).message}`, { bind, cause: error });
  }
  try {
    const table = await client.query<{ name: string | null }>("SELECT to_regclass('_prisma_migrations')::text AS name");
    const applied = new Set<string>();
    if (table.rows[0]?.name) {
      const rows = await client.query<{ migration_name: string }>(
        'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
      );
      for (const row of rows.rows) applied.add(row.migration_name);
    }
    const pending = folders
      .filter((name) => !applied.has(name))
      .map((name) => ({ name, sql: readFileSync(path.join(trial.migrations, name, 'migration.sql'), 'utf8') }));
    if (pending.length === 0 || pending.some((m) => TRANSACTION_CONTROL.test(m.sql))) return;
    await client.query('BEGIN');
    try {
      for (const migration of pending) {
        try {
          await client.query(migration.sql);
        } catch (error) {
          if ((error as { code?: string }).code === NOT_IN_TRANSACTION) return;
          throw new MigrateError(
            `bind "${bind}": migration ${migration.name} failed on a trial run inside a transaction, so nothing was applied ` +
              `and the database is untouched: ${(error as Error).message}`,
            { bind, cause: error },
          );
        }
      }
    } finally {
      await client.query('ROLLBACK');
    }
  } finally {
    await client.end();
  }
}
