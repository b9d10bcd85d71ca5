import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { TEMP_MARKER } from './atomic.js';

/**
 * Removes the engine's temp files (`<file>.fw-tmp-<random>`) that a killed run left in the
 * folders of `paths` (project-relative). Only those folders are read, never `node_modules`.
 * Returns the project-relative paths removed.
 */
export async function removeTempLeftovers(projectRoot: string, paths: Iterable<string>): Promise<string[]> {
  const dirs = new Set<string>();
  for (const p of paths) {
    let dir = path.posix.dirname(p);
    dirs.add(dir);
    while (dir !== '.') {
      dir = path.posix.dirname(dir);
      dirs.add(dir);
    }
  }
  const removed: string[] = [];
  await Promise.all(
    [...dirs].map(async (dir) => {
      let names: string[];
      try {
        names = await readdir(path.join(projectRoot, dir));
      } catch {
        return;
      }
      for (const name of names) {
        if (!name.includes(TEMP_MARKER)) continue;
        const rel = dir === '.' ? name : `${dir}/${name}`;
        await rm(path.join(projectRoot, rel), { force: true });
        removed.push(rel);
      }
    }),
  );
  return removed.sort();
}
