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

/** The keys {@link configuredBinds} reads, each of which `fw.json` may give as `<key>_FILE`. */
type BindKey = 'DATABASE_BINDS' | 'SECURITY_MODELS_DB_BIND';

/**
 * `<key>_FILE` of `fw.json`'s "config", read as the kernel reads it (relative to `root`, a BOM and
 * the trailing newline dropped): the file and its text, or `undefined` when the key is unset or
 * empty. Both `<key>` and `<key>_FILE`, or a file that cannot be read, is a {@link CliError}
 * naming `fw.json`'s key.
 */
async function keyFile(values: Readonly<Record<string, unknown>>, key: BindKey, root: string): Promise<{ file: string; text: string } | undefined> {
  const named = values[`${key}_FILE`];
  if (typeof named !== 'string' || named === '') return undefined;
  if (values[key] !== undefined) throw new CliError(`${CONFIG_FILE}: both ${key} and ${key}_FILE are set; set only one`);
  const file = path.resolve(root, named);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new CliError(`${CONFIG_FILE}: ${key}_FILE: cannot read ${file} (${code}); ${key} is read from that file`);
  }
  return { file, text: text.replace(/^\uFEFF/, '').replace(/\r?\n$/, '') };
}

/**
 * `DATABASE_BINDS` and `SECURITY_MODELS_DB_BIND` of `fw.json` (the schema defaults when absent):
 * what the migration environment and the auth scaffold are rendered from, never an ini file's or
 * the environment's (those are one machine's; the rendered files are committed: `fw generate`
 * warns and `fw migrate` refuses where this machine's differ). `fw.json` may give either as
 * `<key>_FILE` (`DATABASE_BINDS_FILE`, `SECURITY_MODELS_DB_BIND_FILE`), a file relative to `root`,
 * as the kernel reads it: its contents are the value, validated as the kernel does (the security
 * bind must be one of the binds); a file that cannot be read or a bad value is a
 * {@link CliError} naming `fw.json`'s key and the file.
 */
export async function configuredBinds(loaded: Pick<LoadedConfig, 'config' | 'defaults'>, root: string): Promise<{ binds: Record<string, string>; securityBind: string }> {
  const { config, defaults } = loaded;
  const values = config.config as Record<string, unknown>;
  const bindsFile = await keyFile(values, 'DATABASE_BINDS', root);
  const securityFile = await keyFile(values, 'SECURITY_MODELS_DB_BIND', root);
  if (!bindsFile && !securityFile) {
    return {
      binds: (values.DATABASE_BINDS ?? defaults.DATABASE_BINDS) as Record<string, string>,
      securityBind: (values.SECURITY_MODELS_DB_BIND ?? defaults.SECURITY_MODELS_DB_BIND) as string,
    };
  }
  const { parseBindUrl, parseConfig } = await import('@fw/schemas');
  const bindsSource = bindsFile ? `${CONFIG_FILE} DATABASE_BINDS_FILE (${bindsFile.file})` : CONFIG_FILE;
  // fw.json's own keys, then each file as a layer of its own (the kernel's order), validated together.
  const own = Object.fromEntries((['DATABASE_BINDS', 'SECURITY_MODELS_DB_BIND'] as const).filter((k) => values[k] !== undefined).map((k) => [k, values[k]]));
  const layers = [{ source: CONFIG_FILE, values: own }];
  if (bindsFile) layers.push({ source: bindsSource, values: { DATABASE_BINDS: bindsFile.text } });
  if (securityFile) layers.push({ source: `${CONFIG_FILE} SECURITY_MODELS_DB_BIND_FILE (${securityFile.file})`, values: { SECURITY_MODELS_DB_BIND: securityFile.text } });
  let parsed: { DATABASE_BINDS: Record<string, string>; SECURITY_MODELS_DB_BIND: string };
  try {
    parsed = parseConfig(layers);
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
  // A URL of no database fw supports, named with the file (the renders would not say where it came from).
  if (bindsFile) {
    for (const [bind, url] of Object.entries(parsed.DATABASE_BINDS)) {
      const result = parseBindUrl(bind, url);
      if ('error' in result) throw new CliError(`${bindsSource}: ${result.error}`);
    }
  }
  return { binds: parsed.DATABASE_BINDS, securityBind: parsed.SECURITY_MODELS_DB_BIND };
}
