import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { appRuntimeConfig } from '../project/runtime-config.js';
import { MigrateError } from './errors.js';
import { bindProvider } from './urls.js';

type Binds = Record<string, string>;

/** What `fw migrate` takes from the project kernel's `loadConfigDetails` (`@fw/kernel/core`). */
interface KernelLoadedConfig {
  config: { DATABASE_BINDS: Binds; SECURITY_MODELS_DB_BIND: string };
  /** Absent in a kernel older than this CLI: then no source line is printed. */
  sources?: Readonly<Record<string, readonly string[]>>;
  /** `sources` with file and line, or the variable; absent in a kernel older than this CLI. */
  origins?: Readonly<Record<string, readonly string[]>>;
}

/**
 * The layers the kernel's loader names for a `DATABASE_URL` applied to the binds: `environment
 * (DATABASE_URL)`, `.env (DATABASE_URL)`; the capture is where it was given.
 */
export const DATABASE_URL_SOURCE = /^(.+) \(DATABASE_URL\)$/;

/** Where a bind's URL comes from when no layer sets `DATABASE_BINDS`. */
const DEFAULT_ORIGIN = "fw's default DATABASE_BINDS";

/** `DATABASE_BINDS` as the app reads it, with where each bind's URL was set. */
export interface AppBinds {
  /** Bind name → URL, as the app gets it. */
  binds: Binds;
  /** `SECURITY_MODELS_DB_BIND` as the app gets it. */
  securityBind: string;
  /**
   * Where `SECURITY_MODELS_DB_BIND` was set (`app_configs/my-app.ini:4`, `environment variable
   * SECURITY_MODELS_DB_BIND_FILE`, `fw.json:5:5`), or `fw's default`.
   */
  securityOrigin: string;
  /**
   * Bind name → where its URL was set: the file and line (`app_configs/my-app.ini:3`, `fw.json:5:5`),
   * the variable (`environment variable DATABASE_URL`), or fw's default.
   */
  origins: Record<string, string>;
  /**
   * The layers that set `DATABASE_BINDS`, in order, the last one winning (`fw.json`,
   * `app_configs/my-app.ini`, `environment`, `environment (DATABASE_URL)`); empty for the default.
   */
  sources: readonly string[];
}

/**
 * `DATABASE_BINDS` exactly as the app reads it, by the project's own kernel loader
 * (`loadConfigDetails` of `@fw/kernel/core`: defaults, `fw.json`, `app_configs/<app>.ini`, `.env`,
 * the environment, `X_FILE`, and `DATABASE_URL` as the URL of bind `SECURITY_MODELS_DB_BIND`),
 * without requiring `SECRET_KEY`. Throws a {@link MigrateError} saying so when the project's
 * kernel is missing or too old, or with the loader's message (naming the file, line and key) for a
 * bad value.
 */
export async function appBinds(root: string, env: NodeJS.ProcessEnv): Promise<AppBinds> {
  let loaded: KernelLoadedConfig;
  try {
    loaded = (await appRuntimeConfig(root, env)) as KernelLoadedConfig;
  } catch (error) {
    throw new MigrateError(error instanceof Error ? error.message : String(error), { cause: error });
  }
  const { DATABASE_BINDS: binds, SECURITY_MODELS_DB_BIND: securityBind } = loaded.config;
  const sources = loaded.sources?.DATABASE_BINDS ?? [];
  const at = loaded.origins?.DATABASE_BINDS ?? sources;
  // DATABASE_URL replaces the URL of the security bind only: the others keep the layer under it.
  const urlLayer = DATABASE_URL_SOURCE.test(sources.at(-1) ?? '');
  const below = urlLayer ? sources.length - 2 : sources.length - 1;
  const bindsOrigin = below >= 0 ? (at[below] ?? sources[below]!) : DEFAULT_ORIGIN;
  const origins = Object.fromEntries(
    Object.keys(binds).map((bind) => [bind, urlLayer && bind === securityBind ? (at.at(-1) ?? 'environment variable DATABASE_URL') : bindsOrigin]),
  );
  const securityOrigin = loaded.origins?.SECURITY_MODELS_DB_BIND?.at(-1) ?? loaded.sources?.SECURITY_MODELS_DB_BIND?.at(-1) ?? "fw's default";
  return { binds, securityBind, securityOrigin, origins, sources };
}

/**
 * Whether anything but `fw.json` may set the binds or the security bind: `DATABASE_URL`,
 * `DATABASE_BINDS`, `SQLALCHEMY_BINDS` or `SECURITY_MODELS_DB_BIND` (or their `_FILE`) in `env`, or
 * `.env` or an `app_configs/*.ini` mentioning `BINDS` or `DB_BIND`. When not, the app's binds are
 * `fw.json`'s and the kernel need not be loaded to compare them (a no-op `fw generate` stays fast).
 */
export function bindsMayBeOverridden(root: string, env: NodeJS.ProcessEnv): boolean {
  if (Object.keys(env).some((name) => /^(DATABASE_URL|DATABASE_BINDS|SQLALCHEMY_BINDS|SECURITY_MODELS_DB_BIND)(_FILE)?$/.test(name))) return true;
  const dir = path.join(root, 'app_configs');
  const files = [path.join(root, '.env')];
  if (existsSync(dir)) for (const name of readdirSync(dir)) if (name.endsWith('.ini')) files.push(path.join(dir, name));
  return files.some((file) => existsSync(file) && /BINDS|DB_BIND/.test(readFileSync(file, 'utf8')));
}

/** How {@link environmentProblems} reports: `fw migrate` refuses, `fw generate` warns. */
export type EnvironmentCheck = 'migrate' | 'generate';

/** Input of {@link environmentProblems}. */
export interface EnvironmentCheckInput {
  /** The app's binds ({@link appBinds}). */
  app: AppBinds;
  /** The binds to check (default: every bind of `app`). */
  selected?: readonly string[];
  /** The binds of `fw.json` (or the default): those the migration environments are rendered from. */
  committed: Readonly<Record<string, string>>;
  /** `SECURITY_MODELS_DB_BIND` of `fw.json` (or the default): the bind the environments give the security models. */
  committedSecurityBind: string;
  /**
   * The provider of each bind's migration environment, or undefined when the bind has none:
   * for `fw migrate`, read from `prisma/<bind>/` ({@link environmentOnDisk}); for `fw generate`,
   * the committed binds' providers (what it renders).
   */
  environment: (bind: string) => { provider: string | undefined } | undefined;
  /** The command that renders the environments in this project (`npx fw generate` or `npx fw migrate init`). */
  regenerate: string;
  /** `migrate`: the messages are errors (fw migrate refuses); `generate`: warnings. */
  check: EnvironmentCheck;
}

/** A bind whose migration environment does not fit the URL the app uses. */
export interface EnvironmentProblem {
  bind: string;
  message: string;
}

/**
 * The binds whose migration environment does not fit the URL the app uses for them: a bind without
 * an environment (named only in an ini file or the environment, not in `fw.json`), or an environment
 * for another provider than the URL's (an ini file's PostgreSQL URL for a bind `fw.json` keeps on
 * SQLite, or `fw.json` changed without `fw generate`). The environments are rendered from `fw.json`
 * because they are committed and shared, while an ini file is one machine's; so each message names
 * the bind, where its URL was set, both providers, and the way out. Never echoes a URL.
 */
export function environmentProblems(input: EnvironmentCheckInput): EnvironmentProblem[] {
  const { app, committed, regenerate } = input;
  const problems: EnvironmentProblem[] = [];
  const security = input.committedSecurityBind;
  const selected = input.selected ?? Object.keys(app.binds);
  if (app.securityBind !== security && (selected.includes(app.securityBind) || selected.includes(security))) {
    const head =
      input.check === 'migrate'
        ? `SECURITY_MODELS_DB_BIND is "${app.securityBind}" on this machine (set in ${app.securityOrigin}), but the migration environments put the security models (User and those of the auth scaffold) in bind "${security}", fw.json's: the app would look for their tables in "${app.securityBind}", which the migrations do not create.`
        : `SECURITY_MODELS_DB_BIND is "${app.securityBind}" on this machine (set in ${app.securityOrigin}), but the migration environments are rendered for fw.json's "${security}", so "fw migrate" refuses until they agree.`;
    problems.push({
      bind: app.securityBind,
      message:
        `${head} The environments are committed and shared, so they follow fw.json: unset it where it is set (${app.securityOrigin}); ` +
        `or, to move the security models to "${app.securityBind}" for everyone, set SECURITY_MODELS_DB_BIND (or SECURITY_MODELS_DB_BIND_FILE) in fw.json and run "${regenerate}"`,
    });
  }
  for (const bind of selected) {
    const url = app.binds[bind];
    if (url === undefined) continue;
    const origin = app.origins[bind] ?? DEFAULT_ORIGIN;
    const inFwJson = committed[bind] !== undefined;
    const environment = input.environment(bind);
    if (environment === undefined) {
      if (!inFwJson) {
        const head =
          input.check === 'migrate'
            ? `bind "${bind}" has no migration environment (prisma/${bind}/): it is set in ${origin}, not in fw.json`
            : `bind "${bind}" is set in ${origin}, not in fw.json, so it gets no migration environment and "fw migrate" cannot migrate it`;
        problems.push({
          bind,
          message:
            `${head}; fw renders the environments, which are committed and shared, from the binds of fw.json only. ` +
            `Add "${bind}" to DATABASE_BINDS in fw.json with the URL the project should use by default (${origin} still wins on this machine), ` +
            `then run "${regenerate}"`,
        });
      } else if (input.check === 'migrate') {
        problems.push({
          bind,
          message: `bind "${bind}": prisma/${bind}/prisma.config.ts not found, so this bind has no migration environment yet. Run "${regenerate}" to write it`,
        });
      }
      continue;
    }
    const wanted = providerOf(bind, url);
    const rendered = environment.provider;
    if (wanted === undefined || rendered === undefined || wanted === rendered) continue;
    const head =
      input.check === 'migrate'
        ? `bind "${bind}": DATABASE_BINDS.${bind} is a ${wanted} URL (set in ${origin}), but its migration environment ` +
          `(prisma/${bind}/schema.prisma) is for ${rendered}: Prisma would run ${rendered}'s schema and migrations on a ${wanted} database.`
        : `bind "${bind}": DATABASE_BINDS.${bind} is a ${wanted} URL on this machine (set in ${origin}), but its migration environment ` +
          `is rendered for ${rendered}, so "fw migrate" refuses this bind until they agree.`;
    const committedProvider = inFwJson ? providerOf(bind, committed[bind]!) : undefined;
    let fix: string;
    if (committedProvider === wanted) {
      fix = `Run "${regenerate}": it renders the environment for fw.json's DATABASE_BINDS.${bind}, a ${wanted} URL`;
    } else if (inFwJson) {
      const shared = committedProvider ?? rendered;
      fix =
        `The environment follows fw.json's DATABASE_BINDS.${bind}, a ${shared} URL, and is committed for everyone: ` +
        `on this machine, give the bind a ${shared} URL in ${origin}; or, to move the bind to ${wanted} for everyone, ` +
        `set DATABASE_BINDS.${bind} in fw.json to a ${wanted} URL and run "${regenerate}" ` +
        '(npx fw docs databases, "Moving a bind to another database")';
    } else {
      fix = `fw.json has no DATABASE_BINDS.${bind}, and the environments are rendered from fw.json: add the bind there with a ${wanted} URL, then run "${regenerate}"`;
    }
    problems.push({ bind, message: `${head} ${fix}` });
  }
  return problems;
}

/** The provider of a URL, or undefined for an unknown scheme (reported where the URL is used). */
function providerOf(bind: string, url: string): string | undefined {
  try {
    return bindProvider(bind, url);
  } catch {
    return undefined;
  }
}

const DATASOURCE_PROVIDER = /^\s*datasource\s+\w+\s*\{[^}]*?^\s*provider\s*=\s*"([^"]+)"/m;

/**
 * A bind's migration environment as on disk: undefined without `prisma/<bind>/prisma.config.ts`
 * (Prisma has nothing to run), else the `provider` of the `datasource` in
 * `prisma/<bind>/schema.prisma` (undefined when it has none Prisma could read either).
 */
export function environmentOnDisk(root: string, bind: string): { provider: string | undefined } | undefined {
  const dir = path.join(root, 'prisma', bind);
  if (!existsSync(path.join(dir, 'prisma.config.ts'))) return undefined;
  let schema: string;
  try {
    schema = readFileSync(path.join(dir, 'schema.prisma'), 'utf8');
  } catch {
    return { provider: undefined };
  }
  return { provider: DATASOURCE_PROVIDER.exec(schema)?.[1] };
}
