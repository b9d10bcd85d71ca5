/**
 * Logging: the request log (one line per request with its id, `X-Request-Id`), which errors are
 * logged with their stack (not a 503 answer during a known outage), and the default logger's
 * formats (pino JSON lines, readable text) in a real process.
 */
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpError, type Fluid } from '@fw/kernel';
import { createLogger } from '@fw/kernel/core';
import { cleanupProjects, makeFluid, makeProject, memoryLogger, start } from '../kernel/helpers.js';
import { REPO_ROOT } from '../support/prisma.js';

const fluids: Fluid[] = [];
/** Releases the requests `/hang` holds. */
const hanging: (() => void)[] = [];
/** The bodies `/download` streams. */
const streams: Readable[] = [];
afterAll(async () => {
  await Promise.all(fluids.map((f) => f.close()));
  cleanupProjects();
});

async function app(config: Record<string, unknown> = {}): Promise<{ base: string; lines: string[] }> {
  const logger = memoryLogger();
  const fluid = makeFluid({ config }, { logger });
  fluid.app.get('hello', '/', () => 'hello');
  fluid.app.get('boom', '/boom', () => {
    throw new Error('kaboom');
  });
  fluid.app.get('away', '/away', () => {
    throw new HttpError(503, 'Service Unavailable', { code: 'CACHE_UNAVAILABLE' });
  });
  fluid.app.get('hang', '/hang', () => new Promise<string>((resolve) => hanging.push(() => resolve('late'))));
  // A download that has started: headers and a first chunk sent, the rest never comes.
  fluid.app.get('download', '/download', (ctx) => {
    const body = new Readable({ read() {} });
    body.push('x'.repeat(64 * 1024));
    streams.push(body);
    ctx.type = 'application/octet-stream';
    ctx.body = body;
  });
  fluids.push(fluid);
  return { base: await start(fluid), lines: logger.lines };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('the request log', () => {
  it('one line per request after it was sent, with the id it answered as X-Request-Id, the path without its query', async () => {
    const { base, lines } = await app();
    const res = await fetch(`${base}/?token=secret-in-the-query`);
    await res.text();
    const id = res.headers.get('x-request-id')!;
    expect(id).toMatch(UUID);
    await expect.poll(() => lines.filter((l) => l.startsWith('info GET / 200'))).toHaveLength(1);
    const line = lines.find((l) => l.startsWith('info GET / 200'))!;
    expect(JSON.parse(line.slice('info GET / 200 '.length))).toEqual({ requestId: id, ms: expect.any(Number) });
    expect(lines.join('\n')).not.toContain('secret-in-the-query');
  });

  it('a 500 is a warn line (and the error its stack); a 503 answer is a warn line and nothing else; probes are not logged', async () => {
    const { base, lines } = await app();
    expect((await fetch(`${base}/boom`)).status).toBe(500);
    expect((await fetch(`${base}/away`)).status).toBe(503);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    await expect.poll(() => lines.filter((l) => l.startsWith('warn GET /'))).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('error request failed'))).toHaveLength(1);
    expect(lines.find((l) => l.startsWith('error request failed'))).toContain('kaboom');
    expect(lines.filter((l) => l.includes('/healthz'))).toEqual([]);
  });

  it("in debug, live reload's script and event stream are not logged; the page that loads them is", async () => {
    const { base, lines } = await app({ DEBUG: true });
    const page = await fetch(`${base}/`);
    expect(await page.text()).toBe('hello');
    const script = await fetch(`${base}/fluid/dev/reload.js`);
    expect(script.status).toBe(200);
    await script.text();
    const events = new AbortController();
    const stream = await fetch(`${base}/fluid/dev/events`, { signal: events.signal });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    events.abort(); // a page view ends: the browser leaves the stream
    await expect.poll(() => lines.filter((l) => l.startsWith('info GET / 200'))).toHaveLength(1);
    await fluids.at(-1)!.close(); // every line is written by now
    expect(lines.filter((l) => l.includes('/fluid/dev/'))).toEqual([]);
  });

  it("the error line of a 500 carries the request's id, the one answered as X-Request-Id", async () => {
    const { base, lines } = await app();
    const res = await fetch(`${base}/boom`);
    expect(res.status).toBe(500);
    const id = res.headers.get('x-request-id')!;
    expect(id).toMatch(UUID);
    const failed = lines.find((l) => l.startsWith('error request failed '))!;
    expect(JSON.parse(failed.slice('error request failed '.length))).toMatchObject({ method: 'GET', path: '/boom', requestId: id, error: 'kaboom' });
  });

  it('a client that leaves before the answer gives one "aborted" line', async () => {
    const { base, lines } = await app();
    const url = new URL(base);
    const socket = connect(Number(url.port), url.hostname, () => socket.write('GET /hang HTTP/1.1\r\nHost: x\r\n\r\n'));
    socket.on('error', () => undefined);
    await expect.poll(() => hanging.length).toBe(1);
    socket.destroy();
    await expect.poll(() => lines.filter((l) => l.startsWith('info GET /hang aborted'))).toHaveLength(1);
    hanging.splice(0).forEach((release) => release());
    expect(lines.filter((l) => l.includes('/hang'))).toHaveLength(1);
  });

  it.each([
    ['resets the connection (ECONNRESET)', (socket: Socket) => socket.resetAndDestroy()],
    ['closes the connection (FIN), as a browser leaving a page with a live-reload stream does', (socket: Socket) => socket.end()],
  ])('a client that %s in the middle of a streamed answer gives one "aborted" line and no error', async (_how, leave) => {
    const { base, lines } = await app();
    const url = new URL(base);
    const socket = connect(Number(url.port), url.hostname, () => socket.write('GET /download HTTP/1.1\r\nHost: x\r\n\r\n'));
    socket.on('error', () => undefined);
    await once(socket, 'data'); // the headers and the first chunk arrived
    const body = streams.at(-1)!;
    body.on('error', () => undefined); // destroyed with "Premature close" when the client leaves
    const closed = new Promise((resolve) => body.once('close', resolve));
    leave(socket);
    await closed;
    await expect.poll(() => lines.filter((l) => l.startsWith('info GET /download aborted'))).toHaveLength(1);
    // Koa reports the broken pipe once both ends are closed, a few turns of the loop later.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(lines.filter((l) => l.startsWith('error'))).toEqual([]);
  });

  it('a streamed answer that breaks on the server side is still an error line', async () => {
    const { base, lines } = await app();
    const res = await fetch(`${base}/download`);
    const reader = res.body!.getReader();
    await reader.read(); // the first chunk arrived; now the body ends without its end
    streams.at(-1)!.destroy();
    await expect(async () => {
      for (;;) if ((await reader.read()).done) break;
    }).rejects.toThrow();
    await expect.poll(() => lines.filter((l) => l.startsWith('error response failed'))).toContain('error response failed {"error":"Premature close"}');
  });

  it('an incoming X-Request-Id is kept only from a trusted proxy, and only when well-formed', async () => {
    const untrusted = await app();
    expect((await fetch(`${untrusted.base}/`, { headers: { 'X-Request-Id': 'edge-1234' } })).headers.get('x-request-id')).toMatch(UUID);
    const trusted = await app({ PROXY_FIX: true, PROXY_TRUSTED_HOSTS: ['loopback'] });
    expect((await fetch(`${trusted.base}/`, { headers: { 'X-Request-Id': 'edge-1234' } })).headers.get('x-request-id')).toBe('edge-1234');
    expect((await fetch(`${trusted.base}/`, { headers: { 'X-Request-Id': 'bad id\u00e9' } })).headers.get('x-request-id')).toMatch(UUID);
  });

  it('FW_LOG_REQUESTS=false: no line, no header', async () => {
    const { base, lines } = await app({ FW_LOG_REQUESTS: false });
    const res = await fetch(`${base}/`);
    expect(res.headers.get('x-request-id')).toBeNull();
    await res.text();
    expect(lines).toEqual([]);
  });
});

describe('the default logger in a real process', () => {
  const run = (format: string): string[] => {
    const script = `import { createLogger } from ${JSON.stringify(join(REPO_ROOT, 'runtime-kernel/src/core/logger.ts'))};
const log = createLogger({ level: 'info', format: ${JSON.stringify(format)} });
log.debug('not shown');
log.info('cache: Redis available again', { url: 'redis://127.0.0.1:6379/0' });
log.error('request failed', { error: new Error('kaboom') });`;
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    return result.stderr.trim().split('\n');
  };

  it('json: pino, one JSON object per line on stderr, an error field with its stack', () => {
    const [info, error, ...rest] = run('json').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rest).toEqual([]);
    expect(info).toMatchObject({ level: 30, msg: 'cache: Redis available again', url: 'redis://127.0.0.1:6379/0', pid: expect.any(Number), time: expect.any(Number) });
    expect(error).toMatchObject({ level: 50, msg: 'request failed', error: { type: 'Error', message: 'kaboom', stack: expect.stringContaining('Error: kaboom') } });
  });

  it('json: an error with a cause keeps its own message, and the cause is a field of its own', () => {
    const script = `import { createLogger } from ${JSON.stringify(join(REPO_ROOT, 'runtime-kernel/src/core/logger.ts'))};
const refused = new Error('connect ECONNREFUSED 127.0.0.1:25');
createLogger({ level: 'info', format: 'json' }).error('mail not sent', { error: new Error('the mail server refused: connect ECONNREFUSED 127.0.0.1:25', { cause: refused }) });`;
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    const { error } = JSON.parse(result.stderr) as { error: Record<string, unknown> };
    expect(error).toMatchObject({ message: 'the mail server refused: connect ECONNREFUSED 127.0.0.1:25', cause: { message: 'connect ECONNREFUSED 127.0.0.1:25' } });
  });

  it('json: a burst of lines logged just before process.exit() all reach the pipe, whole and in order', () => {
    const script = `import { createLogger } from ${JSON.stringify(join(REPO_ROOT, 'runtime-kernel/src/core/logger.ts'))};
const log = createLogger({ level: 'info', format: 'json' });
for (let i = 0; i < 5000; i++) log.info('line ' + i, { i, pad: 'x'.repeat(200) });
process.exit(3);`;
    // 5,000 lines of ~300 bytes overflow a 64 KiB pipe buffer several times over before the exit.
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(result.status).toBe(3);
    const numbers = result.stderr
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { i: number }).i);
    expect(numbers).toEqual(Array.from({ length: 5000 }, (_, i) => i));
  });

  it('json: a record of plain fields is written without pino, byte for byte as pino writes it', () => {
    // The same records through createLogger (stderr) and through pino itself (stdout); only the
    // time may differ.
    const records = [
      ['GET /hello 200', { requestId: 'dffceef0-3f57-46b5-aa51-011b5367f15a', ms: 5.97 }],
      ['quotes " and \\\\ and a tab\\t and é ✓', { n: -0.5, big: 1e21, nan: Number.NaN, inf: Infinity, yes: true, no: false, skipped: undefined }],
      ['', { 'a "key"': 'line\\nbreak', control: '\\u0001' }],
      ['no fields', undefined],
      ['nested', { cause: { code: 'E' } }],
    ];
    const script = `import pino from 'pino';
import { createLogger } from ${JSON.stringify(join(REPO_ROOT, 'runtime-kernel/src/core/logger.ts'))};
const records = [${records.map(([message, fields]) => `[${JSON.stringify(message)}, ${fields === undefined ? 'undefined' : objectLiteral(fields as Record<string, unknown>)}]`).join(', ')}];
const ours = createLogger({ level: 'info', format: 'json' });
const theirs = pino({ level: 'info' }, pino.destination({ fd: 1, sync: true }));
for (const [message, fields] of records) {
  for (const log of [ours, null]) {
    if (log) log.warn(message, fields);
    else if (fields) theirs.warn(fields, message);
    else theirs.warn(message);
  }
}`;
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    const untimed = (out: string): string[] => out.trim().split('\n').map((l) => l.replace(/"time":\d+/, '"time":0'));
    const ours = untimed(result.stderr);
    expect(ours).toHaveLength(records.length);
    expect(ours).toEqual(untimed(result.stdout));
    expect(JSON.parse(ours[1]!)).toMatchObject({ level: 40, n: -0.5, nan: null, inf: null, yes: true, no: false });
  });

  it('FW_LOG_LEVEL in the environment sets the level of the app\'s logger (FW_LOG_LEVEL=warn npm start)', () => {
    const script = `import { Fluid } from ${JSON.stringify(join(REPO_ROOT, 'runtime-kernel/src/index.ts'))};
const fluid = new Fluid({ root: ${JSON.stringify(makeProject())} });
fluid.logger.info('routine');
fluid.logger.warn('worth a look');`;
    const logged = (level?: string): string[] => {
      const env = { ...process.env, FW_LOG_FORMAT: 'text', FW_LOG_LEVEL: level };
      const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8', env });
      expect(result.status, result.stderr).toBe(0);
      return result.stderr.trim().split('\n');
    };
    expect(logged('warn')).toEqual(['warn worth a look']);
    expect(logged(undefined)).toEqual(['info routine', 'warn worth a look']);
  });

  it('text: a stack field is printed below its record, one frame per line', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'info', format: 'text', write: (line) => lines.push(line) });
    log.error('request failed', { path: '/boom', stack: 'Error: kaboom\n    at handler (fluid/app.ts:3:9)' });
    expect(lines).toEqual(['error request failed {"path":"/boom"}\n  Error: kaboom\n      at handler (fluid/app.ts:3:9)']);
  });

  it('text: a 500 keeps its error\'s cause chain (the stack alone does not show it)', async () => {
    const lines: string[] = [];
    const fluid = makeFluid({}, { logger: createLogger({ level: 'info', format: 'text', write: (line) => lines.push(line) }) });
    fluids.push(fluid);
    fluid.app.get('boom', '/boom', () => {
      throw new Error('charge failed', { cause: new Error('card declined', { cause: new TypeError('amount is not a number') }) });
    });
    expect((await fetch(`${await start(fluid)}/boom`)).status).toBe(500);
    const failed = lines.find((l) => l.startsWith('error request failed '));
    expect(failed?.split('\n')[0]).toContain(
      '"error":{"name":"Error","message":"charge failed","cause":{"name":"Error","message":"card declined","cause":{"name":"TypeError","message":"amount is not a number"}}}',
    );
  });

  it('text: a cause that loops is cut, never the whole record', () => {
    const lines: string[] = [];
    const looped = new Error('a');
    looped.cause = looped;
    createLogger({ level: 'info', format: 'text', write: (line) => lines.push(line) }).error('request failed', { error: looped });
    expect(lines[0]).toMatch(/^error request failed \{"error":\{"name":"Error","message":"a","cause":\{"name":"Error","message":"a","cause":/);
  });

  it('text: one readable line per record', () => {
    expect(run('text')).toEqual(['info cache: Redis available again {"url":"redis://127.0.0.1:6379/0"}', 'error request failed {"error":{"name":"Error","message":"kaboom"}}']);
  });
});

/** `fields` as JavaScript source, keeping what JSON cannot say (NaN, Infinity, undefined). */
function objectLiteral(fields: Record<string, unknown>): string {
  const value = (v: unknown): string =>
    v === undefined ? 'undefined' : typeof v === 'number' && !Number.isFinite(v) ? String(v) : typeof v === 'object' && v !== null ? objectLiteral(v as Record<string, unknown>) : JSON.stringify(v);
  return `{ ${Object.entries(fields).map(([k, v]) => `${JSON.stringify(k)}: ${value(v)}`).join(', ')} }`;
}
