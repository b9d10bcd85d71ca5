/**
 * Databases: `DATABASE_BINDS` URLs normalised for their driver adapters, and a `Database` that
 * holds one generated PrismaClient per bind, connected lazily and closed by a shutdown hook.
 * No `@prisma/*` package is loaded until a bind's first query.
 */
export { Database, type ClientClasses, type DatabaseOptions, type PrismaClientClass, type PrismaClientLike } from './database.js';
export { lazyAdapter, type DriverAdapter, type DriverAdapterFactory, type LazyAdapterFactory } from './adapter.js';
export { DatabaseError } from './errors.js';
export { registerDatabase, type ShutdownHooks } from './register.js';
export { databaseUri, databaseUris, SUPPORTED_SCHEMES, type BindUri, type DatabaseProvider } from './uris.js';
