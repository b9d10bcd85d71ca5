import { blueprintTemplate } from '../render/blueprint.js';
import { MigrateError } from './errors.js';
import { bindEnvVar, bindProvider, sqliteFallbackUrl, type BindProvider } from './urls.js';

/** Input of {@link renderMigrateEnvironment}: the config at init time. */
export interface MigrateEnvironmentOptions {
  /** `DATABASE_BINDS` at init time: bind name → URL. */
  binds: Readonly<Record<string, string>>;
  /** `SECURITY_MODELS_DB_BIND`: the bind whose schema gets the User and Session models. */
  securityBind: string;
  /** The project's name (fw.json `name`), used in comments. */
  projectName: string;
  /**
   * The security models to write instead of the minimal `User` / `Session` (the auth scaffold's
   * `User` and `AuthToken`, from `authModels` of generators/src/auth).
   */
  securityModels?: string;
  /** Folder of the `migrate` blueprint (default: `blueprints/migrate` of this package). */
  blueprint?: string;
  /**
   * The provider each bind's committed migrations were written for (`migrationHistoryProvider`):
   * its `migration_lock.toml` keeps saying so after the bind's URL moves to another provider, so
   * `fw migrate` can stop with the way out instead of running SQLite's SQL on PostgreSQL.
   */
  histories?: Readonly<Record<string, string | undefined>>;
}

/** Which template set an environment was rendered from. */
export type MigrateLayout = 'single' | 'multi';

const BIND_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** The layout `fw migrate init` picks: single-bind for exactly one bind, multi-bind otherwise. */
export function migrateLayout(binds: Readonly<Record<string, string>>): MigrateLayout {
  return Object.keys(binds).length === 1 ? 'single' : 'multi';
}

/**
 * Renders the Prisma migration environment for the binds configured at init time, as
 * project-relative path → content, for the file-tree engine to write (so a regeneration merges
 * with the user's edits like any generated file). Per bind:
 * - `prisma/<bind>/schema.prisma`: generator `prisma-client` with output
 *   `generated/prisma/<bind>` and the bind's datasource provider (User/Session models on the
 *   security bind);
 * - `prisma/<bind>/prisma.config.ts`: `defineConfig` with the URL from `DATABASE_URL_<BIND>`
 *   (SQLite binds fall back to their init-time path);
 * - `prisma/<bind>/migrations/migration_lock.toml`: the migrations folder, with the lock file
 *   Prisma itself writes there (the provider of the bind's existing migrations, if any).
 *
 * Plus `prisma/README.md`, and for the single-bind layout a root `prisma.config.ts` so plain
 * `npx prisma ...` works. Binds attached later at runtime are not seen here.
 */
export function renderMigrateEnvironment(options: MigrateEnvironmentOptions): Map<string, string> {
  const names = Object.keys(options.binds);
  if (names.length === 0) throw new MigrateError('DATABASE_BINDS: no binds are configured, so there is nothing to migrate');
  if (!options.binds[options.securityBind]) {
    throw new MigrateError(
      `SECURITY_MODELS_DB_BIND: "${options.securityBind}" is not a bind of DATABASE_BINDS (binds: ${names.join(', ')})`,
      { bind: options.securityBind },
    );
  }
  const envVars = new Map<string, string>();
  for (const name of names) {
    if (!BIND_NAME.test(name)) {
      throw new MigrateError(`DATABASE_BINDS.${name}: a bind name must match ${BIND_NAME.source}`, { bind: name });
    }
    const envVar = bindEnvVar(name);
    const clash = envVars.get(envVar);
    if (clash) throw new MigrateError(`DATABASE_BINDS: binds "${clash}" and "${name}" would share ${envVar}; rename one`, { bind: name });
    envVars.set(envVar, name);
  }

  const template = (file: string) => blueprintTemplate('migrate', file, options.blueprint);
  const schema = template('bind/schema.prisma.hbs');
  const config = template('bind/prisma.config.ts.hbs');
  const lock = template('bind/migrations/migration_lock.toml.hbs');
  const layout = migrateLayout(options.binds);

  const files = new Map<string, string>();
  const binds: { name: string; provider: BindProvider; envVar: string; security: boolean }[] = [];
  for (const name of names) {
    const url = options.binds[name]!;
    const dir = `prisma/${name}`;
    const provider = bindProvider(name, url);
    const data = {
      bind: name,
      projectName: options.projectName,
      provider,
      security: name === options.securityBind,
      securityModels: name === options.securityBind ? (options.securityModels ?? false) : false,
      envVar: bindEnvVar(name),
      fallback: sqliteFallbackUrl(name, url, dir) ?? false,
      configPath: `${dir}/prisma.config.ts`,
      schemaPath: './schema.prisma',
      migrationsPath: './migrations',
    };
    files.set(`${dir}/schema.prisma`, schema(data));
    files.set(`${dir}/prisma.config.ts`, config(data));
    files.set(`${dir}/migrations/migration_lock.toml`, lock({ ...data, provider: options.histories?.[name] ?? provider }));
    binds.push({ name, provider, envVar: data.envVar, security: data.security });
    if (layout === 'single') {
      files.set(
        'prisma.config.ts',
        template('single/prisma.config.ts.hbs')({
          ...data,
          fallback: sqliteFallbackUrl(name, url, '') ?? false,
          schemaPath: `${dir}/schema.prisma`,
          migrationsPath: `${dir}/migrations`,
        }),
      );
    }
  }
  files.set('prisma/README.md', template('README.md.hbs')({ projectName: options.projectName, single: layout === 'single', binds }));
  return files;
}
