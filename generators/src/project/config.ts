import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ProjectConfig } from '@fw/schemas';
import { CliError } from '../cli/errors.js';
import { packageVersion } from '../package-info.js';
import type { Cache } from '../pipeline/cache.js';
import { sha256 } from '../pipeline/hash.js';

/** The project config file, relative to the project root. */
export const CONFIG_FILE = 'fw.json';

/** A project's `fw.json`: its validated content and its text as on disk. */
export interface LoadedConfig {
  /** Absolute project root. */
  root: string;
  /** The validated config. */
  config: ProjectConfig;
  /** The file's text, for edits that keep every other byte as written. */
  text: string;
  /** The schema defaults of the keys the renders read when `fw.json` leaves them out. */
  defaults: ConfigDefaults;
}

/** The schema defaults the renders use (`configDefaults()` of `@fw/schemas`, the keys they read). */
export interface ConfigDefaults {
  APP_FRONTEND: unknown;
  DATABASE_BINDS: unknown;
  SECURITY_MODELS_DB_BIND: unknown;
  I18N_DEFAULT_LOCALE: unknown;
}

/** The defaults of `@fw/schemas` (which it imports: zod is loaded here, and only here, on the generate path). */
async function schemaDefaults(): Promise<ConfigDefaults> {
  const { configDefaults } = await import('@fw/schemas');
  const d = configDefaults();
  return { APP_FRONTEND: d.APP_FRONTEND, DATABASE_BINDS: d.DATABASE_BINDS, SECURITY_MODELS_DB_BIND: d.SECURITY_MODELS_DB_BIND, I18N_DEFAULT_LOCALE: d.I18N_DEFAULT_LOCALE };
}

/**
 * Reads and validates `<root>/fw.json` (`parseProjectConfigText` of `@fw/schemas`, the kernel's
 * reader too). Bad JSON, a repeated key or a bad key is a {@link CliError} naming the file, the
 * line and column, and the key path. With a `cache`, a text that validated before
 * under this fw version is not validated again: `@fw/schemas` (and zod, ~150 ms to load) stays
 * off a no-op `fw generate`.
 */
export async function loadConfig(root: string, cache?: Cache): Promise<LoadedConfig> {
  const text = await readFile(path.join(root, CONFIG_FILE), 'utf8');
  return { root, text, ...(await validateConfigText(text, cache)) };
}

/**
 * Validates the text of `fw.json` (see {@link loadConfig}); with a `cache`, the result is kept for
 * the next run. A command that writes `fw.json` validates its new text this way, so the next
 * `fw generate` finds it known.
 */
export async function validateConfigText(text: string, cache?: Cache): Promise<{ config: ProjectConfig; defaults: ConfigDefaults }> {
  const key = sha256(packageVersion(), text);
  const known = cache?.render<{ config: ProjectConfig; defaults: ConfigDefaults }>('config', key);
  if (known) return known;
  const { parseProjectConfigText } = await import('@fw/schemas');
  let config: ProjectConfig;
  try {
    config = parseProjectConfigText(text, CONFIG_FILE).config;
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
  const defaults = await schemaDefaults();
  cache?.setRender('config', key, { config, defaults });
  return { config, defaults };
}

/**
 * `DATABASE_BINDS` and `SECURITY_MODELS_DB_BIND` of `fw.json` (the schema defaults when absent):
 * what the migration environment and the auth scaffold are rendered from, never an ini file's or
 * the environment's (those are one machine's; the rendered files are committed). `fw.json` may
 * give the binds as `DATABASE_BINDS_FILE`, a file relative to `root`, as the kernel reads it: its
 * contents are the binds, validated as the kernel does; a file that cannot be read or a bad value
 * is a {@link CliError} naming `fw.json`'s key and the file.
 */
export async function configuredBinds(loaded: Pick<LoadedConfig, 'config' | 'defaults'>, root: string): Promise<{ binds: Record<string, string>; securityBind: string }> {
  const { config, defaults } = loaded;
  const values = config.config as Record<string, unknown>;
  const securityBind = (values.SECURITY_MODELS_DB_BIND ?? defaults.SECURITY_MODELS_DB_BIND) as string;
  const named = values.DATABASE_BINDS_FILE;
  if (typeof named !== 'string' || named === '') return { binds: (values.DATABASE_BINDS ?? defaults.DATABASE_BINDS) as Record<string, string>, securityBind };
  const file = path.resolve(root, named);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new CliError(`${CONFIG_FILE}: DATABASE_BINDS_FILE: cannot read ${file} (${code}); DATABASE_BINDS is read from that file`);
  }
  const { parseBindUrl, parseConfig } = await import('@fw/schemas');
  const source = `${CONFIG_FILE} DATABASE_BINDS_FILE (${file})`;
  let binds: Record<string, string>;
  try {
    // With fw.json's SECURITY_MODELS_DB_BIND, which must name one of them.
    const own = values.SECURITY_MODELS_DB_BIND === undefined ? {} : { SECURITY_MODELS_DB_BIND: values.SECURITY_MODELS_DB_BIND };
    binds = parseConfig([{ source: CONFIG_FILE, values: own }, { source, values: { DATABASE_BINDS: text.replace(/^\uFEFF/, '').replace(/\r?\n$/, '') } }]).DATABASE_BINDS;
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
  // A URL of no database fw supports, named with the file (the renders would not say where it came from).
  for (const [bind, url] of Object.entries(binds)) {
    const parsed = parseBindUrl(bind, url);
    if ('error' in parsed) throw new CliError(`${source}: ${parsed.error}`);
  }
  return { binds, securityBind };
}
