/**
 * A response body that cannot be turned into JSON (nested past the stack, a cycle, a BigInt) is a
 * server error answered like any other, over real HTTP: the JSON error for a JSON client, the
 * styled 500 page for a browser, with the request id and the security headers, and the stack in
 * the log; before, Koa answered a bare text/plain 500 without the app's headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fluid } from '@fw/kernel';
import { bodyLimit } from '@fw/kernel/body';
import { cleanupProjects, makeFluid, memoryLogger, start } from './helpers.js';

const DEPTH = 100_000;
const logger = memoryLogger();
let fluid: Fluid;
let base: string;

beforeAll(async () => {
  fluid = makeFluid({}, { logger });
  fluid.api.post('echo', '/echo', bodyLimit({ json: 2 * DEPTH + 10 }), (ctx) => ({ echo: ctx.request.body }));
  fluid.api.get('cycle', '/cycle', () => {
    const node: Record<string, unknown> = { name: 'loop' };
    node.self = node;
    return node;
  });
  fluid.app.get('big', '/big', () => ({ n: 10n }));
  fluid.api.get('fine', '/fine', (ctx) => {
    ctx.status = 201;
    return { ok: true, list: [1, 2, 3] };
  });
  base = await start(fluid);
});
afterAll(async () => {
  await fluid?.close();
  cleanupProjects();
});

const JSON_CLIENT = { accept: 'application/json' };
const deep = '['.repeat(DEPTH) + ']'.repeat(DEPTH);

function expectAppHeaders(res: Response): void {
  expect(res.headers.get('x-request-id')).toMatch(/^\S+$/);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('content-security-policy')).toBeTruthy();
}

describe('a body that does not serialise', () => {
  it('a 100k-deep array echoed back: 500 as JSON with the request id, logged with its stack; the app keeps serving', async () => {
    const res = await fetch(`${base}/api/echo`, { method: 'POST', headers: { ...JSON_CLIENT, 'content-type': 'application/json' }, body: deep });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ error: 'Internal Server Error' });
    expectAppHeaders(res);
    const id = res.headers.get('x-request-id')!;
    const line = logger.lines.find((l) => l.includes('request failed') && l.includes(id));
    expect(line, logger.lines.join('\n')).toBeDefined();
    expect(line).toContain('RangeError');
    expect((await fetch(`${base}/api/fine`, { headers: JSON_CLIENT })).status).toBe(201);
  });

  it('a cycle: 500 JSON for a JSON client, the styled 500 page for a browser', async () => {
    const json = await fetch(`${base}/api/cycle`, { headers: JSON_CLIENT });
    expect(json.status).toBe(500);
    expect(await json.json()).toEqual({ error: 'Internal Server Error' });
    expectAppHeaders(json);
    const page = await fetch(`${base}/big`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(500);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<p class="fw-status">500</p>');
    expectAppHeaders(page);
  });

  it('a body that serialises is unchanged: status, type, length and text', async () => {
    const res = await fetch(`${base}/api/fine`, { headers: JSON_CLIENT });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await res.text();
    expect(text).toBe('{"ok":true,"list":[1,2,3]}');
    expect(res.headers.get('content-length')).toBe(String(text.length));
    const head = await fetch(`${base}/api/fine`, { method: 'HEAD', headers: JSON_CLIENT });
    expect(head.headers.get('content-length')).toBe(String(text.length));
  });
});
