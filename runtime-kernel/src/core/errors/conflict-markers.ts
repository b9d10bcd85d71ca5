/**
 * Unresolved merge conflict markers (`<<<<<<<`, `|||||||`, `=======`, `>>>>>>>` lines, as git and
 * `fw generate` write them). A template holding them must never render them to a browser: the
 * template engine refuses it with a `ConflictMarkerError` naming the file and line (a debug page
 * in debug; a bare 500 with the location in the log in production).
 */
import { FrameworkException } from '../errors.js';

/** Where the first marker is: its 1-based line and the marker itself. */
export interface ConflictMarker {
  /** The 1-based line number. */
  line: number;
  /** The marker's seven characters, e.g. `<<<<<<<`. */
  marker: string;
}

const OPENING = /^(?:<{7}|>{7}|\|{7})(?: |$)/;

/**
 * The first conflict marker of `text`, or `undefined`. A lone `=======` line (a Markdown rule,
 * say) counts only in a file that also has an opening or closing marker.
 */
export function findConflictMarker(text: string): ConflictMarker | undefined {
  if (!text.includes('<<<<<<<') && !text.includes('>>>>>>>')) return undefined; // the common case: one scan
  const lines = text.split(/\r?\n/);
  if (!lines.some((l) => OPENING.test(l))) return undefined;
  const index = lines.findIndex((l) => OPENING.test(l) || /^={7}$/.test(l));
  return { line: index + 1, marker: lines[index]!.slice(0, 7) };
}

/** A file holds unresolved merge conflict markers; `file` and `line` say where the first is. */
export class ConflictMarkerError extends FrameworkException {
  /** Always `'ConflictMarkerError'`. */
  override name = 'ConflictMarkerError';
  /** The file (absolute path). */
  readonly file: string;
  /** The 1-based line of the first marker. */
  readonly line: number;
  constructor(file: string, marker: ConflictMarker) {
    super(`${file}:${marker.line}: unresolved merge conflict marker (${marker.marker}); resolve the conflict and save the file`);
    this.file = file;
    this.line = marker.line;
  }
}
