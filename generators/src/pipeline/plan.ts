import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Cache } from './cache.js';
import { classify, SIDECAR_SUFFIX, type Classification } from './classify.js';
import { sha256 } from './hash.js';
import { MARKER_OURS } from './merge.js';
import type { Containment } from './contain.js';
import { parseMode, type RecordEntry, type Store } from './record.js';

/** Default mode of a file fw writes. */
export const FILE_MODE = 0o644;
/** Mode of a generated executable (scripts, bins). */
export const EXECUTABLE_MODE = 0o755;

/** One classified path: its {@link Classification} plus what apply and the record need. */
export interface PlanItem extends Classification {
  /** Mode for the written file: the render's, unless the user changed the executable bit (three-way). */
  mode: number;
  /** Mode recorded with the new base: always the render's. */
  recordMode: number;
  /** Generator recorded for the path. */
  generator: string;
  /** Written before every other file (`fw.json`): a killed run leaves fw generate's input complete. */
  first: boolean;
  /** Holds a secret: diffs and `--json` never show its bytes. */
  secret: boolean;
}

/** The classified result of a run: nothing has been written yet. */
export interface Plan {
  /** Absolute project root. */
  root: string;
  /** The run's name (`fw generate`, `additive:blog`, ...): recorded for new explicit files, shown in `--json`. */
  generatorId: string;
  /** One item per path, sorted by path. */
  items: PlanItem[];
  /**
   * Folders apply removes after the files, sorted: each one the run's deletions (or an interrupted
   * run's) leave empty (`emptiedFolders`). A dry run lists them.
   */
  prune: string[];
  /** Whether the run answered for every generator (then the cache drops what it did not use). */
  ownsAll: boolean;
  /** The cache to save after apply, if the run used one. */
  cache?: Cache;
}

/**
 * A render of one path ("theirs"), formatted: merged three ways with the file on disk. Its hash is
 * known up front; its bytes are read (or formatted) only when the path is not simply unchanged.
 */
export interface RenderInput {
  sha: string;
  content: () => Promise<Buffer>;
  generator: string;
  mode: number;
}

/** An explicit change: the final bytes of a file the command computed itself (or its removal). */
export type ExplicitInput =
  | {
      kind: 'write';
      content: Buffer;
      /** Mode to write; default: the file's mode on disk, else {@link FILE_MODE}. */
      mode?: number;
      /** `false`: never recorded (an earlier entry is dropped); default: the entry is left as it is. */
      record?: boolean;
      /** Write only when the path is missing. */
      ifMissing: boolean;
      /** Reported as `seed` when written. */
      seed: boolean;
      first: boolean;
      secret: boolean;
      reason?: string;
    }
  | { kind: 'delete'; first: boolean; reason?: string };

/** Everything known about one path before it is read. */
export interface PathInput {
  path: string;
  render?: RenderInput;
  explicit?: ExplicitInput;
  /** The record entry, when the run answers for the path's generator or renders it. */
  entry?: RecordEntry;
}

/** Options of a {@link Planner}. */
export interface PlannerOptions {
  /** A file fw did not write is in the way of a render: overwrite it (`create project --force`). */
  overwriteUntracked?: boolean;
  /** Remove recorded files that are no longer rendered even when edited (`fw destroy --force`). */
  removeEdited?: boolean;
  /** Write a render again whose file the user deleted, instead of leaving it deleted (`fw make --force`). */
  restoreDeleted?: boolean;
  /** Generator recorded for explicit files that have no render. */
  generatorId: string;
}

/** `O_NOFOLLOW` where the platform has it; elsewhere symlinks are followed and checked by `check()` first. */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** A file as it is on disk. */
export interface OnDisk {
  bytes: Buffer;
  mode: number;
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

/**
 * The one planner of every fw command. It classifies a path from up to four inputs: the record
 * entry and its stored bytes (base), the file on disk (ours), the formatted render (theirs) and an
 * explicit change the command made (a `fw.json` edit, a codemod, an app config). A path without
 * a record entry is the degenerate case: `create project` plans against an empty record. Reads
 * are synchronous (thousands of small files: about twice as fast as the asynchronous API here),
 * containment is checked on every path, and nothing is written.
 */
export class Planner {
  readonly #root: string;
  readonly #options: PlannerOptions;
  readonly #store: Store;
  readonly #contain: Containment;

  constructor(root: string, options: PlannerOptions, store: Store, contain: Containment) {
    this.#root = root;
    this.#options = options;
    this.#store = store;
    this.#contain = contain;
  }

  /**
   * The file on disk (bytes and mode), after checking the path stays inside the project. The file
   * is opened without following a symlink: a symlink is checked (it must stay inside) and then
   * read through, a plain file costs one open.
   */
  read(rel: string): OnDisk | undefined {
    if (NOFOLLOW === 0) this.#contain.check(rel);
    else this.#contain.checkFolder(rel);
    const absolute = path.join(this.#root, rel);
    let fd: number;
    try {
      fd = openSync(absolute, constants.O_RDONLY | NOFOLLOW);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      if (code !== 'ELOOP' && code !== 'EMLINK') throw error;
      this.#contain.check(rel); // a symlink: it must stay inside the project
      fd = openSync(absolute, constants.O_RDONLY);
    }
    try {
      const stats = fstatSync(fd);
      if (stats.isDirectory()) throw new Error(`Cannot write ${rel}: a directory is in the way`);
      return { bytes: readFileSync(fd), mode: stats.mode & 0o777 };
    } finally {
      closeSync(fd);
    }
  }

  /** Plans one path; `undefined` when there is nothing to say about it (nothing rendered, written or recorded; a delete of nothing). */
  async plan(input: PathInput): Promise<PlanItem | undefined> {
    const { path: rel, render, explicit, entry } = input;
    const onDisk = this.read(rel);
    const disk = onDisk?.bytes;
    const baseMode = entry ? parseMode(entry.mode) : undefined;
    const item = (c: Classification, mode: number, recordMode: number, generator: string): PlanItem => ({
      ...c,
      mode,
      recordMode,
      generator,
      first: explicit?.first ?? false,
      secret: explicit?.kind === 'write' && explicit.secret,
    });

    if (explicit?.kind === 'delete') {
      if (!onDisk && !entry) return undefined;
      const c = onDisk
        ? { action: 'delete' as const, reason: explicit.reason ?? 'removed', write: undefined, remove: true }
        : { action: 'skip-deleted' as const, reason: 'already gone; forgotten', remove: false };
      return item(
        { ...c, path: rel, conflicts: 0, unresolved: false, record: { op: 'drop' }, base: undefined, disk, theirs: undefined },
        onDisk?.mode ?? FILE_MODE,
        FILE_MODE,
        entry?.generator ?? this.#options.generatorId,
      );
    }

    if (!render) {
      if (explicit) {
        return item(this.#explicit(rel, explicit, onDisk, entry), explicit.mode ?? onDisk?.mode ?? FILE_MODE, explicit.mode ?? FILE_MODE, entry?.generator ?? this.#options.generatorId);
      }
      if (!entry) return undefined;
    }

    if (render && entry && !explicit && onDisk && render.sha === entry.sha256 && this.#untouched(onDisk, entry, render)) {
      // The common case of a no-op run: render, base and disk are the same bytes, known by hash.
      const c: Classification = {
        path: rel, action: 'unchanged', reason: 'generator output unchanged', remove: false, conflicts: 0, unresolved: false,
        record: { op: 'keep' }, base: onDisk.bytes, disk: onDisk.bytes, theirs: onDisk.bytes,
      };
      return item(c, render.mode, render.mode, render.generator);
    }
    const base = entry ? this.#store.read(entry.sha256) : undefined;
    const theirs = render ? await render.content() : undefined;
    const c = classify({ path: rel, recorded: entry !== undefined, base, disk, theirs, overwriteUntracked: this.#options.overwriteUntracked === true });
    if (c.action === 'keep-edited' && this.#options.removeEdited) {
      c.action = 'delete';
      c.remove = true;
      c.reason = 'edited by you, removed because of --force';
    }
    if (c.action === 'skip-deleted' && theirs !== undefined && this.#options.restoreDeleted) {
      c.action = 'create';
      c.write = theirs;
      c.record = { op: 'set', bytes: theirs };
      c.reason = 'you had deleted it: written again because of --force';
    }
    if (c.sidecar) {
      const existing = this.read(rel + SIDECAR_SUFFIX);
      if (existing?.bytes.equals(c.sidecar)) delete c.sidecar;
    } else if (c.action === 'unchanged' && !c.unresolved && onDisk && this.read(rel + SIDECAR_SUFFIX)) {
      // An earlier conflict's .fw-new is still there: it stays listed until the user deletes it.
      c.unresolved = true;
      c.sidecarLeft = true;
    }
    const theirsMode = render?.mode ?? baseMode ?? FILE_MODE;
    const mode = mergeMode(baseMode, onDisk?.mode, theirsMode);
    if (onDisk && render && !c.write && !c.remove && executable(mode) !== executable(onDisk.mode)) {
      c.write = onDisk.bytes;
      if (c.action === 'unchanged') {
        c.action = 'update';
        c.reason = `file mode changed to ${mode.toString(8).padStart(4, '0')}`;
      }
      if (c.record.op === 'keep' && theirs) c.record = { op: 'set', bytes: theirs };
    }
    if (explicit?.kind === 'write' && !c.remove) this.#overlay(c, explicit, onDisk);
    return item(c, mode, theirsMode, render?.generator ?? entry?.generator ?? this.#options.generatorId);
  }

  /** Whether the file on disk is exactly the recorded render, with the same executable bit as it and the new render. */
  #untouched(onDisk: OnDisk, entry: RecordEntry, render: RenderInput): boolean {
    const recorded = executable(parseMode(entry.mode));
    return executable(render.mode) === recorded && executable(onDisk.mode) === recorded && !onDisk.bytes.includes(MARKER_OURS) && sha256(onDisk.bytes) === entry.sha256;
  }

  /** A file the command wrote itself, compared with disk: create, update or unchanged. */
  #explicit(rel: string, explicit: Extract<ExplicitInput, { kind: 'write' }>, onDisk: OnDisk | undefined, entry: RecordEntry | undefined): Classification {
    const record = explicit.record === false && entry ? ({ op: 'drop' } as const) : ({ op: 'keep' } as const);
    const mode = explicit.mode ?? onDisk?.mode ?? FILE_MODE;
    const same = onDisk !== undefined && onDisk.bytes.equals(explicit.content) && executable(onDisk.mode) === executable(mode);
    const kept = explicit.ifMissing && onDisk !== undefined;
    const action = kept || same ? 'unchanged' : explicit.seed ? 'seed' : onDisk ? 'update' : 'create';
    const reason = kept
      ? 'exists: yours, left alone'
      : (explicit.reason ?? (action === 'create' ? 'new file' : action === 'unchanged' ? 'already as wanted' : 'updated'));
    return {
      path: rel,
      action,
      reason,
      ...(same || kept ? {} : { write: explicit.content }),
      remove: false,
      conflicts: 0,
      unresolved: false,
      record,
      base: undefined,
      disk: onDisk?.bytes,
      theirs: undefined,
    };
  }

  /**
   * A command's edit on top of a rendered path (the registrations of `fluid/app.ts` on top of its
   * merge): the edit becomes what is written, the record keeps the render as the base.
   */
  #overlay(c: Classification, explicit: Extract<ExplicitInput, { kind: 'write' }>, onDisk: OnDisk | undefined): void {
    if (onDisk?.bytes.equals(explicit.content)) {
      delete c.write;
      return;
    }
    c.write = explicit.content;
    if (c.action === 'unchanged' || c.action === 'adopt') {
      c.action = onDisk ? 'update' : 'create';
      c.reason = explicit.reason ?? 'updated';
    }
  }
}

