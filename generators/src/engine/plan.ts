import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { assertInsideRoot, resolveRoot } from './contain.js';
import { formatFile } from './format.js';
import type { FileTree } from './file-tree.js';

/** What committing a plan does to one path. */
export type PlanAction = 'create' | 'update' | 'delete' | 'unchanged';

/** One classified path of a {@link Plan}. */
export interface PlanEntry {
  action: PlanAction;
  /** Project-relative POSIX path. */
  path: string;
  /** The generator or blueprint that asked for it. */
  generator: string;
  /** Final (formatted) bytes, for create / update / unchanged writes. */
  content?: Buffer;
  /** Mode to set, for create / update / unchanged writes. */
  mode?: number;
  /** Whether the generation record keeps this file (false for secrets). */
  record: boolean;
}

/** The classified result of comparing a {@link FileTree} with the project on disk. */
export interface Plan {
  /** Absolute project root. */
  root: string;
  /** Entries sorted by path. Deletes of files already gone are dropped. */
  entries: PlanEntry[];
}

/** Whether any entry of the plan would change disk. */
export function planChangesDisk(plan: Plan): boolean {
  return plan.entries.some((entry) => entry.action !== 'unchanged');
}

interface OnDisk {
  content: Buffer;
  mode: number;
}

async function readOnDisk(absolute: string, relative: string): Promise<OnDisk | undefined> {
  let stats;
  try {
    stats = await lstat(absolute);
  } catch {
    return undefined;
  }
  if (stats.isDirectory()) throw new Error(`Cannot write ${relative}: a directory is in the way`);
  return { content: await readFile(absolute), mode: stats.mode & 0o777 };
}

const isExecutable = (mode: number): boolean => (mode & 0o111) !== 0;

/**
 * Formats every write of the tree (prettier, by extension), compares it with disk and classifies
 * each path as create / update / delete / unchanged. A write whose bytes and executable bit match
 * disk is `unchanged` and will not be written. Paths that symlinks would carry outside the root
 * are refused here, so a dry run reports them too.
 */
export async function plan(tree: FileTree, projectRoot: string): Promise<Plan> {
  const root = path.resolve(projectRoot);
  const realRoot = await resolveRoot(root);
  const entries: PlanEntry[] = [];
  const treeEntries = tree.entries();
  // Format everything at once: with the formatter worker running, files are formatted in parallel.
  const formatted = await Promise.all(
    treeEntries.map((entry) =>
      entry.kind === 'write' && entry.format ? formatFile(entry.path, entry.content, root) : undefined,
    ),
  );
  for (const [index, entry] of treeEntries.entries()) {
    await assertInsideRoot(realRoot, root, entry.path);
    const absolute = path.join(root, entry.path);
    const disk = await readOnDisk(absolute, entry.path);
    if (entry.kind === 'delete') {
      if (disk) entries.push({ action: 'delete', path: entry.path, generator: entry.generator, record: true });
      continue;
    }
    const content = formatted[index] ?? entry.content;
    const same = disk !== undefined && disk.content.equals(content) && isExecutable(disk.mode) === isExecutable(entry.mode);
    entries.push({
      action: disk === undefined ? 'create' : same ? 'unchanged' : 'update',
      path: entry.path,
      generator: entry.generator,
      content,
      mode: entry.mode,
      record: entry.record,
    });
  }
  return { root, entries };
}
