import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { TEMP_MARKER } from './atomic.js';

/**
 * Removes the pipeline's temp files (`<file>.fw-tmp-<random>`) that a killed run left in the
 * folders of `paths` (project-relative). Only those folders are read (synchronously: a few
 * thousand small listings), never `node_modules`. Returns the project-relative paths removed.
 */
export async function removeTempLeftovers(projectRoot: string, paths: Iterable<string>): Promise<string[]> {
  const dirs = new Set<string>();
  for (const p of paths) {
    for (let dir = path.posix.dirname(p); !dirs.has(dir); dir = path.posix.dirname(dir)) {
      dirs.add(dir);
      if (dir === '.') break;
    }
  }
  const found: string[] = [];
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(path.join(projectRoot, dir));
    } catch {
      continue;
    }
    for (const name of names) if (name.includes(TEMP_MARKER)) found.push(dir === '.' ? name : `${dir}/${name}`);
  }
  await Promise.all(found.map((rel) => rm(path.join(projectRoot, rel), { force: true })));
  return found.sort();
}
