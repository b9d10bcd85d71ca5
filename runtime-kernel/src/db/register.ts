import type { Logger } from '../core/errors.js';
import type { ClientClasses, Database } from './database.js';

/** What `registerDatabase` uses of the app (a `Fluid` has all of it; only `onShutdown` is required). */
export interface ShutdownHooks {
  onShutdown(fn: () => unknown): unknown;
  /** Where the pending-migrations check of each bind runs once, when the app starts. */
  onStartup?(fn: () => unknown): unknown;
  /** `DATABASE_CONNECT_TIMEOUT` and `DATABASE_STATEMENT_TIMEOUT`, in seconds. */
  readonly config?: { readonly DATABASE_CONNECT_TIMEOUT?: number; readonly DATABASE_STATEMENT_TIMEOUT?: number };
  /** Where each bind's outage and recovery are logged. */
  readonly logger?: Logger;
  /** The health plugin: each bind becomes a readiness check. */
  readonly health?: { check(name: string, fn: () => unknown, options?: { log?: boolean }): unknown };
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
  return db;
}
