/**
 * End to end (issue 3): create a project with the built CLI, create two additives, edit their
 * code by hand, switch the surface type in fw.json, `fw generate`; the app still type-checks
 * (and a wrong handler signature does not), boots with `fw run`, serves the additives' routes
 * (HTTP, static, websocket), and the hand edits are there. Needs `npm run build` first.
 */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort, sh } from '../support/process.js';
import WebSocket from 'ws';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const CREATE_BIN = path.join(REPO, 'generators/dist/bin/create-fw-app.js');
const FW_BIN = path.join(REPO, 'generators/dist/bin/fw.js');
const REQUIRED_BUILDS = [CREATE_BIN, FW_BIN, path.join(REPO, 'runtime-kernel/dist/index.js')];

let work = '';
let root = '';
let generated: SpawnSyncReturns<string>;

const fw = (...args: string[]): SpawnSyncReturns<string> => sh(process.execPath, [FW_BIN, ...args], root, 60_000);

async function edit(file: string, from: string, to: string): Promise<void> {
  const abs = path.join(root, file);
  const text = await readFile(abs, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} does not contain ${JSON.stringify(from)}`);
  await writeFile(abs, text.replace(from, to));
}

beforeAll(async () => {
  const missing = REQUIRED_BUILDS.filter((file) => !existsSync(file));
  if (missing.length > 0) throw new Error(`missing build output ${missing.join(', ')}: run "npm run build" first (npm test does).`);
  work = await mkdtemp(path.join(tmpdir(), 'fw-e2e-regen-'));
  root = path.join(work, 'regen-app');
  // --local: this test is about regeneration, not the release, so it links this checkout (file: specs).
  sh(process.execPath, [CREATE_BIN, root, '--yes', '--local'], work, 30_000);
  fw('create', 'additive', 'blog');
  fw('create', 'additive', 'shop-items');
  // Hand edits in both additives and in the app file.
  await edit('additives/blog/api.ts', "ok: true", "ok: true, edited: 'by hand'");
  // An Additive gets no websocket route by default: this one is the user's own.
  await edit('additives/blog/index.ts', 'app(blog.app);', "app(blog.app);\nblog.ws.route('echo', '/echo', (socket) => {\n  socket.on('message', (data) => socket.send(data));\n});");
  await edit('additives/shop-items/templates/shop-items/index.html', '<h1>{{title}}</h1>', '<h1>{{title}}</h1>\n    <p>hand-made shop banner</p>');
  await edit('fluid/app.ts', 'export default fluid;', "fluid.app.get('ping', '/ping', () => 'pong');\n\nexport default fluid;");
  // Switch the surface type: htmx -> none.
  const config = JSON.parse(await readFile(path.join(root, 'fw.json'), 'utf8'));
  config.config.APP_FRONTEND = { type: 'none' };
  await writeFile(path.join(root, 'fw.json'), `${JSON.stringify(config, null, 2)}\n`);
  generated = fw('generate');
  sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], root, 240_000);
  // create-fw-app wrote app_configs/regen-app.ini (SECRET_KEY), so the app boots as it is.
}, 360_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

test('fw generate after the surface switch merges, keeps the hand edits and exits 0', async () => {
  expect(generated.status).toBe(0);
  expect(generated.stdout).toMatch(/merge\s+fluid\/app\.ts/);
  expect(generated.stdout).toMatch(/update\s+fluid\/templates\/index\.html/);
  expect(await readFile(path.join(root, 'additives/blog/api.ts'), 'utf8')).toContain("edited: 'by hand'");
  const app = await readFile(path.join(root, 'fluid/app.ts'), 'utf8');
  expect(app).toContain("fluid.app.get('ping', '/ping', () => 'pong');");
  expect(app).toContain('fluid.additive(blog);\nfluid.additive(shopItems);');
  expect(app).not.toContain("'/hello'");
  expect(fw('generate').stdout).toMatch(/^\d+ files: \d+ unchanged\n$/);
});

test('the app type-checks; a wrong handler or hook signature in an additive does not', async () => {
  expect(sh('npx', ['tsc', '--noEmit'], root, 120_000).stdout).toBe('');
  const bad = path.join(root, 'additives/blog/bad.ts');
  await writeFile(
    bad,
    "import type { Handler, WsHandler } from '@fw/kernel';\n" +
      'export const wrong: Handler = (ctx: number) => ctx;\n' +
      'export const wrongWs: WsHandler = (socket: string) => socket;\n',
  );
  try {
    const failed = sh('npx', ['tsc', '--noEmit'], root, 120_000, [1, 2]);
    expect(failed.stdout).toMatch(/additives\/blog\/bad\.ts\(2,14\): error TS2322/);
    expect(failed.stdout).toMatch(/additives\/blog\/bad\.ts\(3,14\): error TS2322/);
  } finally {
    await unlink(bad);
  }
}, 300_000);

test('fw run boots and serves both additives (pages, API, static, websocket) with the hand edits', async () => {
  const port = await freePort();
  const child = spawn(process.execPath, [FW_BIN, 'run', '--port', String(port)], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  try {
    const deadline = Date.now() + 30_000;
    while (!output.includes('serving at')) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`fw run did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const base = `http://127.0.0.1:${port}`;
    const status = await fetch(`${base}/api/blog/status`);
    expect(await status.json()).toEqual({ additive: 'blog', ok: true, edited: 'by hand' });
    const blog = await fetch(`${base}/blog/`);
    expect(blog.status).toBe(200);
    expect(await blog.text()).toContain('<h1>blog</h1>');
    const shop = await (await fetch(`${base}/shop-items/`)).text();
    expect(shop).toContain('hand-made shop banner');
    const css = await fetch(`${base}/shop-items/static/shop-items.css`);
    expect(css.status).toBe(200);
    expect(await css.text()).toContain('font-family');
    expect(await (await fetch(`${base}/ping`)).text()).toBe('pong');
    expect((await fetch(`${base}/hello`)).status).toBe(404);
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws/blog/echo`);
    const echoed = await new Promise<string>((resolve, reject) => {
      socket.once('error', reject);
      socket.once('open', () => socket.send('hi there'));
      socket.once('message', (data) => resolve(data.toString()));
    });
    socket.close();
    expect(echoed).toBe('hi there');
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}, 60_000);

test('fw node and fw tailwind pass through to the project kernel', () => {
  expect(fw('node', 'node', '--version').stdout).toMatch(/^v\d+\.\d+\.\d+\n$/);
  const noDashes = spawnSync(process.execPath, [FW_BIN, 'tailwind', '--minify'], { cwd: root, encoding: 'utf8' });
  expect(noDashes.status).toBe(1);
  expect(noDashes.stderr).toMatch(/^error: fw tailwind: put '--' before the Tailwind arguments/);
}, 60_000);
