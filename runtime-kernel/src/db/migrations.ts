/**
 * Pending migrations: the migrations shipped with the app (`prisma/<bind>/migrations/<name>/
 * migration.sql`, what `fw migrate init` lays out) that the bind's database has not applied
 * (Prisma's `_prisma_migrations` table). An app started before `fw migrate deploy` cannot serve
 * the queries that need the new tables, so readiness reports the bind not ready until it ran.
 *
 * The check needs no Prisma CLI: it lists the folder once and reads `_prisma_migrations` with
 * one query. Once every shipped migration is applied the answer is kept: the folder of a running
 * app does not change (under `fw dev`, a migration added to it restarts the app: see
 * generators/src/dev/classify.ts), and a database does not un-apply a migration.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../core/errors.js';
import { DatabaseError } from './errors.js';
import type { DatabaseProvider } from './uris.js';

/** The folder `fw migrate` keeps a bind's migrations in, relative to the project root. */
export function migrationsDir(root: string, bind: string): string {
  return path.join(root, 'prisma', bind, 'migrations');
}

/**
 * The migrations in a bind's folder, in the order Prisma applies them (by name); a migration is a
 * folder holding `migration.sql`, as Prisma counts them. `undefined` when there is no folder
 * (no `fw migrate init`, or a deployment that left `prisma/` out): nothing to compare with.
 */
export async function shippedMigrations(dir: string): Promise<string[] | undefined> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
  const names: string[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const inside = await readdir(path.join(dir, entry.name)).catch(() => [] as string[]);
    if (inside.includes('migration.sql')) names.push(entry.name);
  }
  return names.sort();
}

/** A bind's database lacks migrations the app ships: readiness fails with this until `fw migrate deploy` ran. */
export class PendingMigrationsError extends DatabaseError {
  /** Always `'PendingMigrationsError'`. */
  override name = 'PendingMigrationsError';
  /** The shipped migrations not applied, in order. */
  readonly pending: readonly string[];
  constructor(bind: string, pending: readonly string[]) {
    super(bind, pendingMessage(bind, pending));
    this.pending = pending;
  }
}

/** `bind "main": 2 migrations not applied (a, b); run "npx fw migrate deploy"`. */
export function pendingMessage(bind: string, pending: readonly string[]): string {
  const shown = pending.length > 3 ? [...pending.slice(0, 3), `and ${pending.length - 3} more`] : pending;
  const count = pending.length === 1 ? '1 migration' : `${pending.length} migrations`;
  return `bind "${bind}": ${count} of prisma/${bind}/migrations not applied to its database (${shown.join(', ')}); run "npx fw migrate deploy"`;
}

/** Runs one SQL statement on the bind and returns its rows. */
type Query = (sql: string) => Promise<unknown>;

/** The statement telling whether `_prisma_migrations` exists (a fresh database has none). */
const TABLE_EXISTS: Record<DatabaseProvider, string> = {
  sqlite: "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'",
  postgresql: "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = '_prisma_migrations'",
};

/** Applied migrations: finished and not rolled back (a failed one has no `finished_at`). */
const APPLIED = 'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL';

/**
 * The pending-migrations state of one bind: the folder is listed once; the database is asked on
 * each `pending()` until every shipped migration is applied, then never again. Concurrent calls
 * share one run. Logs once when migrations are found pending and once when they are applied.
 */
export class MigrationWatch {
  readonly #bind: string;
  readonly #provider: DatabaseProvider;
  readonly #dir: string;
  readonly #logger: () => Logger | undefined;
  #shipped: Promise<string[] | undefined> | undefined;
  #applied = false;
  #reported = false;
  #running: Promise<string[]> | undefined;

  constructor(bind: string, provider: DatabaseProvider, dir: string, logger: () => Logger | undefined) {
    this.#bind = bind;
    this.#provider = provider;
    this.#dir = dir;
    this.#logger = logger;
  }

  /** A check in flight, if any (`dispose()` lets it finish before closing the bind). */
  get running(): Promise<unknown> | undefined {
    return this.#running;
  }

  /** The shipped migrations the database has not applied (empty once all are, and without a migrations folder). */
  pending(query: Query): Promise<string[]> {
    if (this.#applied) return Promise.resolve([]);
    this.#running ??= this.#check(query).finally(() => (this.#running = undefined));
    return this.#running;
  }

  async #check(query: Query): Promise<string[]> {
    this.#shipped ??= shippedMigrations(this.#dir);
    const shipped = await this.#shipped;
    if (!shipped || shipped.length === 0) {
      this.#applied = true;
      return [];
    }
    const exists = rows(await query(TABLE_EXISTS[this.#provider]));
    const applied = Number(exists[0]?.n ?? 0) > 0 ? new Set(rows(await query(APPLIED)).map((row) => String(row.migration_name))) : new Set<string>();
    const pending = shipped.filter((name) => !applied.has(name));
    if (pending.length === 0) {
      this.#applied = true;
      if (this.#reported) this.#logger()?.info(`database: bind "${this.#bind}": its migrations are applied; readiness passes again`, { bind: this.#bind });
      return [];
    }
    if (!this.#reported) {
      this.#reported = true;
      this.#logger()?.warn(`database: ${pendingMessage(this.#bind, pending)}. Until then readiness answers 503 and queries that need them fail`, {
        bind: this.#bind,
        pending,
      });
    }
    return pending;
  }
}

function rows(result: unknown): Record<string, unknown>[] {
  return Array.isArray(result) ? (result as Record<string, unknown>[]) : [];
}
