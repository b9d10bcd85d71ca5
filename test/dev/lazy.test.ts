/**
 * Nothing of the dev loop loads in production: an app with DEBUG off serves a page and a failing
 * route without ever importing the live-reload module or the debug error page (observed with a
 * resolve hook in a fresh Node process, not assumed); with DEBUG on, the same requests load both.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { REPO } from './helpers.js';

const DEV_MODULES = ['frontend/live-reload', 'core/errors/debug-page', 'core/errors/stack'];

const SCRIPT = `
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
const { port1, port2 } = new MessageChannel();
const seen = new Set();
port1.on('message', (s) => seen.add(s));
port1.unref();
const watched = ${JSON.stringify(DEV_MODULES)};
const hooks = 'let port, watched; export function initialize(d) { port = d.port; watched = d.watched; }' +
  'export async function resolve(s, c, next) { const r = await next(s, c); const hit = watched.find((w) => r.url.includes("/src/" + w + ".")); if (hit) port.postMessage(hit); return r; }';
register('data:text/javascript,' + encodeURIComponent(hooks), { parentURL: import.meta.url, data: { port: port2, watched }, transferList: [port2] });
const { Fluid } = await import(process.argv[2]);
const root = mkdtempSync(join(tmpdir(), 'fw-lazy-dev-'));
writeFileSync(join(root, 'fw.json'), JSON.stringify({ name: 'demo', config: { DEBUG: process.argv[3] === 'debug' } }));
const fluid = new Fluid({ root, env: { SECRET_KEY: 'lazy-test' }, logger: { debug() {}, info() {}, warn() {}, error() {} } });
fluid.app.get('home', '/', () => '<html><body><h1>hi</h1></body></html>');
fluid.app.get('boom', '/boom', () => { throw new Error('boom'); });
const server = await fluid.listen(0, '127.0.0.1');
const base = 'http://127.0.0.1:' + server.address().port;
const page = await (await fetch(base + '/')).text();
const failed = await fetch(base + '/boom', { headers: { accept: 'text/html' } });
await failed.text();
await new Promise((r) => setTimeout(r, 100));
await fluid.close();
console.log(JSON.stringify({ seen: [...seen].sort(), reloadTag: page.includes('/fluid/dev/reload.js'), status: failed.status }));
`;

async function observe(mode: 'debug' | 'production'): Promise<{ seen: string[]; reloadTag: boolean; status: number }> {
  const dir = await mkdtemp(path.join(REPO, '.tmp', 'lazy-dev-'));
  try {
    const script = path.join(dir, 'lazy.mts');
    await writeFile(script, SCRIPT);
    const kernel = pathToFileURL(path.join(REPO, 'runtime-kernel/src/index.ts')).href;
    const res = spawnSync(path.join(REPO, 'node_modules/.bin/tsx'), [script, kernel, mode], { cwd: REPO, encoding: 'utf8' });
    expect(res.status, res.stderr).toBe(0);
    return JSON.parse(res.stdout.trim().split('\n').pop()!) as { seen: string[]; reloadTag: boolean; status: number };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

it('production (DEBUG off) serves a page and a 500 without loading live reload or the debug page', async () => {
  expect(await observe('production')).toEqual({ seen: [], reloadTag: false, status: 500 });
});

it('debug loads them for the same requests (so the check above can fail)', async () => {
  expect(await observe('debug')).toEqual({ seen: [...DEV_MODULES].sort(), reloadTag: true, status: 500 });
});
