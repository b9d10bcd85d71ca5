import type { Logger } from '../core/errors.js';
import type { Backend, Plugin } from '../core/plugin.js';
import type { ClientClasses, Database } from './database.js';

/** What `registerDatabase` uses of the app (a `Fluid` has all of it; only `onShutdown` is required). */
export interface ShutdownHooks {
  /** Registers `fn` to run when the app shuts down (the binds disconnect there). */
  onShutdown(fn: () => unknown): unknown;
  /** Where the pending-migrations check of each bind runs once, when the app starts. */
  onStartup?(fn: () => unknown): unknown;
  /** `DATABASE_CONNECT_TIMEOUT` and `DATABASE_STATEMENT_TIMEOUT`, in seconds. */
  readonly config?: { readonly DATABASE_CONNECT_TIMEOUT?: number; readonly DATABASE_STATEMENT_TIMEOUT?: number };
  /** Where each bind's outage and recovery are logged. */
  readonly logger?: Logger;
  /** The health plugin: each bind becomes a readiness check. */
  readonly health?: { check(name: string, fn: () => unknown, options?: { log?: boolean }): unknown };
  /** Where the binds join serve()'s `fw: backends:` line and its scale-out warnings (plugin `database`). */
  plugin?(plugin: Plugin): unknown;
  /** The plugins already registered (a second `Database` adds no second `database` plugin). */
  readonly plugins?: ReadonlyMap<string, unknown>;
}

/**
 * A bind as serve() reports it: a SQLite file is per host (each host or container has its own
 * file, so FW_INSTANCES > 1 warns), any server database is shared.
 */
function bindBackend(name: string, provider: string): Backend {
  return {
    name: `database ${name}`,
    kind: provider,
    scope: provider === 'sqlite' ? 'host' : 'shared',
    breaks: 'each host has its own SQLite file: what one host writes (accounts, your rows) the others never see',
    fix: `point DATABASE_BINDS.${name} (or DATABASE_URL) at one PostgreSQL server for every host (npx fw docs databases, "Moving a bind to another database")`,
  };
}

/**
 * Wires a `Database` into the app: `db.dispose()` becomes a shutdown hook (the reference's
 * Events rule 7), so `fluid.close()` and `serve()`'s SIGINT/SIGTERM handling close every bind;
 * the binds get the app's timeouts and logger (unless the `Database` was given its own); and each
 * bind with a client becomes the readiness check `database.<bind>` (`SELECT 1`, and every
 * migration of `prisma/<bind>/migrations` applied). When the app starts, each bind is checked
 * for migrations its database lacks, in the background (startup does not wait for a database),
 * and a warning names them once. Returns the database for chaining.
 */
export function registerDatabase<C extends ClientClasses>(fluid: ShutdownHooks, db: Database<C>): Database<C> {
  const timeouts: { connect?: number; statement?: number } = {};
  if (fluid.config?.DATABASE_CONNECT_TIMEOUT !== undefined) timeouts.connect = fluid.config.DATABASE_CONNECT_TIMEOUT;
  if (fluid.config?.DATABASE_STATEMENT_TIMEOUT !== undefined) timeouts.statement = fluid.config.DATABASE_STATEMENT_TIMEOUT;
  db.configure(fluid.logger ? { timeouts, logger: fluid.logger } : { timeouts });
  // The binds log their own outages; the readiness check need not.
  for (const name of db.names) fluid.health?.check(`database.${name}`, () => db.ping(name), { log: false });
  // An outage is logged by the bind, pending migrations by the check; readiness reports both.
  fluid.onStartup?.(() => {
    for (const name of db.names) void db.pendingMigrations(name).catch(() => undefined);
  });
  fluid.onShutdown(() => db.dispose());
  if (fluid.plugin && !fluid.plugins?.has('database')) {
    fluid.plugin({ name: 'database', backends: () => db.names.map((name) => bindBackend(name, db.uris[name]!.provider)) });
  }
  return db;
}
