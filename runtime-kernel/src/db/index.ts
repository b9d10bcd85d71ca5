/**
 * Databases: `DATABASE_BINDS` URLs normalised for their driver adapters, and a `Database` that
 * holds one generated PrismaClient per bind, connected lazily with timeouts, answering 503 during
 * an outage, checked by readiness and closed by a shutdown hook.
 * No `@prisma/*` package is loaded until a bind's first query.
 */
export { Database, type ClientClasses, type ClientOf, type DatabaseOptions, type PrismaClientClass, type PrismaClientLike } from './database.js';
export { lazyAdapter, DEFAULT_TIMEOUTS, type BindTimeouts, type DriverAdapter, type DriverAdapterFactory, type LazyAdapterFactory } from './adapter.js';
export { DatabaseUnavailableError, isOutage, BindWatch } from './outage.js';
export { DatabaseError } from './errors.js';
export { PendingMigrationsError, shippedMigrations } from './migrations.js';
export { registerDatabase, type ShutdownHooks } from './register.js';
export { databaseUri, databaseUris, SUPPORTED_SCHEMES, type BindUri, type DatabaseProvider } from './uris.js';
