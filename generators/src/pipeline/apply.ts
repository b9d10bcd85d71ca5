import { rm } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../engine/atomic.js';
import { assertInsideRoot, resolveRoot } from '../engine/contain.js';
import { updateRecord, type WrittenFile } from '../engine/record.js';
import { packageVersion } from '../package-info.js';
import { SIDECAR_SUFFIX } from './classify.js';
import type { RegenPlan } from './regenerate.js';

/** The writes {@link applyPlan} needs from the engine. Paths are project-relative POSIX paths. */
export interface RegenWriter {
  /** Writes the bytes atomically (old or new, never half), with the mode (default 0o644). */
  write(path: string, bytes: Buffer, mode?: number): void | Promise<void>;
  /** Removes the file. */
  remove(path: string): void | Promise<void>;
}

/** How `.fw/record.json` must change after {@link applyPlan}: pass to the engine's `updateRecord`. */
export interface RecordUpdates {
  /** Entries to (re)record; `content` is always the new render, the base of the next run. */
  written: WrittenFile[];
  /** Paths whose entries are removed (deleted files, kept edited files, forgotten deletions). */
  dropped: string[];
  /** Paths (including `.fw-new` siblings) actually written or removed. */
  touched: string[];
}

/**
 * Carries out a plan through `writer`, item by item in path order, and returns the record
 * updates for what was actually done. If a write throws, the error propagates and nothing is
 * recorded for the failed item or the ones after it; re-planning later picks up where it stopped
 * (a file already equal to its render classifies as `unchanged` and is recorded then).
 */
export async function applyPlan(plan: RegenPlan, writer: RegenWriter): Promise<RecordUpdates> {
  const updates: RecordUpdates = { written: [], dropped: [], touched: [] };
  for (const item of plan.items) {
    if (item.write) {
      await writer.write(item.path, item.write, item.mode);
      updates.touched.push(item.path);
    }
    if (item.sidecar) {
      await writer.write(item.path + SIDECAR_SUFFIX, item.sidecar, item.mode);
      updates.touched.push(item.path + SIDECAR_SUFFIX);
    }
    if (item.remove) {
      await writer.remove(item.path);
      updates.touched.push(item.path);
    }
    if (item.record.op === 'set') {
      updates.written.push({ path: item.path, content: item.record.bytes, generator: item.generator, mode: item.recordMode });
    } else if (item.record.op === 'drop') {
      updates.dropped.push(item.path);
    }
  }
  return updates;
}

/** A {@link RegenWriter} on the real project: atomic writes and removals, containment re-checked before each. */
export async function diskWriter(projectRoot: string): Promise<RegenWriter> {
  const root = path.resolve(projectRoot);
  const realRoot = await resolveRoot(root);
  return {
    async write(rel, bytes, mode = 0o644) {
      await assertInsideRoot(realRoot, root, rel);
      await writeFileAtomic(path.join(root, rel), bytes, mode, rel);
    },
    async remove(rel) {
      await assertInsideRoot(realRoot, root, rel);
      await rm(path.join(root, rel), { force: true });
    },
  };
}

/**
 * Applies a plan to disk with {@link diskWriter}, then updates `.fw/record.json` and `.fw/store`
 * with the engine's `updateRecord`. The whole of `fw generate` after planning (without the lock,
 * which the command holds around plan + apply).
 */
export async function applyPlanToDisk(plan: RegenPlan, options: { generatorVersion?: string } = {}): Promise<RecordUpdates> {
  const updates = await applyPlan(plan, await diskWriter(plan.root));
  await updateRecord(plan.root, options.generatorVersion ?? packageVersion(), updates.written, updates.dropped);
  return updates;
}
