/**
 * `fw migrate`: renders the Prisma migration environment of the configured binds
 * (`fw migrate init`) and plans and runs the Prisma CLI per bind
 * (`fw migrate dev|deploy|status|reset|diff [--bind name] [--force]`).
 */
export { missingMigrationLines, missingMigrations } from './applied.js';
export { MigrateError } from './errors.js';
export { checkMigrationHistory, migrationHistoryProvider } from './history.js';
export { checkMigrateCommand, MIGRATE_ACTIONS, migrateCommandPlan, type MigrateAction, type MigrateCommandOptions, type PrismaInvocation } from './plan.js';
export { migrateLayout, renderMigrateEnvironment, type MigrateEnvironmentOptions, type MigrateLayout } from './render.js';
export { snapshotSqlite, type SqliteSnapshot } from './snapshot.js';
export { trialRunPostgres, type PostgresTrial } from './trial.js';
export { findPrismaBinary, runPrisma, runPrismaAll, type PrismaResult } from './run.js';
export { bindEnvVar, bindProvider, prismaUrl, sqliteFallbackUrl, type BindProvider } from './urls.js';
