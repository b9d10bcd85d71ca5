import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { assertInsideRoot, resolveRoot } from '../engine/contain.js';
import { FILE_MODE } from '../engine/file-tree.js';
import { normalizeProjectPath } from '../engine/paths.js';
import { parseMode, readRecord, readStored, RecordError, type GenerationRecord } from '../engine/record.js';
import { classify, SIDECAR_SUFFIX, type Classification } from './classify.js';

/** One file of the new render, when it carries more than its bytes. */
export interface RenderedFile {
  /** The final (formatted) bytes. */
  content: Buffer;
  /** File mode; default: the recorded mode, else 0o644. Only the executable bit is merged. */
  mode?: number;
  /** Generator recorded for this file; default: the run's `generatorId`. */
  generator?: string;
}

/** Input of {@link planRegeneration}. */
export interface PlanRegenerationOptions {
  /** The project root (absolute or relative to the working directory). */
  projectRoot: string;
  /** Project-relative POSIX path → new render, for every file the current config produces. */
  rendered: ReadonlyMap<string, Buffer | RenderedFile>;
  /** The generator of this run: recorded for new files, and (by default) the owner of the record entries considered. */
  generatorId: string;
  /**
   * Which record entries this run answers for (by their `generator`): an entry it owns that the
   * render no longer produces is deleted or kept. Default: entries whose generator is `generatorId`.
   * `fw generate`, which re-renders the whole project, passes `() => true`.
   */
  owns?: (generator: string) => boolean;
  /** The generation record; default: read from `<projectRoot>/.fw/record.json`. */
  record?: GenerationRecord;
}

/** One planned path: its {@link Classification} plus what the record needs to store. */
export interface RegenItem extends Classification {
  /** Mode for the written file: the render's, unless the user changed the executable bit (three-way). */
  mode: number;
  /** Mode recorded with the new base: always the render's. */
  recordMode: number;
  /** Generator recorded for the path. */
  generator: string;
}

/** The classified result of a regeneration: nothing has been written. */
export interface RegenPlan {
  /** Absolute project root. */
  root: string;
  /** The run's generator. */
  generatorId: string;
  /** One item per path, sorted by path. */
  items: RegenItem[];
}

interface OnDisk {
  bytes: Buffer;
  mode: number;
}

async function readDisk(root: string, realRoot: string, rel: string): Promise<OnDisk | undefined> {
  await assertInsideRoot(realRoot, root, rel);
  const abs = path.join(root, rel);
  let stats;
  try {
    stats = await lstat(abs);
  } catch {
    return undefined;
  }
  if (stats.isDirectory()) throw new Error(`Cannot regenerate ${rel}: a directory is in the way`);
  return { bytes: await readFile(abs), mode: stats.mode & 0o777 };
}

const executable = (mode: number): boolean => (mode & 0o111) !== 0;

/**
 * Three-way merge of the executable bit (the only mode bit git keeps): the user's mode wins when
 * they changed it from the recorded one, otherwise the render's mode applies.
 */
function mergeMode(base: number | undefined, disk: number | undefined, theirs: number): number {
  if (base !== undefined && disk !== undefined && executable(disk) !== executable(base)) return disk;
  return theirs;
}

async function readBase(root: string, hash: string): Promise<Buffer | undefined> {
  try {
    return await readStored(root, hash);
  } catch (error) {
    if (error instanceof RecordError || (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** How many paths are read at once: enough to overlap file-system latency, few enough to stay under open-file limits. */
const READ_CONCURRENCY = 32;

/** Maps `items` with at most `limit` calls in flight; results keep the input order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

function checkPath(p: string, where: string): string {
  const normal = normalizeProjectPath(p);
  if (normal !== p) throw new RecordError(`${where}: path "${p}" is not normalised (expected "${normal}")`);
  return p;
}

/**
 * Reads the record, the content store and the disk, and classifies every path in the union of the
 * record entries this run owns and the rendered paths (see {@link classify}). Writes nothing, so
 * it is also the whole of `--dry-run`. A sidecar (`<path>.fw-new`) whose bytes already equal the
 * render is not planned again.
 */
export async function planRegeneration(options: PlanRegenerationOptions): Promise<RegenPlan> {
  const root = path.resolve(options.projectRoot);
  const realRoot = await resolveRoot(root);
  const record = options.record ?? (await readRecord(root));
  const files = record?.files ?? {};
  const owns = options.owns ?? ((g: string) => g === options.generatorId);

  const paths = new Set<string>();
  for (const [p, entry] of Object.entries(files)) if (owns(entry.generator)) paths.add(checkPath(p, '.fw/record.json'));
  for (const p of options.rendered.keys()) paths.add(checkPath(p, 'rendered files'));

  const sorted = [...paths].sort();
  const items = await mapLimit(sorted, READ_CONCURRENCY, async (p): Promise<RegenItem> => {
    const entry = files[p];
    const raw = options.rendered.get(p);
    const rendered: RenderedFile | undefined = raw === undefined ? undefined : Buffer.isBuffer(raw) ? { content: raw } : raw;
    const [base, onDisk] = await Promise.all([entry ? readBase(root, entry.sha256) : undefined, readDisk(root, realRoot, p)]);
    const disk = onDisk?.bytes;
    const c = classify({ path: p, recorded: entry !== undefined, base, disk, theirs: rendered?.content });
    if (c.sidecar) {
      const existing = await readDisk(root, realRoot, p + SIDECAR_SUFFIX);
      if (existing?.bytes.equals(c.sidecar)) delete c.sidecar;
    }
    const baseMode = entry ? parseMode(entry.mode) : undefined;
    const theirsMode = rendered?.mode ?? baseMode ?? FILE_MODE;
    const mode = mergeMode(baseMode, onDisk?.mode, theirsMode);
    if (onDisk && rendered && !c.write && !c.remove && executable(mode) !== executable(onDisk.mode)) {
      c.write = onDisk.bytes;
      if (c.action === 'unchanged') {
        c.action = 'update';
        c.reason = `file mode changed to ${mode.toString(8).padStart(4, '0')}`;
      }
      if (c.record.op === 'keep') c.record = { op: 'set', bytes: rendered.content };
    }
    return {
      ...c,
      mode,
      recordMode: theirsMode,
      generator: rendered?.generator ?? entry?.generator ?? options.generatorId,
    };
  });
  return { root, generatorId: options.generatorId, items };
}
