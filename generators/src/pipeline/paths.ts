import path from 'node:path';

/** Thrown when a generator asks to write or delete a path the engine refuses. */
export class PathRefusedError extends Error {
  /** The path as the generator gave it. */
  readonly path: string;

  constructor(requested: string, reason: string) {
    super(`Refusing path ${JSON.stringify(requested)}: ${reason}`);
    this.name = 'PathRefusedError';
    this.path = requested;
  }
}

/** A relative path of plain segments, none empty: already normal unless a segment is `.` or `..`. */
const PLAIN = /^[\w@+~.-]+(?:\/[\w@+~.-]+)*$/;
const DOT_SEGMENT = /(?:^|\/)\.{1,2}(?:\/|$)/;
/** A segment the full check below would refuse (`.git`, `node_modules`, a leading `.fw`), in any case. */
const FORBIDDEN = /(?:^|\/)(?:\.git|node_modules)(?:\/|$)|^\.fw(?:\/|$)/i;

/** Top-level folders no generator may write into. `.fw/` belongs to the engine's record. */
const FORBIDDEN_SEGMENTS = new Set(['.git', 'node_modules']);
const ENGINE_FOLDER = '.fw';

/**
 * Validates a project-relative path and returns it normalised (POSIX separators, no `.`
 * segments). Refuses absolute paths, `..` escapes, NUL bytes, backslashes, and any path inside
 * `.git/`, `node_modules/` or the engine's own `.fw/`.
 */
export function normalizeProjectPath(requested: string): string {
  // Most paths are already normal (`additives/blog/api.ts`): only the forbidden folders need a look.
  if (typeof requested === 'string' && PLAIN.test(requested) && !DOT_SEGMENT.test(requested) && !FORBIDDEN.test(requested)) return requested;
  if (typeof requested !== 'string' || requested.length === 0) {
    throw new PathRefusedError(String(requested), 'the path is empty');
  }
  if (requested.includes('\0')) throw new PathRefusedError(requested, 'the path contains a NUL byte');
  if (requested.includes('\\')) {
    throw new PathRefusedError(requested, 'use forward slashes (/) in project paths');
  }
  if (requested.startsWith('/') || /^[A-Za-z]:/.test(requested)) {
    throw new PathRefusedError(requested, 'absolute paths are not allowed; give a path relative to the project root');
  }
  const normalized = path.posix.normalize(requested).replace(/\/+$/, '');
  if (normalized === '..' || normalized.startsWith('../')) {
    throw new PathRefusedError(requested, 'it points outside the project root');
  }
  if (normalized === '.' || normalized === '') {
    throw new PathRefusedError(requested, 'it names the project root itself, not a file');
  }
  const segments = normalized.split('/');
  for (const segment of segments) {
    if (FORBIDDEN_SEGMENTS.has(segment.toLowerCase())) {
      throw new PathRefusedError(requested, `generators never write inside ${segment}/`);
    }
  }
  if (segments[0]?.toLowerCase() === ENGINE_FOLDER) {
    throw new PathRefusedError(requested, '.fw/ holds the generation record and is written by the engine only');
  }
  return normalized;
}
