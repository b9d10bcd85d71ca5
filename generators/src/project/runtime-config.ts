import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** What fw's commands take from the project kernel's `loadConfigDetails` (`@fw/kernel/core`). */
export interface AppRuntimeConfig {
  /** The validated config, every key, as the app gets it. */
  config: Readonly<Record<string, unknown>>;
  /** Key → the layers that set it, the last one winning (`fw.json`, `app_configs/<app>.ini`, `environment`); absent in a kernel older than this CLI. */
  sources?: Readonly<Record<string, readonly string[]>>;
  /** `sources` with file and line, or the variable (`app_configs/my-app.ini:3`, `environment variable X`); absent in a kernel older than this CLI. */
  origins?: Readonly<Record<string, readonly string[]>>;
}

type LoadConfigDetails = (options: { root: string; env: NodeJS.ProcessEnv; requireSecretKey: boolean }) => AppRuntimeConfig;

/** Why the app's runtime config could not be read: the kernel is missing or too old, or the loader refused a value. */
export class AppConfigError extends Error {
  override name = 'AppConfigError';
}

/**
 * The app's runtime config exactly as the app reads it on this machine, by the project's own
 * kernel loader (`loadConfigDetails` of `@fw/kernel/core`: defaults, `fw.json` "config",
 * `app_configs/<app>.ini`, `.env`, the environment `env`, `X_FILE`), without requiring
 * `SECRET_KEY`. Throws an {@link AppConfigError} saying so when the project's kernel is missing or
 * too old, or with the loader's message (naming the file, line and key) for a bad value.
 */
export async function appRuntimeConfig(root: string, env: NodeJS.ProcessEnv): Promise<AppRuntimeConfig> {
  const require = createRequire(path.join(root, 'package.json'));
  try {
    require.resolve('@fw/kernel');
  } catch {
    throw new AppConfigError(`@fw/kernel is not installed in ${root}: run "npm install" there first.`);
  }
  let corePath: string;
  try {
    corePath = require.resolve('@fw/kernel/core');
  } catch {
    throw new AppConfigError(`@fw/kernel in ${root} has no @fw/kernel/core: is @fw/kernel up to date?`);
  }
  const kernel = (await import(pathToFileURL(corePath).href)) as { loadConfigDetails?: unknown };
  if (typeof kernel.loadConfigDetails !== 'function') throw new AppConfigError(`${corePath} does not export loadConfigDetails: is @fw/kernel up to date?`);
  try {
    return (kernel.loadConfigDetails as LoadConfigDetails)({ root, env, requireSecretKey: false });
  } catch (error) {
    throw new AppConfigError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/** A key of the app's runtime config and where its value was set. */
export interface AppSetting {
  /** The value, as the app gets it. */
  value: unknown;
  /**
   * Where it was set: the file and line (`app_configs/my-app.ini:4`, `fw.json:5:5`, `.env:2`), or
   * the variable (`environment variable MAIL_DEFAULT_SENDER`); `fw's default` when no layer sets it.
   */
  from: string;
}

/** `key` of {@link appRuntimeConfig}: `undefined` when the app gets no value for it. */
export async function appSetting(root: string, env: NodeJS.ProcessEnv, key: string): Promise<AppSetting | undefined> {
  const loaded = await appRuntimeConfig(root, env);
  const value = loaded.config[key];
  if (value === undefined) return undefined;
  const from = loaded.origins?.[key]?.at(-1) ?? loaded.sources?.[key]?.at(-1) ?? "fw's default";
  return { value, from };
}
