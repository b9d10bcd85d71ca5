/** Turning the `root` options of `Fluid` and `Additive` into folder paths, and finding the project root. */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FrameworkException } from './errors.js';

/**
 * A folder path from a path or `file:` URL. A URL or path naming a file (e.g. `import.meta.url`)
 * means the folder holding it.
 */
export function toDir(root: string | URL, what: string): string {
  let path: string;
  try {
    path = root instanceof URL || root.startsWith('file:') ? fileURLToPath(root) : resolve(root);
  } catch (err) {
    throw new FrameworkException(`${what}: root must be a folder path or a file: URL, got ${String(root)}`, { cause: err });
  }
  try {
    if (statSync(path).isFile()) return dirname(path);
  } catch {
    throw new FrameworkException(`${what}: root folder ${path} does not exist`);
  }
  return path.replace(/[\\/]+$/, '') || path;
}

/**
 * The nearest folder at or above `start` that holds `fw.json`, or `undefined`. An app compiled to
 * `<project>/dist/fluid/` passes `dist/` as its root and still finds `<project>`.
 */
export function findProjectRoot(start: string): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'fw.json'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}
