/**
 * `loadConfig`: the layered runtime config of an app.
 *
 *   schema defaults ← FW_ENV=development defaults ← fw.json `config` ← app_configs/<app>.ini ← environment ← overrides
 *
 * Any key `X` may be given as `X_FILE` (in any layer): the value of `X` is then the named file's
 * contents, its trailing newline trimmed. Everything is validated by `@fw/schemas`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { parse as parseIni } from 'ini';
import {
  ConfigValidationError,
  isKnownConfigKey,
  parseConfig,
  parseProjectConfig,
  type Config,
  type ConfigLayer,
  type ProjectConfig,
} from '@fw/schemas';
import { ConfigError } from './errors.js';
import { findProjectRoot, toDir } from './paths.js';

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** Project root: the folder holding `fw.json` (path or `file:` URL). */
  root: string | URL;
  /** Which `app_configs/<app>.ini` to read; default `FW_APP`, then the project `name`. */
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
}

/** The defaults `FW_ENV=development` changes (docs/dev.md). */
const DEVELOPMENT_DEFAULTS: ConfigLayer = { source: 'FW_ENV=development defaults', values: { DEBUG: true } };

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
  const app = options.app ?? env.FW_APP ?? project.name;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(app) || app.includes('..')) {
    throw new ConfigError(`Invalid app name ${JSON.stringify(app)} (from ${options.app ? 'options.app' : env.FW_APP ? 'FW_APP' : 'fw.json name'}): use letters, digits, '.', '-' and '_'`);
  }
  const iniRel = `app_configs/${app}.ini`;
  const iniFile = join(root, iniRel);
  const fileLayer = withFiles({ source: 'fw.json', values: project.config }, root);
  const iniLayer = existsSync(iniFile) ? withFiles({ source: iniRel, values: readIni(iniFile, iniRel) }, root) : undefined;
  const wanted = new Set([...Object.keys(fileLayer.values), ...Object.keys(iniLayer?.values ?? {})]);
  const layers: ConfigLayer[] = [fileLayer];
  if (iniLayer) layers.push(iniLayer);
  layers.push(withFiles({ source: 'environment', values: fromEnv(env, wanted) }, root));
  if (options.overrides) layers.push(withFiles({ source: 'overrides', values: options.overrides }, root));
  // FW_ENV=development (fw dev) changes defaults only: a layer under every file and the environment.
  if (layers.findLast((l) => l.values.FW_ENV !== undefined)?.values.FW_ENV === 'development') layers.unshift(DEVELOPMENT_DEFAULTS);

  let config: Config;
  try {
    config = parseConfig(layers);
  } catch (err) {
    throw fromValidation(err, `Invalid config for app '${app}'`);
  }
  if ((options.requireSecretKey ?? true) && !config.SECRET_KEY) {
    const where = iniLayer ? `${iniRel} has no SECRET_KEY` : `${iniRel} does not exist`;
    throw new ConfigError(
      `SECRET_KEY is not set for app '${app}' (${where}). Run \`npx fw create app ${app}\` to create it, ` +
        'or set SECRET_KEY (or SECRET_KEY_FILE) in the environment.',
      [{ source: iniRel, path: 'SECRET_KEY', line: `${iniRel}: SECRET_KEY: missing` }],
    );
  }
  return { config, project, app, root, iniFile };
}

function searchProjectRoot(start: string): string {
  const found = findProjectRoot(start);
  if (found) return found;
  throw new ConfigError(
    `No fw.json in ${start} or any folder above it. The root of an fw app is the project folder holding fw.json ` +
      "(new Fluid({ root: new URL('..', import.meta.url) }) from fluid/app.ts), or a folder inside it such as dist/.",
  );
}

function readProject(root: string): ProjectConfig {
  const file = join(root, 'fw.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`Cannot read fw.json in ${root}: ${(err as NodeJS.ErrnoException).code ?? String(err)}. Is this an fw project root?`, [], { cause: err });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`fw.json is not valid JSON: ${(err as Error).message}`, [], { cause: err });
  }
  try {
    return parseProjectConfig(json, 'fw.json');
  } catch (err) {
    throw fromValidation(err, 'Invalid fw.json');
  }
}

function readIni(file: string, rel: string): Record<string, unknown> {
  try {
    return parseIni(readText(file)) as Record<string, unknown>;
  } catch (err) {
    throw new ConfigError(`Cannot read ${rel}: ${(err as Error).message}`, [], { cause: err });
  }
}

/**
 * Known keys, keys the files mention, and their `_FILE` forms. Under Vitest, `BASE_URL` in the
 * environment is Vite's public base path (`/`), not fw's external URL prefix, so a value that is
 * not an absolute URL is ignored there.
 */
function fromEnv(env: Readonly<Record<string, string | undefined>>, wanted: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined || !/^[A-Z][A-Z0-9_]*$/.test(key)) continue;
    if (key === 'BASE_URL' && env.VITEST && !/^[a-z][a-z0-9+.-]*:/i.test(value)) continue;
    const base = key.endsWith('_FILE') && !isKnownConfigKey(key) ? key.slice(0, -5) : key;
    if (isKnownConfigKey(base) || wanted.has(base) || wanted.has(key)) out[key] = value;
  }
  return out;
}

/** Replaces every `X_FILE` key of a layer by `X` = the file's contents. */
function withFiles(layer: ConfigLayer, root: string): ConfigLayer {
  const keys = Object.keys(layer.values).filter((k) => k.endsWith('_FILE') && k.length > 5 && !isKnownConfigKey(k));
  if (keys.length === 0) return layer;
  const values: Record<string, unknown> = { ...layer.values };
  for (const key of keys) {
    const base = key.slice(0, -5);
    const raw = values[key];
    delete values[key];
    if (raw === undefined || raw === '') continue;
    if (typeof raw !== 'string') {
      throw new ConfigError(`${layer.source}: ${key}: expected a file path (string), got ${JSON.stringify(raw)}`);
    }
    if (Object.hasOwn(layer.values, base)) {
      throw new ConfigError(`${layer.source}: both ${base} and ${key} are set; set only one`);
    }
    const path = isAbsolute(raw) ? raw : resolve(root, raw);
    let text: string;
    try {
      text = readText(path);
    } catch (err) {
      throw new ConfigError(
        `${layer.source}: ${key}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? String(err)}); ${base} is read from that file`,
        [{ source: layer.source, path: key, line: `${layer.source}: ${key}: cannot read ${path}` }],
        { cause: err },
      );
    }
    values[base] = text.replace(/\r?\n$/, '');
  }
  return { source: layer.source, values };
}

function fromValidation(err: unknown, title: string): Error {
  if (err instanceof ConfigValidationError) {
    return new ConfigError(
      `${title}:\n${err.message}`,
      err.problems.map((p) => ({ source: p.source, path: p.path, line: p.line })),
      { cause: err },
    );
  }
  return err instanceof Error ? err : new ConfigError(String(err));
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('latin1');

/** Decodes bytes as UTF-8 (a BOM is dropped), or as latin1 when they are not valid UTF-8. */
export function decodeText(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    return latin1.decode(bytes);
  }
}

/** Reads a text file with {@link decodeText}. */
export function readText(file: string): string {
  return decodeText(readFileSync(file));
}
