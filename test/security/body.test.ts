/**
 * Request bodies over real HTTP: JSON, form and text parsed with their limits (exactly the limit
 * passes, one byte more is 413 as JSON or the styled page), compressed bodies bounded after
 * inflating, malformed JSON 400, safe methods never read, a raw route streaming past every limit,
 * per-route limits, a request bound for 405 left unread, and the parser switched off.
 */
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fluid } from '@fw/kernel';
import { bodyLimit, rawBody } from '@fw/kernel/body';
import { cleanupProjects, makeFluid, start } from '../kernel/helpers.js';

const LIMITS = { BODY_JSON_LIMIT: 2048, BODY_FORM_LIMIT: 1024, BODY_TEXT_LIMIT: 512 };
let fluid: Fluid;
let base: string;

beforeAll(async () => {
  fluid = makeFluid({ config: LIMITS });
  const echo = (ctx: { request: { body?: unknown } }) => ({ body: ctx.request.body ?? null });
  fluid.app.post('page-echo', '/echo', echo);
  fluid.api.post('echo', '/echo', echo);
  fluid.api.put('put', '/put', echo);
  fluid.api.delete('remove', '/remove', echo);
  fluid.api.get('peek', '/peek', echo);
  fluid.api.post('upload', '/upload', rawBody, async (ctx) => {
    let bytes = 0;
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) bytes += chunk.length;
    return { bytes, parsed: ctx.request.body ?? null };
  });
  fluid.api.post('big', '/big', bodyLimit({ json: 10_000 }), echo);
  base = await start(fluid);
});
afterAll(async () => {
  await fluid?.close();
  cleanupProjects();
});

/** A JSON document of exactly `size` bytes: {"pad":"xxx…"}. */
const jsonOf = (size: number): string => JSON.stringify({ pad: 'x'.repeat(size - '{"pad":""}'.length) });
/** An urlencoded form of exactly `size` bytes. */
const formOf = (size: number): string => `pad=${'y'.repeat(size - 4)}`;

const post = (path: string, type: string, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) =>
  fetch(base + path, { method: 'POST', headers: { 'Content-Type': type, Accept: 'application/json', ...headers }, body });

describe('limits', () => {
  it.each([
    ['JSON', 'application/json', jsonOf, LIMITS.BODY_JSON_LIMIT],
    ['form', 'application/x-www-form-urlencoded', formOf, LIMITS.BODY_FORM_LIMIT],
    ['text', 'text/plain; charset=utf-8', (n: number) => 'z'.repeat(n), LIMITS.BODY_TEXT_LIMIT],
  ] as const)('%s: exactly the limit is parsed, one byte more is 413 BODY_TOO_LARGE', async (_kind, type, make, limit) => {
    const exact = make(limit);
    expect(Buffer.byteLength(exact)).toBe(limit);
    const ok = await post('/api/echo', type, exact);
    expect(ok.status).toBe(200);
    const { body } = (await ok.json()) as { body: unknown };
    expect(typeof body === 'string' ? body.length : JSON.stringify(body).length).toBeGreaterThan(limit - 20);
    const over = await post('/api/echo', type, make(limit + 1));
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ error: `Request body too large (${limit} bytes at most)`, code: 'BODY_TOO_LARGE' });
  });

  it('a body sent without Content-Length (chunked) is cut at the limit too', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${base}/api/echo`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write(jsonOf(LIMITS.BODY_JSON_LIMIT).slice(0, 1000));
      req.end(jsonOf(LIMITS.BODY_JSON_LIMIT).slice(1000) + ' ');
    });
    expect(status).toBe(413);
  });

  it('a gzip body small on the wire but over the limit once inflated is 413', async () => {
    const bomb = new Uint8Array(gzipSync(jsonOf(LIMITS.BODY_JSON_LIMIT * 50)));
    expect(bomb.length).toBeLessThan(LIMITS.BODY_JSON_LIMIT);
    const res = await post('/api/echo', 'application/json', bomb, { 'Content-Encoding': 'gzip' });
    expect(res.status).toBe(413);
    const fine = await post('/api/echo', 'application/json', new Uint8Array(gzipSync(JSON.stringify({ a: 1 }))), { 'Content-Encoding': 'gzip' });
    expect(await fine.json()).toEqual({ body: { a: 1 } });
  });

  it('an HTML client gets the styled 413 page', async () => {
    const res = await fetch(`${base}/echo`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'text/html' }, body: jsonOf(LIMITS.BODY_JSON_LIMIT + 1) });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('<p class="fw-status">413</p>');
  });

  it('bodyLimit() raises one route\'s limit; the others keep theirs', async () => {
    expect((await post('/api/big', 'application/json', jsonOf(9_000))).status).toBe(200);
    expect((await post('/api/big', 'application/json', jsonOf(10_001))).status).toBe(413);
    expect((await post('/api/echo', 'application/json', jsonOf(9_000))).status).toBe(413);
    expect(() => bodyLimit({ json: 0 })).toThrow(/bodyLimit\(\{ json \}\): a whole number of bytes >= 1, got 0/);
  });
});

describe('parsing', () => {
  it('JSON, forms and text reach the handler; PUT and DELETE too', async () => {
    expect(await (await post('/api/echo', 'application/json', '{"a":[1,2]}')).json()).toEqual({ body: { a: [1, 2] } });
    expect(await (await post('/api/echo', 'application/x-www-form-urlencoded', 'a=1&b=two')).json()).toEqual({ body: { a: '1', b: 'two' } });
    expect(await (await post('/api/echo', 'text/plain', 'hello')).json()).toEqual({ body: 'hello' });
    const put = await fetch(`${base}/api/put`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: '{"p":1}' });
    expect(await put.json()).toEqual({ body: { p: 1 } });
    const del = await fetch(`${base}/api/remove`, { method: 'DELETE', headers: { 'Content-Type': 'application/json' }, body: '{"d":1}' });
    expect(await del.json()).toEqual({ body: { d: 1 } });
  });

  it('a compressed body that does not inflate (corrupt, cut short, not compressed at all) is 400 INVALID_BODY, not 500', async () => {
    const whole = gzipSync(JSON.stringify({ a: 1 }));
    const bodies: [string, Uint8Array<ArrayBuffer>][] = [
      ['gzip', new Uint8Array(Buffer.from('not gzip at all'))],
      ['gzip', new Uint8Array(whole.subarray(0, whole.length - 6))],
      ['deflate', new Uint8Array(Buffer.from('garbage'))],
      ['br', new Uint8Array(Buffer.from('these bytes are not a brotli stream'))],
    ];
    for (const [encoding, body] of bodies) {
      const res = await post('/api/echo', 'application/json', body, { 'Content-Encoding': encoding });
      expect(res.status, encoding).toBe(400);
      expect(await res.json()).toEqual({ error: 'Malformed request body', code: 'INVALID_BODY' });
    }
  });

  it('malformed JSON is 400 INVALID_BODY, without echoing the parser', async () => {
    const res = await post('/api/echo', 'application/json', '{"a": nope}');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'Malformed request body', code: 'INVALID_BODY' });
  });

  it('a charset other than UTF-8 is 415 UNSUPPORTED_BODY, not text decoded wrongly; utf-8 in any spelling and us-ascii are read', async () => {
    const refused: [string, Uint8Array<ArrayBuffer>][] = [
      ['application/x-www-form-urlencoded; charset=iso-8859-1', new Uint8Array(Buffer.from('name=caf\xe9', 'latin1'))],
      ['text/plain; charset=utf-16le', new Uint8Array(Buffer.from('café', 'utf16le'))],
      ['application/json; charset=windows-1252', new Uint8Array(Buffer.from('{"a":"caf\xe9"}', 'latin1'))],
      ['application/vnd.api+json; charset=bogus', new Uint8Array(Buffer.from('{"a":1}'))],
    ];
    for (const [type, body] of refused) {
      const res = await post('/api/echo', type, body);
      expect(res.status, type).toBe(415);
      expect(await res.json()).toEqual({ error: 'Unsupported body encoding or charset', code: 'UNSUPPORTED_BODY' });
    }
    for (const type of ['application/json; charset=UTF-8', 'application/json; charset="utf8"', 'application/json; charset=us-ascii']) {
      expect(await (await post('/api/echo', type, '{"a":"café"}')).json(), type).toEqual({ body: { a: 'café' } });
    }
    // A type the parser leaves alone keeps its charset for the handler.
    const binary = await post('/api/upload', 'application/octet-stream; charset=iso-8859-1', new Uint8Array(3));
    expect(await binary.json()).toEqual({ bytes: 3, parsed: null });
  });

  it('a form cannot pollute prototypes', async () => {
    const res = await post('/api/echo', 'application/x-www-form-urlencoded', '__proto__[admin]=1&constructor[prototype][admin]=1&ok=1');
    expect(await res.json()).toEqual({ body: { ok: '1' } });
    expect(({} as { admin?: unknown }).admin).toBeUndefined();
  });

  it('a GET is never read (its body is left alone); other content types stay unread for the handler', async () => {
    const peek = await new Promise<string>((resolve, reject) => {
      const req = request(`${base}/api/peek`, { method: 'GET', headers: { 'Content-Type': 'application/json', 'Content-Length': '7' } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.end('{"a":1}');
    });
    expect(JSON.parse(peek)).toEqual({ body: null });
    const binary = await post('/api/upload', 'application/octet-stream', new Uint8Array(100).fill(1));
    expect(await binary.json()).toEqual({ bytes: 100, parsed: null });
  });

  it('a route that does not take the method answers 405 with Allow, whatever the body: never 413, 400 or 415', async () => {
    const cases: [string, string][] = [
      ['application/json', jsonOf(LIMITS.BODY_JSON_LIMIT * 50)],
      ['application/json', '{'],
      ['application/x-www-form-urlencoded', formOf(LIMITS.BODY_FORM_LIMIT + 1)],
      ['text/plain; charset=latin1', 'z'],
    ];
    for (const [type, body] of cases) {
      const res = await fetch(`${base}/api/put`, { method: 'PATCH', headers: { 'Content-Type': type, Accept: 'application/json' }, body });
      expect([res.status, res.headers.get('allow')], type).toEqual([405, 'PUT']);
    }
    // The same bodies still meet the parser on the route's own method.
    const put = await fetch(`${base}/api/put`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: '{' });
    expect(put.status).toBe(400);
  });

  it('a rawBody route streams a body far over every limit, unparsed', async () => {
    const big = jsonOf(LIMITS.BODY_JSON_LIMIT * 100);
    const res = await post('/api/upload', 'application/json', big);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ bytes: big.length, parsed: null });
  });
});

describe('BODY_PARSER off', () => {
  it('leaves bodies unread (the handler may read them)', async () => {
    const off = makeFluid({ config: { BODY_PARSER: false } });
    off.api.post('echo', '/echo', async (ctx) => {
      let text = '';
      for await (const chunk of ctx.req as AsyncIterable<Buffer>) text += String(chunk);
      return { parsed: ctx.request.body ?? null, text };
    });
    try {
      const url = await start(off);
      const res = await fetch(`${url}/api/echo`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"a":1}' });
      expect(await res.json()).toEqual({ parsed: null, text: '{"a":1}' });
    } finally {
      await off.close();
    }
  });
});
