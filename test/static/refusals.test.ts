/**
 * A refused static path (403 "Static path leaves its folder", code STATIC_PATH_OUTSIDE; 400 for a
 * bad encoding, a backslash or an absolute path, code INVALID_STATIC_PATH) is answered as every
 * other kernel refusal: the styled page `errors/<status>.html` for a browser (debug or not),
 * `{"error","code"}` for a JSON client. Real HTTP, raw request paths (fetch would
 * resolve the `..` itself).
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fluid } from '@fw/kernel';
import { cleanupProjects, makeFluid, start } from '../kernel/helpers.js';

let base: URL;

afterAll(() => cleanupProjects());

/** GET `path` exactly as written, with `accept`. */
function get(path: string, accept: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    request({ host: base.hostname, port: base.port, path, headers: { accept } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body }));
    })
      .on('error', reject)
      .end();
  });
}

const REFUSED = [
  ['/static/../secret.txt', 403, 'Static path leaves its folder', 'STATIC_PATH_OUTSIDE'],
  ['/static/%2e%2e/secret.txt', 403, 'Static path leaves its folder', 'STATIC_PATH_OUTSIDE'],
  ['/fluid/static/..%2f..%2fpackage.json', 403, 'Static path leaves its folder', 'STATIC_PATH_OUTSIDE'],
  ['/static/%E0%A4%A', 400, 'Static path has malformed percent-encoding', 'INVALID_STATIC_PATH'],
  ['/static/..%5csecret.txt', 400, 'Static path contains a backslash or a control character', 'INVALID_STATIC_PATH'],
  ['/static/%2fetc%2fpasswd', 400, 'Malicious static path', 'INVALID_STATIC_PATH'],
] as const;

describe.each([
  ['production', { APP_FRONTEND: { type: 'htmx', alpine: true } }],
  ['DEBUG', { DEBUG: true, APP_FRONTEND: { type: 'htmx', alpine: true } }],
])('static refusals (%s)', (_mode, config) => {
  let fluid: Fluid;
  beforeAll(async () => {
    fluid = makeFluid({ config, files: { 'fluid/static/hello.txt': 'hello', 'secret.txt': 'OUTSIDE-SECRET' } });
    base = new URL(await start(fluid));
  });
  afterAll(() => fluid.close());

  it('serve the file itself to both kinds of client', async () => {
    for (const accept of ['text/html', 'application/json']) expect(await get('/static/hello.txt', accept)).toMatchObject({ status: 200, body: 'hello' });
  });

  it.each(REFUSED)('%s: a browser gets the styled %i page', async (path, status, message) => {
    const res = await get(path, 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8');
    expect(res.status).toBe(status);
    expect(res.type).toBe('text/html; charset=utf-8');
    expect(res.body).toMatch(/^<!doctype html>/i);
    expect(res.body).toContain(message);
    expect(res.body).not.toContain('OUTSIDE-SECRET');
  });

  it.each(REFUSED)('%s: a JSON client gets {"error","code"} with %i', async (path, status, message, code) => {
    const res = await get(path, 'application/json');
    expect(res.status).toBe(status);
    expect(res.type).toMatch(/^application\/json/);
    expect(JSON.parse(res.body)).toEqual({ error: message, code });
  });
});
