import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { MigrateError } from './errors.js';
import { loadPg, NO_DATABASE } from './trial.js';
import { sqliteFile } from './urls.js';

/** The slice of `@libsql/client` this module uses. */
interface LibsqlClient {
  execute(sql: string): Promise<{ rows: ReadonlyArray<Record<string, unknown>> }>;
  close(): void;
}
type LibsqlModule = { createClient: (config: { url: string }) => LibsqlClient };

// What Prisma counts as applied: finished and not rolled back (`migrate resolve --rolled-back`).
const APPLIED = 'finished_at IS NOT NULL AND rolled_back_at IS NULL';

function loadLibsql(root: string, bind: string): LibsqlModule {
  try {
    return createRequire(path.join(root, 'package.json'))('@libsql/client') as LibsqlModule;
  } catch (error) {
    throw new MigrateError(
      `bind "${bind}": fw migrate status needs the "@libsql/client" package, which is not installed in ${root}/node_modules; fw generate lists it in package.json for a SQLite bind: run "npm install"`,
      { bind, cause: error },
    );
  }
}

/** The applied migrations of a SQLite file; none when the file or `_prisma_migrations` does not exist (nothing is created). */
async function appliedSqlite(bind: string, root: string, file: string): Promise<string[]> {
  if (!existsSync(file)) return [];
  const client = loadLibsql(root, bind).createClient({ url: `file:${file}` });
  try {
    const table = await client.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'");
    if (table.rows.length === 0) return [];
    const rows = await client.execute(`SELECT migration_name FROM _prisma_migrations WHERE ${APPLIED} ORDER BY migration_name`);
    return rows.rows.map((row) => String(row.migration_name));
  } finally {
    client.close();
  }
}

/** The `schema` parameter of a PostgreSQL URL, as Prisma reads it (`public` without one). */
function schemaOf(url: string): string {
  try {
    return new URL(url).searchParams.get('schema') ?? 'public';
  } catch {
    return 'public';
  }
}

/** The applied migrations of a PostgreSQL database (in the URL's `schema`, Prisma's `public` by default); none when it does not exist yet. */
async function appliedPostgres(bind: string, root: string, url: string): Promise<string[]> {
  const pg = loadPg(root, bind);
  const schema = schemaOf(url);
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    if ((error as { code?: string }).code === NO_DATABASE) return [];
    throw new MigrateError(`bind "${bind}": cannot connect to PostgreSQL: ${(error as Error).message}`, { bind, cause: error });
  }
  try {
    const table = `"${schema.replaceAll('"', '""')}"._prisma_migrations`;
    const found = await client.query<{ name: string | null }>(`SELECT to_regclass('${table.replaceAll("'", "''")}')::text AS name`);
    if (!found.rows[0]?.name) return [];
    const rows = await client.query<{ migration_name: string }>(`SELECT migration_name FROM ${table} WHERE ${APPLIED} ORDER BY migration_name`);
    return rows.rows.map((row) => row.migration_name);
  } finally {
    await client.end();
  }
}

/**
 * The migrations a bind's database has applied (its `_prisma_migrations` table) that have no
 * folder with a `migration.sql` in `prisma/<bind>/migrations`: folders deleted, or never pulled.
 * `prisma migrate status` says "Database schema is up to date!" then, since its history check
 * returns early when the database is only ahead of the folder; `fw migrate status` reports them
 * (see the command). The database is read with the project's own driver of the bind (`pg`, or
 * `@libsql/client` for a SQLite file), never written. `url` is the bind's normalised URL
 * (`prismaUrl`); an in-memory SQLite database has no history to compare.
 */
export async function missingMigrations(bind: string, root: string, url: string): Promise<string[]> {
  const file = sqliteFile(url);
  let applied: string[];
  if (file !== undefined) applied = await appliedSqlite(bind, root, file);
  else if (url.startsWith('postgresql:')) applied = await appliedPostgres(bind, root, url);
  else return [];
  const dir = path.join(root, 'prisma', bind, 'migrations');
  return applied.filter((name) => !existsSync(path.join(dir, name, 'migration.sql')));
}

/**
 * The lines `fw migrate status` prints for a bind's {@link missingMigrations}: one per migration,
 * naming the folder, then the way out.
 */
export function missingMigrationLines(bind: string, missing: readonly string[]): string[] {
  const dir = path.posix.join('prisma', bind, 'migrations');
  return [
    ...missing.map((name) => `fw migrate status: bind "${bind}": migration ${name} is applied to the database, but ${dir}/${name}/migration.sql is missing`),
    `fw migrate status: bind "${bind}": restore the missing folder${missing.length > 1 ? 's' : ''} from version control (git pull, or git checkout -- ${dir}); ` +
      `without ${missing.length > 1 ? 'them' : 'it'} a new database cannot be migrated to this one's state. If you deleted ${missing.length > 1 ? 'them' : 'it'} on purpose, ` +
      `a development database starts over with "npx fw migrate reset --force --bind ${bind}" (drops every table)`,
  ];
}
