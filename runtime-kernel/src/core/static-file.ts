/**
 * One file answered from disk: what `serveStatic` and the frontend's catch-all do once a request
 * path has been checked and resolved to an absolute file path.
 *
 * Each file's answer (`ETag`, `Last-Modified`, `Content-Type`) is worked out once and kept with
 * the file's identity (device, inode, size, mtime, ctime). A request for a known file costs one
 * `stat`: when the identity still matches, the kept headers are sent, and for a small file its
 * kept bytes too (no open, read or close); when anything differs, or the file is new, the file is
 * opened and read afresh, its identity taken from the open descriptor (`fstat`), so the bytes and
 * the headers always describe the same file. A file that no longer exists is not found (the
 * caller passes to `next()`).
 *
 * Bytes are kept only for a file whose last change (mtime and ctime) is more than
 * `SETTLED_MS` older than the read: a file's timestamps are coarse (a clock tick, a second on
 * some filesystems), so a same-size rewrite within the same tick as the read would otherwise
 * leave the identity unchanged and the kept bytes stale (git's "racily clean" problem). A file
 * still being written is read on every request until it settles.
 */
import { constants, type Stats } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { extname, isAbsolute, relative, sep } from 'node:path';
import mime from 'mime-types';
import type Koa from 'koa';

/** Files up to this size keep their bytes in memory. */
export const KEPT_FILE_MAX = 256 * 1024;
/** Bytes kept in memory over all files; beyond it, the oldest kept bodies are dropped. */
export const KEPT_BYTES_MAX = 32 * 1024 * 1024;
/** Files known at most; when full, all are forgotten (cheap, and hostile paths cannot grow it). */
const FILES_MAX = 10_000;
/** How long after its last change a file's bytes may be kept (see the header). */
export const SETTLED_MS = 2000;
// Errors meaning "no such file" (as koa-send): the caller falls through to the app's 404.
const NOT_FOUND = new Set(['ENOENT', 'ENAMETOOLONG', 'ENOTDIR', 'EISDIR']);

/** What is known of one file: its identity, its precomputed headers, and maybe its bytes. */
interface KnownFile {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly etag: string;
  readonly lastModified: string;
  readonly type: string | undefined;
  /** The file's bytes when small and settled; `undefined` when it is streamed or still changing. */
  body: Buffer | undefined;
}

const known = new Map<string, KnownFile>();
let keptBytes = 0;

function sameFile(k: KnownFile, s: Stats): boolean {
  return k.ino === s.ino && k.size === s.size && k.mtimeMs === s.mtimeMs && k.ctimeMs === s.ctimeMs && k.dev === s.dev;
}

/** Makes `entry` the known answer for `file` (its bytes, if any, are added by `keep`). */
function remember(file: string, entry: KnownFile): void {
  if (known.get(file) === entry) return;
  forget(file);
  if (known.size >= FILES_MAX) {
    known.clear();
    keptBytes = 0;
  }
  known.set(file, entry);
}

/**
 * Keeps a known file's bytes, dropping the oldest kept bodies (Map order) beyond the budget; not
 * when another request has meanwhile made a newer entry the known one.
 */
function keep(file: string, entry: KnownFile, body: Buffer): void {
  if (known.get(file) !== entry || entry.body !== undefined) return;
  entry.body = body;
  keptBytes += body.length;
  for (const other of known.values()) {
    if (keptBytes <= KEPT_BYTES_MAX) break;
    if (other.body !== undefined && other !== entry) {
      keptBytes -= other.body.length;
      other.body = undefined;
    }
  }
}

function forget(file: string): void {
  const old = known.get(file);
  if (!old) return;
  if (old.body) keptBytes -= old.body.length;
  known.delete(file);
}

function isNotFound(err: unknown): boolean {
  return NOT_FOUND.has((err as NodeJS.ErrnoException).code ?? '');
}

// A served root's real path, resolved once per root (roots are the app's own folders).
const realRoots = new Map<string, Promise<string>>();

/** Whether `file`'s real path is inside `root`'s; false when either cannot be resolved. */
async function confined(root: string, file: string): Promise<boolean> {
  let real = realRoots.get(root);
  if (!real) {
    real = realpath(root);
    realRoots.set(root, real);
    real.catch(() => realRoots.delete(root));
  }
  try {
    const [base, path] = await Promise.all([real, realpath(file)]);
    const rel = relative(base, path);
    return rel !== '' && rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel);
  } catch {
    return false; // missing, a dangling or looping link: not found
  }
}

/** The weak validator: size and mtime (ms), the shape `send`/`serve-static` use. */
function weakEtag(stats: Stats): string {
  return `W/"${stats.size.toString(16)}-${stats.mtime.getTime().toString(16)}"`;
}

/** Sends files with one `Cache-Control` value (a mount's). */
export class StaticFileSender {
  readonly #cacheControl: string;

  /** `cacheControl`: the header value, unless an earlier middleware set one (e.g. `max-age=0`). */
  constructor(cacheControl: string) {
    this.#cacheControl = cacheControl;
  }

  /**
   * Answers `ctx` with the file at the absolute path `file` (its path already checked by the
   * caller). With `root` (the folder the file is served from), a file whose real path leaves it
   * through a symlink is not found. Resolves true when answered (200, or 304 for a fresh
   * conditional request), false when there is no regular file there. Other file system errors
   * reject.
   */
  send(ctx: Koa.ParameterizedContext, file: string, root?: string): Promise<boolean> {
    const entry = known.get(file);
    // Unknown, large or still changing: open it (the identity then comes with the bytes).
    if (entry?.body === undefined) return this.#load(ctx, file, entry, root);
    return stat(file).then(
      (stats) => {
        if (!sameFile(entry, stats)) return this.#load(ctx, file, undefined, root);
        if (!this.#head(ctx, entry)) ctx.body = entry.body;
        return true;
      },
      (err: unknown) => {
        if (!isNotFound(err)) throw err;
        forget(file);
        return false;
      },
    );
  }

  async #load(ctx: Koa.ParameterizedContext, file: string, was: KnownFile | undefined, root: string | undefined): Promise<boolean> {
    if (root !== undefined && !(await confined(root, file))) {
      forget(file);
      return false;
    }
    let handle: FileHandle;
    try {
      handle = await open(file, constants.O_RDONLY);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      forget(file);
      return false;
    }
    let streaming = false;
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) {
        forget(file);
        return false;
      }
      const entry = was !== undefined && sameFile(was, stats) ? was : describe(file, stats);
      remember(file, entry);
      if (this.#head(ctx, entry)) return true;
      if (stats.size > KEPT_FILE_MAX) {
        ctx.res.setHeader('Content-Length', stats.size);
        ctx.body = handle.createReadStream({ end: stats.size - 1 }); // closes the file when done
        streaming = true;
        return true;
      }
      const settled = Date.now() - Math.max(stats.mtimeMs, stats.ctimeMs) > SETTLED_MS;
      const body = await readAll(handle, stats.size);
      // Bytes that are all there and no longer changing are kept; the headers are kept either way.
      if (settled && body.length === stats.size) keep(file, entry, body);
      ctx.body = body;
      return true;
    } finally {
      if (!streaming) await handle.close();
    }
  }

  /** Sets the file's headers; true when the request is a fresh conditional one (answered 304). */
  #head(ctx: Koa.ParameterizedContext, entry: KnownFile): boolean {
    const res = ctx.res;
    ctx.status = 200;
    res.setHeader('ETag', entry.etag);
    if (!res.hasHeader('last-modified')) res.setHeader('Last-Modified', entry.lastModified);
    if (!res.hasHeader('cache-control')) res.setHeader('Cache-Control', this.#cacheControl);
    if (entry.type !== undefined && !res.hasHeader('content-type')) res.setHeader('Content-Type', entry.type);
    const headers = ctx.req.headers;
    if ((headers['if-none-match'] === undefined && headers['if-modified-since'] === undefined) || !ctx.fresh) return false;
    ctx.status = 304;
    return true;
  }
}

function describe(file: string, stats: Stats): KnownFile {
  return {
    dev: stats.dev,
    ino: stats.ino,
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    ctimeMs: stats.ctimeMs,
    etag: weakEtag(stats),
    lastModified: stats.mtime.toUTCString(),
    type: mime.contentType(extname(file)) || undefined,
    body: undefined,
  };
}

/** Reads up to `size` bytes from the start of an open file (fewer if it shrank meanwhile). */
async function readAll(handle: FileHandle, size: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(size);
  let filled = 0;
  while (filled < size) {
    const { bytesRead } = await handle.read(buffer, filled, size - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === size ? buffer : buffer.subarray(0, filled);
}
