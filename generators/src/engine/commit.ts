import { rm } from 'node:fs/promises';
import path from 'node:path';
import { packageVersion } from '../package-info.js';
import { writeFileAtomic } from './atomic.js';
import { compareText } from './file-tree.js';
import { forEachLimit } from './pool.js';
import { assertInsideRoot, resolveRoot } from './contain.js';
import type { Plan } from './plan.js';
import { updateRecord, type WrittenFile } from './record.js';

/** How many files are written at once. */
const WRITE_CONCURRENCY = 16;

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
  // Written with record: false (secrets): any earlier entry for the path is dropped.
  const unrecorded: string[] = [];
  const changes = plan.entries.filter((entry) => {
    if (entry.action === 'unchanged') result.unchanged.push(entry.path);
    return entry.action !== 'unchanged';
  });
  // Writes are independent, so they overlap (mostly their fsyncs); results are reported sorted.
  const applying = forEachLimit(changes, WRITE_CONCURRENCY, async (entry) => {
    await assertInsideRoot(realRoot, plan.root, entry.path);
    const absolute = path.join(plan.root, entry.path);
    if (entry.action === 'delete') {
      await rm(absolute, { force: true });
      result.deleted.push(entry.path);
      return;
    }
    const content = entry.content ?? Buffer.alloc(0);
    const mode = entry.mode ?? 0o644;
    await writeFileAtomic(absolute, content, mode, entry.path);
    if (entry.record) written.push({ path: entry.path, content, generator: entry.generator, mode });
    else unrecorded.push(entry.path);
    (entry.action === 'create' ? result.created : result.updated).push(entry.path);
  });
  // Even when a write fails, the record is brought up to date for the files that did land, so it
  // always describes what is on disk; then the failure is rethrown.
  const failure = await applying.then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  written.sort((a, b) => compareText(a.path, b.path));
  await updateRecord(plan.root, options.generatorVersion ?? packageVersion(), written, [...result.deleted, ...unrecorded]);
  if (failure) throw failure.error;
  for (const list of [result.created, result.updated, result.deleted]) list.sort(compareText);
  return result;
}
