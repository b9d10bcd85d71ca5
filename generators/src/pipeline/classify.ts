import { hasConflictMarkers, MARKER_OURS, mergeFile } from './merge.js';
import { decodeText, detectEol, fromLf, sameContent } from './text.js';

/** What the pipeline does with one path (docs/regeneration.md explains each). */
export type PlanAction =
  | 'create'
  | 'update'
  | 'merge'
  | 'conflict'
  | 'unchanged'
  | 'skip-deleted'
  | 'delete'
  | 'keep-edited'
  | 'adopt'
  | 'conflict-untracked'
  | 'seed';

/** Every {@link PlanAction}, in the order summaries list them. */
export const PLAN_ACTIONS: readonly PlanAction[] = [
  'create', 'update', 'merge', 'conflict', 'conflict-untracked', 'delete',
  'skip-deleted', 'keep-edited', 'adopt', 'seed', 'unchanged',
];

/** Suffix of the sibling file that receives the new render when the path itself cannot take it. */
export const SIDECAR_SUFFIX = '.fw-new';

/**
 * What happens to the path's entry in `.fw/record.json`:
 * `set` records `bytes` (always the new render) as the base of the next run, `keep` leaves the
 * entry as it is (or absent), `drop` removes it.
 */
export type RecordOp = { op: 'set'; bytes: Buffer } | { op: 'keep' } | { op: 'drop' };

/** Input of {@link classify}: everything known about one path. */
export interface ClassifyInput {
  /** Project-relative POSIX path. */
  path: string;
  /** Whether `.fw/record.json` has an entry for the path. */
  recorded: boolean;
  /** The bytes last generated, from `.fw/store`; `undefined` when not recorded or missing from the store. */
  base: Buffer | undefined;
  /** The file on disk; `undefined` when there is none. */
  disk: Buffer | undefined;
  /** The new render; `undefined` when the current config no longer produces the path. */
  theirs: Buffer | undefined;
  /**
   * A file fw did not write is in the way of the render: overwrite it instead of leaving it alone
   * with the render in a `.fw-new` sidecar (`create project --force` does this).
   */
  overwriteUntracked?: boolean;
}

/** The decision for one path. Pure data: nothing has been written yet. */
export interface Classification {
  path: string;
  action: PlanAction;
  /** Why, in words for the user. */
  reason: string;
  /** Bytes to write at `path`, when the path changes. */
  write?: Buffer;
  /** Bytes to write at `path + ".fw-new"` (binary conflicts, untracked files in the way). */
  sidecar?: Buffer;
  /** Whether `path` is removed. */
  remove: boolean;
  /** Conflict regions written (or 1 for a binary / untracked conflict). */
  conflicts: number;
  /** Whether the file left at `path` still holds conflict markers, or a `.fw-new`, from an earlier run. */
  unresolved: boolean;
  /** Whether the `.fw-new` written by an earlier conflict is still next to the file (it is resolved once deleted). */
  sidecarLeft?: boolean;
  /** The record change to make once the writes succeeded. */
  record: RecordOp;
  /** The three inputs, kept for diffs and reports. */
  base: Buffer | undefined;
  disk: Buffer | undefined;
  theirs: Buffer | undefined;
}

/** Gives `theirs` the line endings of the file on disk when that file is consistently CRLF. */
function inDiskEol(theirs: Buffer, disk: Buffer): Buffer {
  const diskText = decodeText(disk);
  const theirText = decodeText(theirs);
  if (diskText === undefined || theirText === undefined) return theirs;
  if (detectEol(diskText) !== 'crlf' || detectEol(theirText) !== 'lf') return theirs;
  return Buffer.from(fromLf(theirText, 'crlf'), 'utf8');
}

function stillConflicted(bytes: Buffer | undefined): boolean {
  if (bytes === undefined || !bytes.includes(MARKER_OURS)) return false;
  const text = decodeText(bytes);
  return text !== undefined && hasConflictMarkers(text);
}

type Decision = Omit<Classification, 'path' | 'base' | 'disk' | 'theirs' | 'unresolved' | 'remove' | 'conflicts'> &
  Partial<Pick<Classification, 'remove' | 'conflicts'>>;

function decide(input: ClassifyInput): Decision {
  const { recorded, base, disk, theirs } = input;
  const set = (bytes: Buffer): RecordOp => ({ op: 'set', bytes });

  if (theirs === undefined) {
    if (!recorded) return { action: 'unchanged', reason: 'not generated and not recorded', record: { op: 'keep' } };
    if (disk === undefined) {
      return { action: 'skip-deleted', reason: 'no longer generated and already deleted by you; forgotten', record: { op: 'drop' } };
    }
    if (base !== undefined && sameContent(disk, base)) {
      return { action: 'delete', reason: 'no longer generated and never edited: removed', remove: true, record: { op: 'drop' } };
    }
    const why = base === undefined ? 'its last generated version is missing from .fw/store' : 'you edited it';
    return { action: 'keep-edited', reason: `no longer generated, but ${why}: kept, now yours alone`, record: { op: 'drop' } };
  }

  if (!recorded || base === undefined) {
    const missing = recorded ? ' (its last generated version is missing from .fw/store)' : '';
    if (disk === undefined) return { action: 'create', reason: `new file${missing}`, write: theirs, record: set(theirs) };
    if (sameContent(disk, theirs)) {
      return { action: 'adopt', reason: `an identical file already exists${missing}: recorded`, record: set(theirs) };
    }
    if (input.overwriteUntracked) {
      return { action: 'update', reason: `overwritten (--force): fw did not write the file that was there${missing}`, write: theirs, record: set(theirs) };
    }
    return {
      action: 'conflict-untracked',
      reason: `a different file exists that fw did not write${missing}: left alone, new render in ${input.path}${SIDECAR_SUFFIX}`,
      sidecar: theirs,
      conflicts: 1,
      // Like any conflict, the render becomes the base: once the user has compared and deleted
      // the .fw-new, the file they kept is their edit of it (not a conflict on every run).
      record: set(theirs),
    };
  }

  if (disk === undefined) {
    return { action: 'skip-deleted', reason: 'you deleted it: stays deleted', record: { op: 'keep' } };
  }
  if (sameContent(disk, base)) {
    if (sameContent(theirs, base)) return { action: 'unchanged', reason: 'generator output unchanged', record: { op: 'keep' } };
    return { action: 'update', reason: 'never edited: updated to the new render', write: inDiskEol(theirs, disk), record: set(theirs) };
  }
  if (sameContent(theirs, base)) {
    return { action: 'unchanged', reason: 'your edits kept; generator output unchanged', record: { op: 'keep' } };
  }
  if (sameContent(disk, theirs)) {
    return { action: 'unchanged', reason: 'already matches the new render', record: set(theirs) };
  }
  const merged = mergeFile({ base, ours: disk, theirs, path: input.path });
  if (merged.kind === 'conflict' && merged.binary) {
    return {
      action: 'conflict',
      reason: `binary file changed by you and by the generator: yours kept, new render in ${input.path}${SIDECAR_SUFFIX}`,
      sidecar: theirs,
      conflicts: 1,
      record: set(theirs),
    };
  }
  if (merged.kind === 'conflict' && stillConflicted(disk)) {
    // Never nest markers: the user must resolve the earlier conflict first (or a run was killed
    // after writing markers but before recording). The record keeps its base, so the same merge
    // is attempted again once the markers are gone.
    return {
      action: 'conflict',
      reason: 'still holds conflict markers from an earlier run and would conflict again: resolve those first, then run again',
      conflicts: 1,
      record: { op: 'keep' },
    };
  }
  if (merged.kind === 'conflict') {
    const n = merged.conflicts;
    return {
      action: 'conflict',
      reason: `your edits overlap the generator's changes: ${n} conflict${n === 1 ? '' : 's'} marked in the file`,
      write: merged.bytes,
      conflicts: n,
      record: set(theirs),
    };
  }
  if (merged.bytes.equals(disk)) {
    return { action: 'unchanged', reason: "your file already contains the generator's changes", record: set(theirs) };
  }
  return { action: 'merge', reason: "your edits merged with the generator's changes", write: merged.bytes, record: set(theirs) };
}

/**
 * Classifies one path from its three versions (a pure function; see docs/regeneration.md).
 *
 * The record op is always the new render when one is recorded, never the merged result: the base
 * of the next run must be what fw generated, so that whatever differs on disk (the user's edits,
 * or their resolution of a conflict) is treated as theirs to keep.
 */
export function classify(input: ClassifyInput): Classification {
  const decision = decide(input);
  const remove = decision.remove ?? false;
  const left = remove ? undefined : (decision.write ?? input.disk);
  return {
    path: input.path,
    remove,
    conflicts: decision.conflicts ?? 0,
    ...decision,
    unresolved: decision.action !== 'conflict' && stillConflicted(left),
    base: input.base,
    disk: input.disk,
    theirs: input.theirs,
  };
}
