/**
 * `loadConfig`: the layered runtime config of an app.
 *
 *   schema defaults ← FW_ENV=development defaults ← fw.json `config` ← app_configs/<app>.ini ← .env ← environment ← overrides
 *
 * Any key `X` may be given as `X_FILE` (in any layer): the value of `X` is then the named file's
 * contents, its trailing newline trimmed. Everything is validated by `@fw/schemas`, so a key fw
 * does not know (`CACHE_TIPE`) is an error naming the file, its line and the key it resembles.
 * `DATABASE_URL` and `REDIS_URL` of the process environment and of `.env` are read as that layer's
 * URL of the main bind and its `CACHE_REDIS_URL` (`@fw/kernel/docs/config.md`), under fw's own keys there;
 * `DATABASE_URL_FILE` and `REDIS_URL_FILE` (Docker and Kubernetes secrets) give them as a file.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { parse as parseIni } from 'ini';
import {
  CONFIG_ALIASES,
  FW_ENVIRONMENT_VARIABLES,
  environmentValues,
  isKnownConfigKey,
  locate,
  mapAliases,
  parseConfig,
  parseProjectConfigText,
  type Config,
  type ConfigLayer,
  type ProjectConfig,
  type TextPosition,
  unknownKeyReason,
  urlWithoutPassword,
  withDatabaseUrl,
} from '@fw/schemas';
import { ConfigError } from '../errors.js';
import { findProjectRoot, toDir } from '../paths.js';
import { fromValidation } from './problems.js';
import { cutIniValues, keyLines, readText } from './text.js';

export { decodeText, readText } from './text.js';
export { readAdditiveManifest } from './manifest.js';

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** Project root: the folder holding `fw.json` (path or `file:` URL). */
  root: string | URL;
  /** Which `app_configs/<app>.ini` to read; default `FW_APP` (environment, then `.env`), then the project `name`. */
  app?: string | undefined;
  /** Values that win over every other layer (tests, embedding). */
  overrides?: Readonly<Record<string, unknown>> | undefined;
  /** Environment to read; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Fail when `SECRET_KEY` ends up unset (default true). */
  requireSecretKey?: boolean | undefined;
  /**
   * When `root` holds no `fw.json`, use the nearest folder above it that does (default false).
   * `new Fluid()` searches, so an app compiled to `dist/fluid/` still finds its project.
   */
  search?: boolean | undefined;
}

/** Everything {@link loadConfigDetails} found. */
export interface LoadedConfig {
  /** The validated config. */
  readonly config: Config;
  /** The validated `fw.json`. */
  readonly project: ProjectConfig;
  /** The app whose `.ini` was read. */
  readonly app: string;
  /** The project root folder. */
  readonly root: string;
  /** The `.ini` file path (it may not exist). */
  readonly iniFile: string;
  /**
   * What the app should log once at startup about how the config was read (`new Fluid` does,
   * except in a worker of a `serve()` cluster, whose primary logged them):
   * `DATABASE_URL` / `REDIS_URL` of the environment or `.env` used, or set and unused, and why.
   */
  readonly notices: readonly ConfigNotice[];
  /**
   * Where each key's value came from: the sources of the layers that set it (alias names mapped
   * to their key, `X_FILE` counted as `X`), in order, so the last one won. A key only the
   * defaults give is absent. Sources are `fw.json`, `app_configs/<app>.ini`, `.env`,
   * `environment`, `.env (DATABASE_URL)`, `environment (DATABASE_URL)`, `overrides` and
   * `FW_ENV=development defaults`.
   * `fw migrate` names the source of `DATABASE_BINDS` with it.
   */
  readonly sources: Readonly<Record<string, readonly string[]>>;
  /**
   * {@link sources} made precise, entry for entry: where in each layer the key was set, for
   * messages: the file and line (`app_configs/my-app.ini:3`, `.env:2`, `fw.json:5:5`; the line of
   * `X_FILE` when that set it) or the variable (`environment variable DATABASE_BINDS_FILE`,
   * `environment variable DATABASE_URL`, `.env:2 (DATABASE_URL)`; for `DATABASE_URL_FILE`, the file and
   * where it was named: `/run/secrets/db (DATABASE_URL_FILE in the environment)`,
   * `/run/secrets/db (DATABASE_URL_FILE at .env:2)`); `overrides` and the development defaults as in `sources`.
   */
  readonly origins: Readonly<Record<string, readonly string[]>>;
}

/** A line about the config for the startup log. */
export interface ConfigNotice {
  /** The log level the line is written at. */
  readonly level: 'info' | 'warn';
  /** The line itself. */
  readonly message: string;
}

/** The dotenv file of a project, read at every boot (when it exists) as the layer under the environment. */
export const DOTENV_FILE = '.env';

/**
 * The defaults `FW_ENV=development` changes (`@fw/kernel/docs/dev.md`): debug on, and no drain
 * delay, since no load balancer waits on a development server (a `/readyz` probed in the last
 * minute would otherwise hold every `fw dev` restart 5 s on the old code).
 */
const DEVELOPMENT_DEFAULTS: ConfigLayer = { source: 'FW_ENV=development defaults', values: { DEBUG: true, SERVER_DRAIN_DELAY: 0 } };

/** Loads and validates the runtime config of an app. Throws `ConfigError` naming key and file. */
export function loadConfig(options: LoadConfigOptions): Config {
  return loadConfigDetails(options).config;
}

/** Like {@link loadConfig}, also returning the project file, app name and paths. */
export function loadConfigDetails(options: LoadConfigOptions): LoadedConfig {
  const given = toDir(options.root, 'loadConfig');
  const root = options.search ? searchProjectRoot(given) : given;
  const env = options.env ?? process.env;
  const project = readProject(root);
  const dotenv = readKeyValueFile(root, DOTENV_FILE, (text) => parseEnv(text), { bareLines: true, dotenv: true });
  const dotenvApp = dotenv?.values.FW_APP;
  const app = options.app ?? env.FW_APP ?? (typeof dotenvApp === 'string' ? dotenvApp : undefined) ?? project.config.name;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(app) || app.includes('..')) {
    const from = options.app ? 'options.app' : env.FW_APP ? 'FW_APP' : dotenvApp ? `FW_APP in ${DOTENV_FILE}` : 'fw.json name';
    throw new ConfigError(`Invalid app name ${JSON.stringify(app)} (from ${from}): use letters, digits, '.', '-' and '_'`);
  }
  const iniRel = `app_configs/${app}.ini`;
  const iniFile = join(root, iniRel);
  const ini = readKeyValueFile(root, iniRel, (text) => parseIni(text) as Record<string, unknown>, { bareLines: true, iniComments: true });
  const fileLayers: ConfigLayer[] = [{ source: 'fw.json', values: project.config.config, positions: project.positions }];
  if (ini) fileLayers.push(ini);
  // FW_APP and fw's other process variables are not config keys; DATABASE_URL and REDIS_URL are
  // read below, as in the environment.
  if (dotenv) fileLayers.push({ ...dotenv, values: Object.fromEntries(Object.entries(dotenv.values).filter(([k]) => !FW_ENVIRONMENT_VARIABLES.includes(k) && !isUrlVariable(k))) });
  const wanted = new Set(fileLayers.flatMap((layer) => Object.keys(layer.values)));
  const layers = fileLayers.map((layer) => withFiles(layer, root));
  const notices: ConfigNotice[] = [];
  const dotenvUrls: Partial<Record<(typeof URL_VARIABLES)[number], GivenUrl>> = {};
  let dotenvOwnRedis: unknown;
  if (dotenv) {
    const at = layers.length - 1;
    for (const key of URL_VARIABLES) {
      const given = givenUrl(layers[at]!, key, dotenv.values, dotenv.positions, root);
      if (given) dotenvUrls[key] = given;
    }
    dotenvOwnRedis = layers[at]!.values.CACHE_REDIS_URL;
    layers[at] = withRedisUrl(layers[at]!, dotenvUrls.REDIS_URL);
    // The .env layer is a new object when REDIS_URL was applied to it.
    for (const given of Object.values(dotenvUrls)) given.layer = layers[at]!;
  }
  const environmentVariables = fromEnv(env, wanted);
  const fromEnvironment = withFiles({ source: 'environment', values: environmentVariables }, root);
  const environmentRedis = givenUrl(fromEnvironment, 'REDIS_URL', env, undefined, root);
  const environmentDatabase = givenUrl(fromEnvironment, 'DATABASE_URL', env, undefined, root);
  const environment = withRedisUrl(fromEnvironment, environmentRedis);
  if (environmentDatabase) environmentDatabase.layer = environment;
  layers.push(environment);
  if (options.overrides) layers.push(withFiles({ source: 'overrides', values: options.overrides }, root));
  // FW_ENV=development (fw dev) changes defaults only: a layer under every file and the environment.
  if (layers.findLast((l) => l.values.FW_ENV !== undefined)?.values.FW_ENV === 'development') layers.unshift(DEVELOPMENT_DEFAULTS);

  const parse = (): Config => {
    try {
      return parseConfig(layers);
    } catch (err) {
      throw fromValidation(err, `Invalid config for app '${app}'`);
    }
  };
  let config = parse();
  // DATABASE_URL: the environment's, else the one in .env; fw's own DATABASE_BINDS in the same
  // layer (or any later one: the environment's over .env's, the overrides) wins over it, as over
  // an alias there.
  const urlOrigins = new Map<ConfigLayer, string>();
  for (const given of [environmentDatabase, dotenvUrls.DATABASE_URL]) {
    if (!given) continue;
    const setsBinds = (layer: ConfigLayer): boolean => layer.values.DATABASE_BINDS !== undefined || layer.values.SQLALCHEMY_BINDS !== undefined;
    if (setsBinds(given.layer)) {
      if (config.DATABASE_BINDS[config.SECURITY_MODELS_DB_BIND] !== given.url) {
        notices.push({ level: 'warn', message: `DATABASE_URL is set ${given.in} but not used: DATABASE_BINDS is set there too, and names every bind` });
      }
    } else if (!layers.slice(layers.indexOf(given.layer) + 1).some(setsBinds)) {
      const primary = config.SECURITY_MODELS_DB_BIND;
      const result = withDatabaseUrl(config.DATABASE_BINDS, primary, given.url, given.file === undefined ? 'DATABASE_URL' : 'DATABASE_URL_FILE');
      if ('error' in result) throw new ConfigError(`${given.where}: ${result.error}`, [{ source: given.layer.source, path: 'DATABASE_URL', line: `${given.where}: ${result.error}` }]);
      // Like an alias in its layer: over the layers before it, under fw's own key (and the later layers).
      const at = given.line === undefined ? undefined : { DATABASE_BINDS: { line: given.line } };
      const layer: ConfigLayer = { source: `${given.layer.source} (DATABASE_URL)`, values: { DATABASE_BINDS: result.binds }, ...(at ? { positions: at } : {}) };
      if (given.file !== undefined) urlOrigins.set(layer, given.from);
      layers.splice(layers.indexOf(given.layer) + 1, 0, layer);
      config = parse();
      notices.push({ level: 'info', message: `database: bind "${primary}" uses DATABASE_URL from ${given.from} (${urlWithoutPassword(given.url)})` });
    }
    break; // the environment's layer comes after .env's: .env's DATABASE_URL only counts without the environment's
  }
  // REDIS_URL: the environment's, else the one in .env (applied to its layer above).
  for (const given of [environmentRedis, dotenvUrls.REDIS_URL]) {
    if (!given) continue;
    const own = given.layer === fromEnvironment ? fromEnvironment.values.CACHE_REDIS_URL : dotenvOwnRedis;
    if (own !== undefined && own !== given.url) {
      notices.push({ level: 'warn', message: `REDIS_URL is set ${given.in} but not used: CACHE_REDIS_URL is set there too` });
    } else if (own === undefined && config.CACHE_REDIS_URL === given.url) {
      notices.push(
        config.CACHE_TYPE === 'redis'
          ? { level: 'info', message: `cache: CACHE_REDIS_URL is REDIS_URL from ${given.from} (${urlWithoutPassword(given.url)})` }
          : {
              level: 'warn',
              message:
                `REDIS_URL is set ${given.in} but not used: CACHE_TYPE is "${config.CACHE_TYPE}". fw keeps the cache, sessions, rate limits ` +
                'and events in Redis only with CACHE_TYPE=redis, and then uses REDIS_URL as CACHE_REDIS_URL: set CACHE_TYPE=redis',
            },
      );
    }
    break; // the environment's REDIS_URL is over .env's
  }
  if ((options.requireSecretKey ?? true) && !config.SECRET_KEY) {
    const where = ini ? `${iniRel} has no SECRET_KEY` : `${iniRel} does not exist`;
    throw new ConfigError(
      `SECRET_KEY is not set for app '${app}' (${where}). Run \`npx fw create app ${app}\` to create it, ` +
        'or set SECRET_KEY (or SECRET_KEY_FILE) in the environment.',
      [{ source: iniRel, path: 'SECRET_KEY', line: `${iniRel}: SECRET_KEY: missing` }],
    );
  }
  const sources: Record<string, string[]> = {};
  const origins: Record<string, string[]> = {};
  for (const layer of layers) {
    for (const key of Object.keys(mapAliases(layer.values))) {
      (sources[key] ??= []).push(layer.source);
      (origins[key] ??= []).push(urlOrigins.get(layer) ?? originOf(layer, key, layer === environment ? env : undefined));
    }
  }
  return { config, project: project.config, app, root, iniFile, notices, sources, origins };
}

/**
 * Where `layer` set `key` (see `LoadedConfig.origins`): under its own name or an alias, directly or
 * as `X_FILE`. `variables` are the environment's variables as read (before `X_FILE` was resolved),
 * given for the environment layer only.
 */
function originOf(layer: ConfigLayer, key: string, variables: Readonly<Record<string, unknown>> | undefined): string {
  if (layer.source === 'environment (DATABASE_URL)') return 'environment variable DATABASE_URL';
  // DATABASE_URL in .env: its line there.
  if (layer.source.endsWith(' (DATABASE_URL)')) return `${locate(layer.source.slice(0, -' (DATABASE_URL)'.length), layer.positions?.DATABASE_BINDS)} (DATABASE_URL)`;
  const name = [key, ...Object.keys(CONFIG_ALIASES).filter((alias) => CONFIG_ALIASES[alias] === key)].find((n) => Object.hasOwn(layer.values, n)) ?? key;
  if (variables === undefined) return locate(layer.source, layer.positions?.[name]);
  // CACHE_REDIS_URL is REDIS_URL's value (or REDIS_URL_FILE's) when the environment does not set it itself.
  const redis = variables.REDIS_URL_FILE ? 'REDIS_URL_FILE' : 'REDIS_URL';
  const variable = [name, `${name}_FILE`].find((n) => Object.hasOwn(variables, n)) ?? (key === 'CACHE_REDIS_URL' ? redis : name);
  return `environment variable ${variable}`;
}

function searchProjectRoot(start: string): string {
  const found = findProjectRoot(start);
  if (found) return found;
  throw new ConfigError(
    `No fw.json in ${start} or any folder above it. The root of an fw app is the project folder holding fw.json ` +
      "(new Fluid({ root: new URL('..', import.meta.url) }) from fluid/app.ts), or a folder inside it such as dist/.",
  );
}

/** `fw.json`, validated (with `@fw/schemas`' text parser: BOM, line and column, repeated keys), and where its config keys are. */
function readProject(root: string): { config: ProjectConfig; positions: Record<string, TextPosition> } {
  const file = join(root, 'fw.json');
  let text: string;
  try {
    text = readText(file);
  } catch (err) {
    throw new ConfigError(`Cannot read fw.json in ${root}: ${(err as NodeJS.ErrnoException).code ?? String(err)}. Is this an fw project root?`, [], { cause: err });
  }
  let parsed: ReturnType<typeof parseProjectConfigText>;
  try {
    parsed = parseProjectConfigText(text, 'fw.json');
  } catch (err) {
    throw fromValidation(err, 'Invalid fw.json');
  }
  const positions: Record<string, TextPosition> = {};
  for (const key of Object.keys(parsed.config.config)) {
    const at = parsed.positionOf(['config', key]);
    if (at) positions[key] = at;
  }
  return { config: parsed.config, positions };
}

/**
 * A `KEY = value` file of the project (`app_configs/<app>.ini`, `.env`) as a config layer, with the
 * line of each key; `undefined` when it does not exist. A key written twice is an error naming
 * both lines (the parsers would silently keep one).
 */
/**
 * Reads an ini or dotenv file as a config layer, with the line of each key. `bareLines`: a line
 * that is not `KEY = value` (nor a comment or a `[section]`) is an error naming it, instead of
 * the key `true` the ini parser would make of it, or the nothing `parseEnv` would (`PORT 9000`);
 * `dotenv`: the file is a `.env` ({@link keyLines}). `iniComments`: a value the ini parser would
 * cut at a `;` or `#` written right after a character is an error naming the key (`cutIniValues`).
 */
function readKeyValueFile(
  root: string,
  rel: string,
  parse: (text: string) => Record<string, unknown>,
  options: { bareLines?: boolean; dotenv?: boolean; iniComments?: boolean } = {},
): ConfigLayer | undefined {
  const file = join(root, rel);
  if (!existsSync(file)) return undefined;
  let text: string;
  let values: Record<string, unknown>;
  try {
    text = readText(file);
    values = parse(text);
  } catch (err) {
    throw new ConfigError(`Cannot read ${rel}: ${(err as Error).message}`, [], { cause: err });
  }
  const { positions, repeated, bare, sections } = keyLines(text, { dotenv: options.dotenv === true });
  const problems = repeated.map(([key, first, second]) => {
    const line = `${locate(rel, { line: second })}: ${key}: got a second ${key}; expected each key once (first at line ${first})`;
    return { source: rel, path: key, line };
  });
  if (options.bareLines) {
    for (const [content, at] of bare) {
      // parseEnv and the ini parser would drop such a line, or read it as a key set to true.
      const expected = options.dotenv ? 'KEY=value, a # comment or a blank line' : 'KEY = value, a ; comment or a blank line';
      const line = `${locate(rel, { line: at })}: ${content}: got a line without "="; expected ${expected}`;
      problems.push({ source: rel, path: content, line });
    }
    // The ini parser nests a section's keys under its name, which validation would then report as
    // one unknown lowercase key (with a did-you-mean of whatever key holds those letters).
    for (const [name, at] of sections) {
      const nested = values[name];
      const keys = nested !== null && typeof nested === 'object' ? Object.keys(nested) : [];
      const what = keys.length > 0 ? `its keys (${keys.join(', ')})` : 'the keys';
      const line = `${locate(rel, { line: at })}: [${name}]: got a [section] header; expected none (fw's ini files have no sections): write ${what} at the top level, without the header`;
      problems.push({ source: rel, path: `[${name}]`, line });
    }
  }
  if (options.iniComments) {
    // The value itself is never shown: it may be a secret.
    for (const [key, at, char] of cutIniValues(text)) {
      const line =
        `${locate(rel, { line: at })}: ${key}: the value has "${char}" right after a character, and the ini format reads "${char}" as the start of a comment ` +
        `(the rest of the value would be dropped); quote the value (${key} = "...") or put a space before a comment`;
      problems.push({ source: rel, path: key, line });
    }
  }
  if (problems.length > 0) throw new ConfigError(`Invalid ${rel}:\n${problems.map((p) => p.line).join('\n')}`, problems);
  return { source: rel, values, positions };
}

/**
 * The environment's part of the config (`environmentValues` of `@fw/schemas`: fw's keys, the
 * keys the files mention, and every variable under a prefix fw reserves, so a misspelt one is an
 * error). Under Vitest, `BASE_URL` in the environment is Vite's public base path (`/`), not fw's
 * external URL prefix, so a value that is not an absolute URL is ignored there.
 */
function fromEnv(env: Readonly<Record<string, string | undefined>>, wanted: ReadonlySet<string>): Record<string, unknown> {
  const values = environmentValues(env, wanted);
  if (env.VITEST && values.BASE_URL !== undefined && !/^[a-z][a-z0-9+.-]*:/i.test(values.BASE_URL)) delete values.BASE_URL;
  return values;
}


/**
 * `DATABASE_URL` and `REDIS_URL`: read from the environment and `.env` (`@fw/kernel/docs/config.md`), never
 * config keys there; each also as `X_FILE`.
 */
const URL_VARIABLES = ['DATABASE_URL', 'REDIS_URL'] as const;
type UrlVariable = (typeof URL_VARIABLES)[number];

function isUrlVariable(name: string): boolean {
  return URL_VARIABLES.some((key) => name === key || name === `${key}_FILE`);
}

/** A `DATABASE_URL` or `REDIS_URL` given in a layer, and how messages name where. */
interface GivenUrl {
  readonly url: string;
  /** The layer it was given in (its `DATABASE_URL` applies after it). */
  layer: ConfigLayer;
  /** 1-based line in the file, for `.env` (of `X_FILE` when that gave it). */
  readonly line: number | undefined;
  /** The file it was read from, when `X_FILE` gave it. */
  readonly file: string | undefined;
  /** `the environment`, `.env:3`, `/run/secrets/db (DATABASE_URL_FILE in the environment)`. */
  readonly from: string;
  /** `in the environment`, `in .env`, `in /run/secrets/db (DATABASE_URL_FILE in the environment)`. */
  readonly in: string;
  /** Error prefix: `environment`, `.env:3`, `/run/secrets/db (DATABASE_URL_FILE at .env:3)`. */
  readonly where: string;
}

/**
 * `key` (`DATABASE_URL`, `REDIS_URL`) as given in `layer` (the environment, or `.env` whose raw
 * `values` and key `positions` these are): its value, or the contents of the file `<key>_FILE`
 * names (relative to `root`; its trailing newline trimmed, as for fw's own `X_FILE` keys).
 * `undefined` when neither is set or empty. Both set in the layer, a file that cannot be read or
 * an empty one is a `ConfigError` naming the variable, where it was set and the file.
 */
function givenUrl(
  layer: ConfigLayer,
  key: UrlVariable,
  values: Readonly<Record<string, unknown>>,
  positions: Readonly<Record<string, TextPosition>> | undefined,
  root: string,
): GivenUrl | undefined {
  const fileKey = `${key}_FILE`;
  const value = values[key];
  const named = values[fileKey];
  const isSet = (v: unknown): v is string => typeof v === 'string' && v !== '';
  const inEnvironment = layer.source === 'environment';
  if (!isSet(named)) {
    if (!isSet(value)) return undefined;
    const line = positions?.[key]?.line;
    if (inEnvironment) return { url: value, layer, line, file: undefined, from: 'the environment', in: 'in the environment', where: 'environment' };
    const where = locate(layer.source, line === undefined ? undefined : { line });
    return { url: value, layer, line, file: undefined, from: where, in: `in ${layer.source}`, where };
  }
  const line = positions?.[fileKey]?.line;
  const at = inEnvironment ? 'environment' : locate(layer.source, line === undefined ? undefined : { line });
  const problem = (message: string, cause?: unknown): ConfigError =>
    new ConfigError(`${at}: ${message}`, [{ source: layer.source, path: fileKey, line: `${at}: ${message}` }], cause === undefined ? undefined : { cause });
  if (isSet(value)) throw problem(`both ${key} and ${fileKey} are set; set only one`);
  const file = isAbsolute(named) ? named : resolve(root, named);
  let text: string;
  try {
    text = readText(file);
  } catch (err) {
    throw problem(`${fileKey}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)}); ${key} is read from that file`, err);
  }
  const url = text.replace(/\r?\n$/, '');
  if (url.trim() === '') throw problem(`${fileKey}: ${file} is empty; expected the ${key} in it`);
  const from = `${file} (${fileKey} ${inEnvironment ? 'in the environment' : `at ${at}`})`;
  return { url, layer, line, file, from, in: `in ${from}`, where: from };
}

/**
 * `REDIS_URL` (Heroku, Render, Sidekiq's convention) as `CACHE_REDIS_URL` in the layer that gives
 * it (the environment, `.env`), unless that layer sets `CACHE_REDIS_URL` itself: fw's own key
 * wins, as with an alias. A value that is not a Redis URL is an error naming `REDIS_URL` and where.
 */
function withRedisUrl(layer: ConfigLayer, given: GivenUrl | undefined): ConfigLayer {
  if (!given || layer.values.CACHE_REDIS_URL !== undefined) return layer;
  const { url } = given;
  if (!/^rediss?:\/\/./i.test(url)) {
    // Without a scheme there is no telling a password from a host: whatever precedes an @ is hidden.
    const shown = url.includes('@') ? `<redacted>${url.slice(url.lastIndexOf('@'))}` : url;
    const line = `${given.where}: REDIS_URL: got ${JSON.stringify(shown)}; expected a redis:// or rediss:// URL (fw uses REDIS_URL as CACHE_REDIS_URL)`;
    throw new ConfigError(line, [{ source: layer.source, path: 'REDIS_URL', line }]);
  }
  const positions = given.line === undefined ? layer.positions : { ...layer.positions, CACHE_REDIS_URL: { line: given.line } };
  return { ...layer, values: { ...layer.values, CACHE_REDIS_URL: url }, ...(positions ? { positions } : {}) };
}

/** Replaces every `X_FILE` key of a layer by `X` = the file's contents. */
function withFiles(layer: ConfigLayer, root: string): ConfigLayer {
  const keys = Object.keys(layer.values).filter((k) => k.endsWith('_FILE') && k.length > 5 && !isKnownConfigKey(k));
  if (keys.length === 0) return layer;
  const values: Record<string, unknown> = { ...layer.values };
  const positions: Record<string, TextPosition> = { ...layer.positions };
  for (const key of keys) {
    const base = key.slice(0, -5);
    const raw = values[key];
    const at = layer.positions?.[key];
    const where = locate(layer.source, at);
    delete values[key];
    if (raw === undefined || raw === '') continue;
    // A misspelt key (`CACHE_DIRR_FILE`) is reported as the key it names, not as a file to read.
    if (!isKnownConfigKey(base) && unknownKeyReason(base) !== undefined) {
      values[base] = raw;
      if (at) positions[base] = at;
      continue;
    }
    if (typeof raw !== 'string') {
      throw new ConfigError(`${where}: ${key}: expected a file path (string), got ${JSON.stringify(raw)}`);
    }
    if (Object.hasOwn(layer.values, base)) {
      throw new ConfigError(`${where}: both ${base} and ${key} are set; set only one`);
    }
    const path = isAbsolute(raw) ? raw : resolve(root, raw);
    let text: string;
    try {
      text = readText(path);
    } catch (err) {
      throw new ConfigError(
        `${where}: ${key}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? String(err)}); ${base} is read from that file`,
        [{ source: layer.source, path: key, line: `${where}: ${key}: cannot read ${path}` }],
        { cause: err },
      );
    }
    values[base] = text.replace(/\r?\n$/, '');
    if (at) positions[base] = at;
  }
  return { source: layer.source, values, positions };
}
