import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import { rmdir } from 'node:fs/promises';
import path from 'node:path';
import { Containment } from './contain.js';
import type { PlanItem } from './plan.js';
import { compareText } from './record.js';

/**
 * The one rule for the folders fw removes: a folder goes when the run's deletions leave it empty.
 * Its candidates are the folders of the files the run removes and of the recorded files it
 * forgets because they are already gone (a generated file you deleted, or one a killed run
 * deleted before it could write the record), walking up to the project root (never included). A
 * folder goes when everything in it goes: files the run removes and folders that go by the same
 * rule. It stays when it holds anything else (a file of yours, a `.gitkeep`, an empty folder you
 * made, a symlink), when the run writes a file into it, or when it is not a real folder (a
 * symlink); the walk stops there. So an empty folder fw never held a file in is never removed: it
 * is no candidate, and no folder holding it empties.
 */

/** Options of {@link emptiedFolders}. */
export interface EmptiedFoldersOptions {
  /** Folders an interrupted run meant to remove (`interruptedFolders`): candidates themselves. */
  pending?: readonly string[];
  /** Files the run removes besides the plan's (the temp files of an interrupted run). */
  gone?: Iterable<string>;
}

const depth = (rel: string): number => rel.split('/').length;

/**
 * The folders applying `items` empties (see the module comment), read from disk and sorted: what
 * a dry run prints and what {@link removeFolders} removes after the files. Writes nothing.
 */
export function emptiedFolders(projectRoot: string, items: readonly PlanItem[], options: EmptiedFoldersOptions = {}): string[] {
  const root = path.resolve(projectRoot);
  const gone = new Set(options.gone);
  const written = new Set<string>();
  const starts = new Set<string>();
  for (const item of items) {
    const folder = path.posix.dirname(item.path);
    if (item.remove) gone.add(item.path);
    if (item.remove || (item.record.op === 'drop' && item.disk === undefined)) starts.add(folder);
    if (item.write !== undefined || item.sidecar !== undefined) {
      for (let dir = folder; dir !== '.' && !written.has(dir); dir = path.posix.dirname(dir)) written.add(dir);
    }
  }
  if (options.pending && options.pending.length > 0) {
    // The marker is a file on disk: a folder of it must still resolve inside the project.
    const contain = new Containment(root);
    for (const folder of options.pending) {
      try {
        contain.check(folder);
        starts.add(folder);
      } catch {
        // Outside the project through a symlink, or under a file: not a folder fw emptied.
      }
    }
  }
  starts.delete('.');
  const removed = new Set<string>();
  // Deepest first: a folder is judged again by every walk through it, the last one after all the
  // folders below it were judged.
  for (const start of [...starts].sort((a, b) => depth(b) - depth(a) || compareText(a, b))) {
    for (let dir = start; dir !== '.'; dir = path.posix.dirname(dir)) {
      if (written.has(dir)) break;
      const entries = listing(root, dir);
      if (entries === undefined) break;
      if (entries === 'missing') continue;
      const empties = entries.every((e) => {
        const child = `${dir}/${e.name}`;
        return e.isDirectory() ? removed.has(child) : gone.has(child);
      });
      if (!empties) break;
      removed.add(dir);
    }
  }
  return [...removed].sort(compareText);
}

/** The entries of a real folder; `'missing'` when nothing is there; `undefined` for anything else (a file, a symlink, unreadable). */
function listing(root: string, dir: string): Dirent[] | 'missing' | undefined {
  const absolute = path.join(root, dir);
  const stats = lstatSync(absolute, { throwIfNoEntry: false });
  if (stats === undefined) return 'missing';
  if (!stats.isDirectory()) return undefined;
  try {
    return readdirSync(absolute, { withFileTypes: true });
  } catch {
    return undefined;
  }
}

/**
 * Removes `folders` (project-relative, from {@link emptiedFolders}), deepest first, each only if it
 * is empty now (`rmdir` never removes anything in a folder) and still inside the project.
 * Returns the folders removed.
 */
export async function removeFolders(projectRoot: string, folders: readonly string[]): Promise<string[]> {
  const root = path.resolve(projectRoot);
  const contain = new Containment(root);
  const done: string[] = [];
  for (const folder of [...folders].sort((a, b) => depth(b) - depth(a) || compareText(a, b))) {
    try {
      if (!contain.check(folder)?.isDirectory()) continue;
      await rmdir(path.join(root, folder));
      done.push(folder);
    } catch {
      // Not empty (something was put there since the plan), gone already, or refused: left as it is.
    }
  }
  return done.sort(compareText);
}
