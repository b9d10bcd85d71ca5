/**
 * Stack frames with source excerpts, for the debug error page (debug only: loaded with it).
 *
 * Frames come from `error.stack`. Under `fw run` (tsx) and `node --enable-source-maps` Node has
 * already mapped them to the TypeScript sources; a frame still in a compiled `.js` file with a
 * source map (inline or `.map` beside it) is mapped here with `node:module`'s `SourceMap`. The
 * excerpt is read from the original source (or the map's `sourcesContent`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One line of an excerpt. */
export interface SourceLine {
  /** 1-based line number. */
  line: number;
  text: string;
}

/** One frame of a stack. */
export interface StackFrame {
  /** The function, when the stack names one. */
  fn: string | undefined;
  /** The file (absolute path), or the raw location (`node:internal/...`). */
  file: string;
  /** Relative to the project root when the file is inside it. */
  shown: string;
  line: number;
  column: number;
  /** A file of the app (under the project root, not in node_modules). */
  app: boolean;
  /** Lines around `line` (app frames only). */
  excerpt?: SourceLine[];
}

const FRAME = /^\s*at (?:(.*?) \()?(.+?):(\d+):(\d+)\)?$/;
const CONTEXT = 5;

/** The frames of `error.stack`, app frames with excerpts. */
export function stackFrames(error: unknown, root: string): StackFrame[] {
  const stack = error instanceof Error && typeof error.stack === 'string' ? error.stack : '';
  const frames: StackFrame[] = [];
  for (const raw of stack.split('\n')) {
    const m = FRAME.exec(raw);
    if (!m) continue;
    const location = m[2]!.startsWith('file://') ? safePath(m[2]!) : m[2]!;
    const mapped = mapLocation(location, Number(m[3]), Number(m[4]));
    frames.push(frame(m[1], mapped.file, mapped.line, mapped.column, root, mapped.source));
  }
  return frames;
}

/** A frame for a known location (a template line, a file with conflict markers). */
export function frame(fn: string | undefined, file: string, line: number, column: number, root: string, source?: string): StackFrame {
  const inRoot = isAbsolute(file) && isInside(root, file);
  const app = inRoot && !file.split(sep).includes('node_modules');
  const result: StackFrame = { fn, file, shown: inRoot ? relative(root, file) : file, line, column, app };
  if (app) {
    const text = source ?? readSource(file);
    if (text !== undefined) result.excerpt = excerpt(text, line);
  }
  return result;
}

function excerpt(text: string, line: number): SourceLine[] {
  const lines = text.split(/\r?\n/);
  const from = Math.max(1, line - CONTEXT);
  const to = Math.min(lines.length, line + CONTEXT);
  const out: SourceLine[] = [];
  for (let n = from; n <= to; n++) out.push({ line: n, text: lines[n - 1] ?? '' });
  return out;
}

function readSource(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function safePath(url: string): string {
  try {
    return fileURLToPath(url);
  } catch {
    return url;
  }
}

function isInside(root: string, file: string): boolean {
  const rel = relative(root, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

interface Mapped {
  file: string;
  line: number;
  column: number;
  source?: string;
}

const maps = new Map<string, SourceMap | null>();

/** Maps a compiled `.js` location through its source map, when it has one. */
function mapLocation(file: string, line: number, column: number): Mapped {
  if (!/\.[cm]?js$/.test(file) || !isAbsolute(file)) return { file, line, column };
  const map = sourceMapOf(file);
  const entry = map?.findEntry(line - 1, column - 1);
  if (!map || !entry || !('originalSource' in entry) || typeof entry.originalSource !== 'string') return { file, line, column };
  const original = entry.originalSource.startsWith('file://') ? safePath(entry.originalSource) : resolve(dirname(file), entry.originalSource);
  const index = map.payload.sources.indexOf(entry.originalSource);
  const content = index >= 0 ? map.payload.sourcesContent?.[index] : undefined;
  const mapped: Mapped = { file: original, line: entry.originalLine + 1, column: entry.originalColumn + 1 };
  if (typeof content === 'string') mapped.source = content;
  return mapped;
}

function sourceMapOf(file: string): SourceMap | null {
  if (maps.has(file)) return maps.get(file)!;
  let map: SourceMap | null = null;
  try {
    const code = readFileSync(file, 'utf8');
    const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(code)?.[1];
    let payload: string | undefined;
    if (url?.startsWith('data:')) payload = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64').toString('utf8');
    else if (url && existsSync(resolve(dirname(file), url))) payload = readFileSync(resolve(dirname(file), url), 'utf8');
    if (payload) map = new SourceMap(JSON.parse(payload) as ConstructorParameters<typeof SourceMap>[0]);
  } catch {
    map = null;
  }
  maps.set(file, map);
  return map;
}
