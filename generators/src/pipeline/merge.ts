import { diff3Merge } from 'node-diff3';
import { mergePackageJson } from './json-merge.js';
import { decodeText, detectEol, fromLf, toLf, type Eol } from './text.js';

/** Input of {@link mergeFile}: the three versions of one file, as bytes or text. */
export interface MergeInput {
  /** What fw last generated (from `.fw/store`). */
  base: Uint8Array | string;
  /** The file on disk, possibly edited by the user. */
  ours: Uint8Array | string;
  /** The new render. */
  theirs: Uint8Array | string;
  /** Project-relative path, used only in messages. */
  path: string;
}

/** Outcome of {@link mergeFile}. */
export interface MergeResult {
  /** `clean` when every change applied; `conflict` when at least one region overlaps. */
  kind: 'clean' | 'conflict';
  /** The merged text (with conflict markers when `kind` is `conflict`); `undefined` for binary files. */
  text: string | undefined;
  /** The bytes to leave at the path: the merged text, or for a binary file the winning side (ours on conflict). */
  bytes: Buffer;
  /** Number of conflict regions (a binary conflict counts as 1). */
  conflicts: number;
  /** True when any side is binary: binary files are never merged line by line. */
  binary: boolean;
}

/** Opening marker of a conflict region; the lines after it are the user's version. */
export const MARKER_OURS = '<<<<<<< ours (your edit)';
/** Separates the user's version from what fw generated last time (diff3 style). */
export const MARKER_BASE = '||||||| base (last generated)';
/** Separates the base from the new render. */
export const MARKER_SEP = '=======';
/** Closing marker of a conflict region; the lines before it are the new render. */
export const MARKER_THEIRS = '>>>>>>> theirs (new render)';

interface Lines {
  lines: string[];
  finalNewline: boolean;
  eol: Eol;
}

function splitLines(text: string): Lines {
  const eol = detectEol(text);
  const lf = toLf(text);
  if (lf === '') return { lines: [], finalNewline: false, eol };
  const finalNewline = lf.endsWith('\n');
  return { lines: (finalNewline ? lf.slice(0, -1) : lf).split('\n'), finalNewline, eol };
}

function asBytes(v: Uint8Array | string): Buffer {
  return typeof v === 'string' ? Buffer.from(v, 'utf8') : Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

function mergeBinary(base: Buffer, ours: Buffer, theirs: Buffer): MergeResult {
  const clean = (bytes: Buffer): MergeResult => ({ kind: 'clean', text: undefined, bytes, conflicts: 0, binary: true });
  if (ours.equals(base) || ours.equals(theirs)) return clean(theirs);
  if (theirs.equals(base)) return clean(ours);
  return { kind: 'conflict', text: undefined, bytes: ours, conflicts: 1, binary: true };
}

/** The diff3 line merge of three texts: the merged text with LF endings and its conflict regions. */
function mergeLines(tBase: string, tOurs: string, tTheirs: string): { lf: string; conflicts: number } {
  const b = splitLines(tBase);
  const o = splitLines(tOurs);
  const t = splitLines(tTheirs);
  const out: string[] = [];
  let conflicts = 0;
  let endsInConflict = false;
  for (const region of diff3Merge<string>(o.lines, b.lines, t.lines, { excludeFalseConflicts: true })) {
    if (region.ok) {
      out.push(...region.ok);
      endsInConflict = false;
    } else if (region.conflict) {
      conflicts++;
      endsInConflict = true;
      const c = region.conflict;
      out.push(MARKER_OURS, ...c.a, MARKER_BASE, ...c.o, MARKER_SEP, ...c.b, MARKER_THEIRS);
    }
  }
  const finalNewline = endsInConflict || (o.finalNewline === b.finalNewline ? t.finalNewline : o.finalNewline);
  let lf = out.join('\n');
  if (finalNewline && out.length > 0) lf += '\n';
  return { lf, conflicts };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Three-way merges one file with node-diff3, line by line.
 *
 * - Lines are compared with LF endings; the result gets the line-ending style of the file on disk
 *   (`ours`), or of the new render when the file on disk has no line break.
 * - A missing final newline is merged as a flag of its own (the user's choice wins when they
 *   changed it), so it never causes a conflict.
 * - Overlapping changes are written in diff3 style, git's `merge.conflictStyle=diff3`:
 *   {@link MARKER_OURS}, the user's lines, {@link MARKER_BASE}, the last generated lines,
 *   {@link MARKER_SEP}, the new render's lines, {@link MARKER_THEIRS}. Identical changes on both
 *   sides are not conflicts.
 * - A `package.json` whose lines conflict is merged by key instead (see `mergePackageJson`): a
 *   dependency added by the user and one added by the generator merge; a key both changed is a
 *   conflict of its own lines only.
 * - Binary files (NUL byte or invalid UTF-8 on any side) are never merged: when both sides
 *   changed them differently the result is a conflict whose bytes are the user's, unchanged.
 */
export function mergeFile(input: MergeInput): MergeResult {
  const base = asBytes(input.base);
  const ours = asBytes(input.ours);
  const theirs = asBytes(input.theirs);
  const tBase = decodeText(base);
  const tOurs = decodeText(ours);
  const tTheirs = decodeText(theirs);
  if (tBase === undefined || tOurs === undefined || tTheirs === undefined) {
    return mergeBinary(base, ours, theirs);
  }
  // The line endings of the file on disk, else of the new render.
  const eol: Eol = [tOurs, tTheirs].map(detectEol).find((e) => e !== 'none') ?? detectEol(tBase);
  let { lf, conflicts } = mergeLines(tBase, tOurs, tTheirs);
  if (conflicts > 0 && /(^|\/)package\.json$/.test(input.path)) {
    // Two dependencies added next to each other conflict line by line (the comma); by key they do
    // not. Keys both sides changed stay conflicts, marked alone (their neighbours merged by key).
    const byKey = mergePackageJson(toLf(tBase), toLf(tOurs), toLf(tTheirs));
    if (byKey?.kind === 'clean') {
      lf = byKey.text;
      conflicts = 0;
    } else if (byKey) {
      const narrowed = mergeLines(byKey.base, byKey.ours, byKey.theirs);
      // A clean line merge of the narrowed texts (two edits of one array on different lines) counts
      // only when it is still JSON; otherwise the markers of the narrowed merge or the first stand.
      if (narrowed.conflicts > 0 || isJson(narrowed.lf)) ({ lf, conflicts } = narrowed);
    }
  }
  const text = fromLf(lf, eol);
  return {
    kind: conflicts > 0 ? 'conflict' : 'clean',
    text,
    bytes: Buffer.from(text, 'utf8'),
    conflicts,
    binary: false,
  };
}

/** True when the text still holds a conflict region written by {@link mergeFile} (a line starting with its opening marker). */
export function hasConflictMarkers(text: string): boolean {
  return text.split(/\r?\n/).some((line) => line === MARKER_OURS);
}
