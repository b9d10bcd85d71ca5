import { createRequire } from 'node:module';
import { decodeText } from './text.js';

type Diff = typeof import('diff');
let diff: Diff | undefined;

/**
 * Loads jsdiff: a run that prints no diff never does. Commands call it before printing diffs (a
 * dynamic import, so a bundle of the command includes it); a direct caller of
 * {@link unifiedDiff} that did not gets it required on first use.
 */
export async function loadDiff(): Promise<void> {
  diff ??= await import('diff');
}

function jsdiff(): Diff {
  diff ??= createRequire(import.meta.url)('diff') as Diff;
  return diff;
}

/**
 * A git-style unified diff of one path from `before` to `after` (`undefined` = the file does not
 * exist, shown as /dev/null). Returns '' when both are equal, and a one-line note for binary files.
 * Used by `fw generate --dry-run`.
 */
export function unifiedDiff(path: string, before: Uint8Array | string | undefined, after: Uint8Array | string | undefined): string {
  const bytes = (v: Uint8Array | string | undefined): Buffer | undefined =>
    v === undefined ? undefined : typeof v === 'string' ? Buffer.from(v, 'utf8') : Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  const b = bytes(before);
  const a = bytes(after);
  if (b === undefined && a === undefined) return '';
  if (b !== undefined && a !== undefined && b.equals(a)) return '';
  const oldName = b === undefined ? '/dev/null' : `a/${path}`;
  const newName = a === undefined ? '/dev/null' : `b/${path}`;
  const tb = b === undefined ? '' : decodeText(b);
  const ta = a === undefined ? '' : decodeText(a);
  if (tb === undefined || ta === undefined) return `Binary files ${oldName} and ${newName} differ\n`;
  const patch = jsdiff().createTwoFilesPatch(oldName, newName, tb, ta, undefined, undefined, { context: 3 });
  // Drop the "=====" underline diff adds; keep the ---/+++ headers git prints.
  return patch.replace(/^=+\n/, '');
}
