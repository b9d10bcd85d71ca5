import { rm } from 'node:fs/promises';
import path from 'node:path';
import { packageVersion } from '../package-info.js';
import { writeFileAtomic } from './atomic.js';
import { assertInsideRoot, resolveRoot } from './contain.js';
import type { Plan } from './plan.js';
import { updateRecord, type WrittenFile } from './record.js';

/** What {@link commit} did. */
export interface CommitResult {
  created: string[];
  updated: string[];
  deleted: string[];
  unchanged: string[];
}

/** Options of {@link commit}. */
export interface CommitOptions {
  /** Version written into the record; defaults to this create-fw-app's version. */
  generatorVersion?: string;
}

/**
 * Applies a plan: every create / update is an atomic write (temp file, fsync, rename) with its
 * mode set, every delete removes the file; unchanged entries are not touched. Containment is
 * re-checked right before each write. Afterwards the generation record (`.fw/record.json` and
 * `.fw/store/`) is updated for exactly the files written and deleted.
 */
export async function commit(plan: Plan, options: CommitOptions = {}): Promise<CommitResult> {
  const result: CommitResult = { created: [], updated: [], deleted: [], unchanged: [] };
  const realRoot = await resolveRoot(plan.root);
  const written: WrittenFile[] = [];
  for (const entry of plan.entries) {
    if (entry.action === 'unchanged') {
      result.unchanged.push(entry.path);
      continue;
    }
    await assertInsideRoot(realRoot, plan.root, entry.path);
    const absolute = path.join(plan.root, entry.path);
    if (entry.action === 'delete') {
      await rm(absolute, { force: true });
      result.deleted.push(entry.path);
      continue;
    }
    const content = entry.content ?? Buffer.alloc(0);
    const mode = entry.mode ?? 0o644;
    await writeFileAtomic(absolute, content, mode, entry.path);
    if (entry.record) written.push({ path: entry.path, content, generator: entry.generator, mode });
    (entry.action === 'create' ? result.created : result.updated).push(entry.path);
  }
  await updateRecord(plan.root, options.generatorVersion ?? packageVersion(), written, result.deleted);
  return result;
}
