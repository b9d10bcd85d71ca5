import { randomBytes } from 'node:crypto';
import type { Tree } from '../pipeline/tree.js';

/** The per-app runtime config of the app `name`, relative to the project root. */
export function appConfigPath(name: string): string {
  return `app_configs/${name}.ini`;
}

/**
 * The ini text of a fresh app config: a `SECRET_KEY`, and a note on `DEBUG`, which it leaves to
 * `FW_ENV` (on under `npm run dev`, off under `npm start`), so a copied ini never turns a
 * production process into a debug one.
 */
function appConfigText(name: string, secretKey: string): string {
  return [
    `; Runtime config of the app "${name}" (selected with FW_APP=${name}; the default app is the project name).`,
    '; Keys here override fw.json "config"; environment variables override these. Any key X may be',
    '; given as X_FILE = <path> to read its value from a file. Keep this file out of public repositories.',
    `SECRET_KEY = ${secretKey}`,
    '; DEBUG: on under "npm run dev" (FW_ENV=development), off otherwise; set it here to force it.',
    '',
  ].join('\n');
}

/**
 * Writes `app_configs/<name>.ini` into the tree with a fresh `SECRET_KEY` (32 random bytes, 64 hex
 * characters): mode 0600, never in the generation record (which is committed), never shown by a
 * dry run. `ifMissing` keeps an existing file (and its key) as it is.
 */
export function writeAppConfig(tree: Tree, name: string, options: { ifMissing?: boolean } = {}): string {
  const file = appConfigPath(name);
  tree.write(file, appConfigText(name, randomBytes(32).toString('hex')), {
    mode: 0o600,
    record: false,
    secret: true,
    ifMissing: options.ifMissing ?? false,
    reason: 'a fresh SECRET_KEY',
  });
  return file;
}
