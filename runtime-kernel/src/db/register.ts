import type { ClientClasses, Database } from './database.js';

/** Anything with shutdown hooks, such as a `Fluid`. */
export interface ShutdownHooks {
  onShutdown(fn: () => unknown): unknown;
}

/**
 * Registers `db.dispose()` as a shutdown hook (the reference's Events rule 7), so `fluid.close()`
 * and `fw run`'s SIGINT/SIGTERM handling close every bind. Returns the database for chaining.
 */
export function registerDatabase<C extends ClientClasses>(fluid: ShutdownHooks, db: Database<C>): Database<C> {
  fluid.onShutdown(() => db.dispose());
  return db;
}
