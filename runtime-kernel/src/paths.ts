/** Turning the `root` options of `Fluid` and `Additive` into folder paths. */
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FrameworkException } from './errors/index.js';

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
