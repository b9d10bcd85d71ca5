import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { packageVersion } from '../package-info.js';
import { writeFileAtomic } from './atomic.js';
import { SIDECAR_SUFFIX } from './classify.js';
import { Containment } from './contain.js';
import { ignoreCache } from './cache.js';
import { removeFolders } from './folders.js';
import { APPLYING_FILE, applyingMarker, removeEngineLeftovers, removeTempLeftovers } from './leftovers.js';
import { pausePoint } from './pause.js';
import type { Plan, PlanItem } from './plan.js';
import { itemChangesDisk, planChangesDisk } from './print.js';
import { mapLimit } from './pool.js';
import { readRecord, updateRecord, type WrittenFile } from './record.js';

export { APPLYING_FILE };

/** How many files are written at once (their fsyncs overlap). */
const WRITE_CONCURRENCY = 16;

/** The writes {@link applyPlan} needs. Paths are project-relative POSIX paths. */
export interface Writer {
  /** Writes the bytes atomically (old or new, never half), with the mode. */
  write(path: string, bytes: Buffer, mode: number): void | Promise<void>;
  /** Removes the file. */
  remove(path: string): void | Promise<void>;
}

/** How `.fw/record.json` must change after {@link applyPlan}. */
export interface RecordUpdates {
  /** Entries to (re)record; `content` is always the new render, the base of the next run. */
  written: WrittenFile[];
  /** Paths whose entries are removed (deleted files, kept edited files, forgotten deletions, secrets). */
  dropped: string[];
}

async function applyItem(item: PlanItem, writer: Writer, updates: RecordUpdates): Promise<void> {
  if (item.write) await writer.write(item.path, item.write, item.mode);
  if (item.sidecar) await writer.write(item.path + SIDECAR_SUFFIX, item.sidecar, item.mode);
  if (item.remove) await writer.remove(item.path);
  if (item.record.op === 'set') {
    updates.written.push({ path: item.path, content: item.record.bytes, generator: item.generator, mode: item.recordMode });
  } else if (item.record.op === 'drop') {
    updates.dropped.push(item.path);
  }
}

/**
 * Carries out a plan through `writer`: the `first` items one by one (`fw.json`), then the others
 * in path order, a few at once. Fills `updates` with the record changes of exactly the items that
 * were carried out; when a write throws, the items not started are not recorded, and the error
 * propagates after the started ones settle (re-planning picks up where it stopped: a file that
 * already holds its render classifies as `unchanged` and is recorded then).
 */
export async function applyPlan(plan: Plan, writer: Writer, updates: RecordUpdates = { written: [], dropped: [] }): Promise<RecordUpdates> {
  const work = plan.items.filter((i) => itemChangesDisk(i) || i.record.op !== 'keep');
  for (const item of work.filter((i) => i.first)) await applyItem(item, writer, updates);
  await mapLimit(work.filter((i) => !i.first), WRITE_CONCURRENCY, (item) => applyItem(item, writer, updates));
  return updates;
}

/** A {@link Writer} on the project: atomic writes and removals, containment checked again right before each. */
export function diskWriter(projectRoot: string): Writer {
  const root = path.resolve(projectRoot);
  const contain = new Containment(root);
  return {
    async write(rel, bytes, mode) {
      contain.check(rel);
      await writeFileAtomic(path.join(root, rel), bytes, mode, rel, 'file-write');
    },
    async remove(rel) {
      contain.check(rel);
      await rm(path.join(root, rel), { force: true });
    },
  };
}

/** What {@link apply} did. */
export interface ApplyResult {
  created: string[];
  updated: string[];
  deleted: string[];
  unchanged: string[];
  /** Temp files of an interrupted run that were removed (next to project files and in `.fw/`). */
  leftovers: string[];
  /** Stored copies in `.fw/store` no record entry refers to, removed. */
  orphans: string[];
  /** Folders removed because the run's deletions (or an interrupted run's) left them empty. */
  folders: string[];
}

/**
 * The apply step, the only place fw writes a project: after a killed run (see {@link APPLYING_FILE})
 * removes the temp files it left in the folders the plan touches, carries out the plan
 * ({@link applyPlan} with {@link diskWriter}),
 * then updates `.fw/record.json` and `.fw/store` for exactly what landed (also when a write failed,
 * so the record always describes the disk; the failure is rethrown after), collects what `.fw/`
 * no longer needs (temp files and stored copies the record does not refer to, see
 * `removeEngineLeftovers`), removes the folders its deletions left empty (`plan.prune`, see
 * `emptiedFolders`), and saves the cache. Every step is idempotent, so a run killed at any point
 * is completed by the next one: the marker names the folders to remove, which the record no
 * longer does once it is written, and the next run's plan takes them up. Called under the project
 * lock (`runPipeline`), which keeps the collection safe.
 */
export async function apply(plan: Plan, options: { generatorVersion?: string } = {}): Promise<ApplyResult> {
  const marker = path.join(plan.root, APPLYING_FILE);
  const interrupted = existsSync(marker);
  const leftovers = interrupted ? await removeTempLeftovers(plan.root, plan.items.map((i) => i.path)) : [];
  let marked = false;
  const mark = async (): Promise<void> => {
    if (marked) return;
    marked = true;
    await mkdir(path.dirname(marker), { recursive: true });
    await ignoreCache(plan.root);
    await writeFile(marker, applyingMarker(process.pid, plan.prune));
  };
  if (planChangesDisk(plan)) await mark();
  const updates: RecordUpdates = { written: [], dropped: [] };
  const failure = await applyPlan(plan, diskWriter(plan.root), updates).then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  const recordChanges = updates.written.length > 0 || updates.dropped.length > 0;
  if (recordChanges) await mark(); // the store and the record are about to be written
  const record = (await updateRecord(plan.root, options.generatorVersion ?? packageVersion(), updates.written, updates.dropped)) ?? (await readRecord(plan.root));
  const collected = interrupted || recordChanges ? await removeEngineLeftovers(plan.root, record) : { temps: [], orphans: [] };
  if (failure) {
    // A write that failed is no killed run: writeFileAtomic removed its temp file and the record
    // describes what landed, so nothing is left for the next run or `fw doctor` to repair (the
    // folders the deletions that landed emptied go now: the record no longer names them).
    await removeFolders(plan.root, plan.prune);
    if (marked || interrupted) await rm(marker, { force: true });
    throw failure.error;
  }
  if (plan.prune.length > 0) pausePoint('folder-prune');
  const folders = await removeFolders(plan.root, plan.prune);
  if (plan.cache) {
    const stored = new Set(Object.values(record?.files ?? {}).map((e) => e.sha256));
    await plan.cache.save(plan.root, (hash) => stored.has(hash), plan.ownsAll);
  }
  if (marked || interrupted) await rm(marker, { force: true });
  const result: ApplyResult = { created: [], updated: [], deleted: [], unchanged: [], leftovers: [...leftovers, ...collected.temps], orphans: collected.orphans, folders };
  for (const item of plan.items) {
    if (item.remove) result.deleted.push(item.path);
    else if (item.write) (item.disk === undefined ? result.created : result.updated).push(item.path);
    else result.unchanged.push(item.path);
  }
  return result;
}
