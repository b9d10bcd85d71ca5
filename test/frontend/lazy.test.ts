/**
 * Vite, Tailwind and the proxies load only when needed: an htmx app mixing and serving imports
 * none of them (observed with a resolve hook in a fresh Node process, not assumed).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { REPO_ROOT } from './helpers.js';

const WATCHED = ['vite', '@tailwindcss/node', '@tailwindcss/oxide', 'tailwindcss', 'koa-proxies', 'http-proxy', '@vitejs/plugin-react'];

const SCRIPT = `
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
const { port1, port2 } = new MessageChannel();
const seen = [];
port1.on('message', (s) => seen.push(s));
port1.unref();
const watched = ${JSON.stringify(WATCHED)};
const hooks = 'let port, watched; export function initialize(d) { port = d.port; watched = d.watched; }' +
  'export async function resolve(s, c, next) { if (watched.some((w) => s === w || s.startsWith(w + "/"))) port.postMessage(s); return next(s, c); }';
register('data:text/javascript,' + encodeURIComponent(hooks), { parentURL: import.meta.url, data: { port: port2, watched }, transferList: [port2] });
const settle = () => new Promise((r) => setTimeout(r, 100));
const { Fluid } = await import(process.argv[2]);
const mode = process.argv[3];
const root = mkdtempSync(join(tmpdir(), 'fw-lazy-'));
writeFileSync(join(root, 'fw.json'), JSON.stringify({ name: 'demo', config: mode === 'tailwind'
  ? { APP_FRONTEND: { type: 'htmx' }, FW_TAILWIND: true } : { APP_FRONTEND: { type: 'htmx', alpine: true } } }));
mkdirSync(join(root, 'fluid/static'), { recursive: true });
writeFileSync(join(root, 'fluid/static/tailwind_raw.css'), '@import "tailwindcss";');
const fluid = new Fluid({ root, env: { SECRET_KEY: 'lazy-test' }, logger: { debug() {}, info() {}, warn() {}, error() {} } });
fluid.app.get('home', '/', () => 'hi');
const server = await fluid.listen(0, '127.0.0.1');
await fetch('http://127.0.0.1:' + server.address().port + '/');
await settle();
await fluid.close();
console.log(JSON.stringify(seen));
`;

async function observe(mode: string): Promise<string[]> {
  const dir = await mkdtemp(path.join(REPO_ROOT, '.tmp', 'lazy-frontend-'));
  try {
    const script = path.join(dir, 'lazy.mts');
    await writeFile(script, SCRIPT);
    const kernel = pathToFileURL(path.join(REPO_ROOT, 'runtime-kernel/src/index.ts')).href;
    const res = spawnSync(path.join(REPO_ROOT, 'node_modules/.bin/tsx'), [script, kernel, mode], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(res.status, res.stderr).toBe(0);
    return JSON.parse(res.stdout.trim().split('\n').pop()!) as string[];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

it('an htmx app boots and serves without loading Vite, Tailwind or the proxies', async () => {
  expect(await observe('htmx')).toEqual([]);
});

it('FW_TAILWIND loads the Tailwind compiler, and still not Vite or the proxies', async () => {
  const seen = await observe('tailwind');
  expect(seen).toContain('@tailwindcss/node');
  expect(seen).toContain('@tailwindcss/oxide');
  expect(seen.filter((s) => ['vite', 'koa-proxies', 'http-proxy'].includes(s))).toEqual([]);
});
