import { randomBytes } from 'node:crypto';
import type { Tree } from '../pipeline/tree.js';

/** The per-app runtime config of the app `name`, relative to the project root. */
export function appConfigPath(name: string): string {
  return `app_configs/${name}.ini`;
}

/**
 * The ini text of a fresh app config: a `SECRET_KEY` and `DEBUG`. `debug: true` is the development
 * setting `create-fw-app` writes, so `npm run dev` shows debug errors and the Vite dev server.
 */
function appConfigText(name: string, secretKey: string, options: { debug?: boolean } = {}): string {
  return [
    `; Runtime config of the app "${name}" (selected with FW_APP=${name}; the default app is the project name).`,
    '; Keys here override fw.json "config"; environment variables override these. Any key X may be',
    '; given as X_FILE = <path> to read its value from a file. Keep this file out of public repositories.',
    `SECRET_KEY = ${secretKey}`,
    // Unset, DEBUG follows FW_ENV: on under `npm run dev` (fw dev), off under `npm start` (docs/dev.md).
    options.debug === true ? 'DEBUG = true' : '; DEBUG: on under "npm run dev" (FW_ENV=development), off otherwise; set it here to force it.',
    '',
  ].join('\n');
}

/**
 * Writes `app_configs/<name>.ini` into the tree with a fresh `SECRET_KEY` (32 random bytes, 64 hex
 * characters): mode 0600, never in the generation record (which is committed), never shown by a
 * dry run. `ifMissing` keeps an existing file (and its key) as it is.
 */
export function writeAppConfig(tree: Tree, name: string, options: { debug?: boolean; ifMissing?: boolean } = {}): string {
  const file = appConfigPath(name);
  tree.write(file, appConfigText(name, randomBytes(32).toString('hex'), options), {
    mode: 0o600,
    record: false,
    secret: true,
    ifMissing: options.ifMissing ?? false,
    reason: 'a fresh SECRET_KEY',
  });
  return file;
}
