import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FrameworkException, HttpError } from '@fw/kernel';
import { serveStatic } from '@fw/kernel/core';

// Layout: secrets outside every static root, dotfiles inside each one.
//   <tmp>/.env, <tmp>/secret.txt                    (outside)
//   <tmp>/fluid/static/...                          → /static
//   <tmp>/additives/blog/static/...                 → /blog/static
//   <tmp>/kernel/static/...                         → /fluid/static
const SECRETS = ['OUTSIDE-SECRET', 'PROJECT-DOTENV', 'INSIDE-DOTENV', 'INSIDE-GIT-CONFIG', 'root:x:0:0'];
const MOUNTS = [
  { prefix: '/static', dir: 'fluid/static' },
  { prefix: '/blog/static', dir: 'additives/blog/static' },
  { prefix: '/fluid/static', dir: 'kernel/static', maxAge: 3600, immutable: true },
] as const;
const BIG = Buffer.alloc(100 * 1024, 'x');

let root: string;
let server: Server;
let port: number;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'fw-static-'));
  writeFileSync(join(root, 'secret.txt'), 'OUTSIDE-SECRET');
  writeFileSync(join(root, '.env'), 'PROJECT-DOTENV');
  for (const { dir } of MOUNTS) {
    const d = join(root, dir);
    mkdirSync(join(d, 'sub'), { recursive: true });
    mkdirSync(join(d, '.git'), { recursive: true });
    writeFileSync(join(d, 'hello.txt'), `hello from ${dir}`);
    writeFileSync(join(d, 'app.css'), 'body{}');
    writeFileSync(join(d, 'café.txt'), 'accent');
    writeFileSync(join(d, 'sub', 'nested.txt'), 'nested');
    writeFileSync(join(d, 'big.bin'), BIG);
    writeFileSync(join(d, '.env'), 'INSIDE-DOTENV');
    writeFileSync(join(d, '.git', 'config'), 'INSIDE-GIT-CONFIG');
  }
  const app = new Koa();
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      ctx.status = err.status;
      ctx.body = `error: ${err.message}`;
    }
  });
  for (const m of MOUNTS) {
    app.use(serveStatic(m.prefix, join(root, m.dir), 'maxAge' in m ? { maxAge: m.maxAge, immutable: m.immutable } : {}));
  }
  app.use((ctx) => {
    ctx.status = 404;
    ctx.body = 'fell-through';
  });
  server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(root, { recursive: true, force: true });
});

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A raw request: the path goes on the wire exactly as written (no URL normalisation). */
function raw(path: string, method = 'GET', headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

// [path under the mount, expected status, expected body start]
const HOSTILE: Array<[string, number, string]> = [
  ['../secret.txt', 403, 'error: Static path leaves its folder'],
  ['../../secret.txt', 403, 'error: Static path leaves its folder'],
  ['../../../secret.txt', 403, 'error: Static path leaves its folder'],
  ['../../../../../../../../etc/passwd', 403, 'error: Static path leaves its folder'],
  ['sub/../../secret.txt', 403, 'error: Static path leaves its folder'],
  ['..%2fsecret.txt', 403, 'error: Static path leaves its folder'],
  ['..%2F..%2F..%2Fsecret.txt', 403, 'error: Static path leaves its folder'],
  ['%2e%2e/secret.txt', 403, 'error: Static path leaves its folder'],
  ['%2e%2e%2fsecret.txt', 403, 'error: Static path leaves its folder'],
  ['%2E%2E%2F%2E%2E%2Fsecret.txt', 403, 'error: Static path leaves its folder'],
  ['.%2e/.%2e/secret.txt', 403, 'error: Static path leaves its folder'],
  ['../.env', 403, 'error: Static path leaves its folder'],
  // decoded exactly once: a double-encoded traversal is a (missing) file literally named %2e%2e
  ['%252e%252e/secret.txt', 404, 'fell-through'],
  ['%252e%252e%252fsecret.txt', 404, 'fell-through'],
  ['..%252fsecret.txt', 404, 'fell-through'],
  ['%25252e%25252e/secret.txt', 404, 'fell-through'],
  // backslashes, raw or encoded
  ['..\\secret.txt', 400, 'error: Static path contains a backslash'],
  ['..\\..\\secret.txt', 400, 'error: Static path contains a backslash'],
  ['..%5csecret.txt', 400, 'error: Static path contains a backslash'],
  ['..%5C..%5Csecret.txt', 400, 'error: Static path contains a backslash'],
  ['sub\\nested.txt', 400, 'error: Static path contains a backslash'],
  // NUL and other control characters
  ['hello.txt%00.png', 400, 'error: Static path contains a backslash or a control character'],
  ['%00', 400, 'error: Static path contains a backslash or a control character'],
  ['..%00/secret.txt', 400, 'error: Static path contains a backslash or a control character'],
  ['hello.txt%0a', 400, 'error: Static path contains a backslash or a control character'],
  ['%09hello.txt', 400, 'error: Static path contains a backslash or a control character'],
  // absolute paths
  ['%2fetc%2fpasswd', 400, 'error: Malicious static path'],
  ['%2Fetc/passwd', 400, 'error: Malicious static path'],
  ['/etc/passwd', 404, 'fell-through'], // the leading slash is stripped: etc/passwd under the root
  ['//etc/passwd', 400, 'error: Malicious static path'],
  // malformed and overlong encodings
  ['%c0%ae%c0%ae/secret.txt', 400, 'error: Static path has malformed percent-encoding'],
  ['%%32%65%%32%65/secret.txt', 400, 'error: Static path has malformed percent-encoding'],
  ['%e0%80%ae%e0%80%ae/secret.txt', 400, 'error: Static path has malformed percent-encoding'],
  // dotfiles are hidden: they fall through to the app's 404
  ['.env', 404, 'fell-through'],
  ['%2eenv', 404, 'fell-through'],
  ['.git/config', 404, 'fell-through'],
  ['.git%2fconfig', 404, 'fell-through'],
  ['sub/../.env', 404, 'fell-through'],
  ['.git/', 404, 'fell-through'],
  ['.', 404, 'fell-through'],
];

describe.each(MOUNTS)('static mount $prefix: path traversal table', ({ prefix }) => {
  it.each(HOSTILE)(`GET ${prefix}/%s → %i`, async (path, status, body) => {
    const res = await raw(`${prefix}/${path}`);
    const text = res.body.toString();
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(res.status).toBe(status);
    expect(text.startsWith(body)).toBe(true);
  });
});

describe.each(MOUNTS)('static mount $prefix: serving', (mount) => {
  const { prefix, dir } = mount;
  const cacheControl = 'maxAge' in mount ? 'max-age=3600,immutable' : 'max-age=0';

  it('serves a file with ETag, Last-Modified, Cache-Control, Content-Type and Content-Length', async () => {
    const res = await raw(`${prefix}/hello.txt`);
    const stats = statSync(join(root, dir, 'hello.txt'));
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe(`hello from ${dir}`);
    expect(res.headers.etag).toBe(`W/"${stats.size.toString(16)}-${stats.mtime.getTime().toString(16)}"`);
    expect(res.headers['last-modified']).toBe(stats.mtime.toUTCString());
    expect(res.headers['cache-control']).toBe(cacheControl);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(stats.size));
  });

  it('answers 304 to If-None-Match and If-Modified-Since, 200 to a stale validator', async () => {
    const first = await raw(`${prefix}/app.css`);
    expect(first.headers['content-type']).toBe('text/css; charset=utf-8');
    const etag = String(first.headers.etag);
    const byEtag = await raw(`${prefix}/app.css`, 'GET', { 'if-none-match': etag });
    expect(byEtag.status).toBe(304);
    expect(byEtag.body.length).toBe(0);
    expect(byEtag.headers.etag).toBe(etag);
    const byDate = await raw(`${prefix}/app.css`, 'GET', { 'if-modified-since': String(first.headers['last-modified']) });
    expect(byDate.status).toBe(304);
    const headByEtag = await raw(`${prefix}/app.css`, 'HEAD', { 'if-none-match': etag });
    expect(headByEtag.status).toBe(304);
    const stale = await raw(`${prefix}/app.css`, 'GET', { 'if-none-match': 'W/"0-0"' });
    expect(stale.status).toBe(200);
    expect(stale.body.toString()).toBe('body{}');
    const old = await raw(`${prefix}/app.css`, 'GET', { 'if-modified-since': new Date(0).toUTCString() });
    expect(old.status).toBe(200);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await raw(`${prefix}/big.bin`, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
    expect(res.headers['content-length']).toBe(String(BIG.length));
    expect(res.headers.etag).toMatch(/^W\/"19000-[0-9a-f]+"$/);
  });

  it('serves a 100 KB file, nested and percent-encoded names, and in-root dot segments', async () => {
    const big = await raw(`${prefix}/big.bin`);
    expect(big.status).toBe(200);
    expect(big.body.equals(BIG)).toBe(true);
    expect((await raw(`${prefix}/sub/nested.txt`)).body.toString()).toBe('nested');
    expect((await raw(`${prefix}/sub/x/../nested.txt`)).body.toString()).toBe('nested');
    expect((await raw(`${prefix}/caf%C3%A9.txt`)).body.toString()).toBe('accent');
  });

  it('falls through on missing files, directories, the bare prefix, other methods and look-alike prefixes', async () => {
    for (const [path, method] of [
      [`${prefix}/missing.txt`, 'GET'],
      [`${prefix}/sub`, 'GET'],
      [`${prefix}/sub/`, 'GET'],
      [`${prefix}/`, 'GET'],
      [prefix, 'GET'],
      [`${prefix}/hello.txt`, 'POST'],
      [`${prefix}/hello.txt`, 'DELETE'],
      [`${prefix}x/hello.txt`, 'GET'],
    ] as const) {
      const res = await raw(path, method);
      expect({ path, method, status: res.status, body: res.body.toString() }).toEqual({
        path,
        method,
        status: 404,
        body: 'fell-through',
      });
    }
  });
});

// A file's headers are kept per file, and a small file's bytes once it has settled (its last
// change more than a couple of seconds old): every request stats the file and must see any change.
// The clock runs ten seconds ahead so files written here count as settled and are kept.
describe('kept files see changes on disk', () => {
  const dir = () => join(root, 'fluid/static');
  const body = async (name: string): Promise<[number, string]> => {
    const res = await raw(`/static/${name}`);
    return [res.status, res.body.toString()];
  };
  const ahead = () => vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 10_000 });
  /** Writes a file, lets the clock run ahead and fetches it once, so its bytes are kept. */
  const kept = async (name: string, content: string): Promise<string> => {
    const file = join(dir(), name);
    writeFileSync(file, content);
    ahead();
    expect(await body(name)).toEqual([200, content]);
    return file;
  };
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a same-size rewrite with the old mtime, a rename over it, a resize: each is served fresh', async () => {
    const file = join(dir(), 'kept.txt');
    writeFileSync(file, 'AAAA');
    const { mtime } = statSync(file);
    ahead();
    expect(await body('kept.txt')).toEqual([200, 'AAAA']);
    expect(await body('kept.txt')).toEqual([200, 'AAAA']);
    // Same size, mtime put back: only the ctime tells.
    writeFileSync(file, 'BBBB');
    utimesSync(file, mtime, mtime);
    expect(await body('kept.txt')).toEqual([200, 'BBBB']);
    // A new file renamed over it with the same size and mtime: only the inode tells.
    writeFileSync(`${file}.tmp`, 'CCCC');
    utimesSync(`${file}.tmp`, mtime, mtime);
    renameSync(`${file}.tmp`, file);
    expect(await body('kept.txt')).toEqual([200, 'CCCC']);
    writeFileSync(file, 'DDDDDDDD');
    const res = await raw('/static/kept.txt');
    expect(res.body.toString()).toBe('DDDDDDDD');
    expect(res.headers['content-length']).toBe('8');
    expect(res.headers.etag).toBe(`W/"8-${statSync(file).mtime.getTime().toString(16)}"`);
  });

  it('a deleted file falls through to 404, and is served again once it is back', async () => {
    const file = await kept('gone.txt', 'here');
    unlinkSync(file);
    expect(await body('gone.txt')).toEqual([404, 'fell-through']);
    writeFileSync(file, 'back');
    expect(await body('gone.txt')).toEqual([200, 'back']);
  });

  it('a file replaced by a folder falls through; one grown past the kept size is streamed whole', async () => {
    const file = await kept('shape.txt', 'small');
    rmSync(file);
    mkdirSync(file);
    expect(await body('shape.txt')).toEqual([404, 'fell-through']);
    rmSync(file, { recursive: true });
    const large = Buffer.alloc(300 * 1024, 'y');
    writeFileSync(file, large);
    const first = await raw('/static/shape.txt');
    expect(first.body.equals(large)).toBe(true);
    expect(first.headers['content-length']).toBe(String(large.length));
    const again = await raw('/static/shape.txt', 'GET', { 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    writeFileSync(file, 'small again');
    expect(await body('shape.txt')).toEqual([200, 'small again']);
  });

  it('a changed file no longer answers 304 to the old validator', async () => {
    const file = join(dir(), 'etag.txt');
    writeFileSync(file, 'one');
    utimesSync(file, new Date(1_000_000), new Date(1_000_000));
    ahead();
    const first = await raw('/static/etag.txt');
    expect((await raw('/static/etag.txt', 'GET', { 'if-none-match': String(first.headers.etag) })).status).toBe(304);
    writeFileSync(file, 'two');
    const changed = await raw('/static/etag.txt', 'GET', { 'if-none-match': String(first.headers.etag) });
    expect(changed.status).toBe(200);
    expect(changed.body.toString()).toBe('two');
  });
});

describe('serveStatic arguments', () => {
  it.each(['static', '/static/', '', '/'])('rejects the prefix %j', (prefix) => {
    expect(() => serveStatic(prefix, root)).toThrow(FrameworkException);
    expect(() => serveStatic(prefix, root)).toThrow(/prefix must start with '\/'/);
  });

  it('rejects a negative maxAge', () => {
    expect(() => serveStatic('/static', root, { maxAge: -1 })).toThrow(/maxAge must be a number of seconds >= 0/);
  });
});
