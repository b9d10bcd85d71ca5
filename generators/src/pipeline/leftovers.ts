import { readdirSync, readFileSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { TEMP_MARKER } from './atomic.js';
import { CACHE_DIR } from './cache.js';
import { normalizeProjectPath } from './paths.js';
import { RECORD_DIR, STORE_DIR, type GenerationRecord } from './record.js';

/**
 * What a run killed at the wrong moment leaves behind, and how the next run (or `fw doctor`)
 * finds and removes it:
 *
 * - temp files (`<file>.fw-tmp-<random>`, see `writeFileAtomic`) next to project files, in
 *   `.fw/store`, `.fw/` itself (`record.json`) and `.fw/cache`;
 * - stored copies (`.fw/store/<sha256>`) no record entry refers to: blobs written before a kill
 *   stopped the record from being written, or bases the record stopped using;
 * - folders its deletions emptied and it did not remove yet: {@link APPLYING_FILE} names them
 *   (see {@link interruptedFolders}), since the record no longer does once it is written.
 *
 * Removal is for a process holding the project lock (`withProjectLock`): another run's temp files
 * and not-yet-recorded copies are only ever in flight under that lock. A copy the record refers
 * to is never removed.
 */

/**
 * Present while an apply step writes (project files, `.fw/store`, the record, or removes the
 * folders its deletions emptied): a run killed meanwhile leaves it, and the next run then looks
 * for the temp files it left next to the files it plans (a run that was not interrupted has none
 * to look for). It holds the writing process's pid on its first line, then one line per folder
 * the run removes once its deletions have emptied it ({@link applyingMarker}).
 */
export const APPLYING_FILE = `${CACHE_DIR}/applying`;

/** The text of {@link APPLYING_FILE}: the pid, then each folder the run will remove. */
export function applyingMarker(pid: number, folders: readonly string[]): string {
  return [pid, ...folders].map((line) => `${line}\n`).join('');
}

/**
 * The folders a killed run meant to remove once its deletions had emptied them, from the
 * {@link APPLYING_FILE} it left (none when there is no marker). Only whole lines that are valid
 * project paths count: a marker cut short by the kill names fewer folders, never a wrong one.
 */
export function interruptedFolders(projectRoot: string): string[] {
  let text: string;
  try {
    text = readFileSync(path.join(projectRoot, APPLYING_FILE), 'utf8');
  } catch {
    return [];
  }
  const lines = text.split('\n').slice(1, -1);
  return lines.filter((line) => {
    try {
      return normalizeProjectPath(line) === line;
    } catch {
      return false;
    }
  });
}

/** The engine's own folders, where its temp files may be left. */
const ENGINE_DIRS = [RECORD_DIR, STORE_DIR, CACHE_DIR] as const;
/** A stored copy's name: the SHA-256 of its bytes. */
const BLOB = /^[0-9a-f]{64}$/;

/** The project-relative temp files in the folders of `paths` (project-relative), sorted. */
export function findTempLeftovers(projectRoot: string, paths: Iterable<string>): string[] {
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
  return found.sort();
}

/**
 * Removes the pipeline's temp files that a killed run left in the folders of `paths`
 * (project-relative). Only those folders are read (synchronously: a few thousand small
 * listings), never `node_modules`. Returns the project-relative paths removed.
 */
export async function removeTempLeftovers(projectRoot: string, paths: Iterable<string>): Promise<string[]> {
  const found = findTempLeftovers(projectRoot, paths);
  await Promise.all(found.map((rel) => rm(path.join(projectRoot, rel), { force: true })));
  return found;
}

/** What `.fw/` holds that nothing needs. */
export interface EngineLeftovers {
  /** Temp files in `.fw/`, `.fw/store` and `.fw/cache` (project-relative). */
  temps: string[];
  /** Stored copies no entry of the record refers to (project-relative). */
  orphans: string[];
}

async function names(projectRoot: string, dir: string): Promise<string[]> {
  return readdir(path.join(projectRoot, dir)).catch(() => [] as string[]);
}

/** The temp files and orphan stored copies of `.fw/`, judged against `record` (sorted). */
export async function findEngineLeftovers(projectRoot: string, record: GenerationRecord | undefined): Promise<EngineLeftovers> {
  const temps: string[] = [];
  for (const dir of ENGINE_DIRS) for (const name of await names(projectRoot, dir)) if (name.includes(TEMP_MARKER)) temps.push(`${dir}/${name}`);
  const live = new Set(Object.values(record?.files ?? {}).map((entry) => entry.sha256));
  const orphans = (await names(projectRoot, STORE_DIR)).filter((name) => BLOB.test(name) && !live.has(name)).map((name) => `${STORE_DIR}/${name}`);
  return { temps: temps.sort(), orphans: orphans.sort() };
}

/**
 * Removes the temp files and orphan stored copies of `.fw/` (see {@link findEngineLeftovers}).
 * `record` must be the record on disk, read by a caller holding the project lock. Returns what
 * was removed.
 */
export async function removeEngineLeftovers(projectRoot: string, record: GenerationRecord | undefined): Promise<EngineLeftovers> {
  const found = await findEngineLeftovers(projectRoot, record);
  await Promise.all([...found.temps, ...found.orphans].map((rel) => rm(path.join(projectRoot, rel), { force: true })));
  return found;
}
