/**
 * The production entry of a new project (`fluid/server.ts`, compiled by `fw build` to
 * `dist/fluid/server.js`, run by `npm start`): a config mistake or a bad argument is one
 * `error: <message>` line and exit status 1, as under `fw run`, not a stack trace of the kernel's
 * bundle; with a SECRET_KEY it serves.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { run as build } from '../../generators/src/commands/build.js';
import { testIO } from '../generators/helpers.js';
import { fw, linkFromCheckout } from '../generators/project-helpers.js';

let work = '';
let root = '';

beforeAll(async () => {
  // Not tempDir(): that folder is removed after each test, and the tests share this project.
  work = await mkdtemp(path.join(tmpdir(), 'fw-entry-'));
  expect((await fw(work, 'create', 'project', 'shop', '--yes')).code).toBe(0);
  root = path.join(work, 'shop');
  // The packages the build and the entry need, linked from this checkout (its kernel is built).
  await linkFromCheckout(root, ['typescript', '@types/node', '@fw/kernel']);
  expect(await build([], testIO(root))).toBe(0);
  await rm(path.join(root, 'app_configs'), { recursive: true }); // a server has no ini
}, 120_000);

afterAll(() => rm(work, { recursive: true, force: true }));

/** Runs `node dist/fluid/server.js [args]` with `env`; it must exit by itself. */
function start(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const { PATH, HOME } = process.env;
  return spawnSync(process.execPath, ['dist/fluid/server.js', ...args], { cwd: root, env: { PATH, HOME, ...env }, encoding: 'utf8', timeout: 60_000 });
}

test('without a SECRET_KEY: one error line naming what to do, exit status 1', () => {
  const { status, stdout, stderr } = start([]);
  expect({ status, stdout }).toEqual({ status: 1, stdout: '' });
  expect(stderr).toMatch(/^error: SECRET_KEY is not set for app 'shop' \(app_configs\/shop\.ini does not exist\)\. [^\n]*SECRET_KEY_FILE[^\n]*\n$/);
});

test('an unreadable SECRET_KEY_FILE, a misspelt key, a bad argument: one error line each', () => {
  const missing = start([], { SECRET_KEY_FILE: path.join(root, 'no-such-secret') });
  expect({ status: missing.status, stderr: missing.stderr }).toEqual({ status: 1, stderr: `error: environment: SECRET_KEY_FILE: cannot read ${path.join(root, 'no-such-secret')} (ENOENT); SECRET_KEY is read from that file\n` });
  const misspelt = start([], { SECRET_KEY: 'k'.repeat(64), FW_LOG_LEVL: 'debug' });
  expect(misspelt.status).toBe(1);
  expect(misspelt.stderr).toMatch(/^error: Invalid config for app 'shop':\nenvironment: FW_LOG_LEVL: unknown key; did you mean FW_LOG_LEVEL\? [^\n]*\n$/);
  const argument = start(['--wokers', '2'], { SECRET_KEY: 'k'.repeat(64) });
  expect({ status: argument.status, stderr: argument.stderr }).toEqual({ status: 1, stderr: 'error: unknown argument "--wokers"; expected --workers <n>, --port <n> or --host <interface>\n' });
});

test('HEALTH_ACCESS=token without HEALTH_TOKEN: one error line, not a stack of the kernel', () => {
  const { status, stdout, stderr } = start([], { SECRET_KEY: 'k'.repeat(64), HEALTH_ACCESS: 'token' });
  expect({ status, stdout, stderr }).toEqual({
    status: 1,
    stdout: '',
    stderr: 'error: HEALTH_ACCESS is "token" but HEALTH_TOKEN is not set; set HEALTH_TOKEN (or HEALTH_TOKEN_FILE) to a secret of at least 16 characters\n',
  });
});

test('a port in use: one error line', async () => {
  const taken = createServer().listen(0, '127.0.0.1');
  await once(taken, 'listening');
  const { port } = taken.address() as AddressInfo;
  try {
    const busy = start(['--port', String(port)], { SECRET_KEY: 'k'.repeat(64) });
    expect({ status: busy.status, stderr: busy.stderr }).toEqual({ status: 1, stderr: `error: Cannot listen on 127.0.0.1:${port}: EADDRINUSE\n` });
  } finally {
    taken.close();
  }
});

test('a port in use under --workers 2: one error line from the primary, no stack, no restart', async () => {
  const taken = createServer().listen(0, '127.0.0.1');
  await once(taken, 'listening');
  const { port } = taken.address() as AddressInfo;
  try {
    const busy = start(['--port', String(port), '--workers', '2'], { SECRET_KEY: 'k'.repeat(64) });
    expect({ status: busy.status, stdout: busy.stdout, stderr: busy.stderr }).toEqual({ status: 1, stdout: '', stderr: `error: Cannot listen on 127.0.0.1:${port}: EADDRINUSE\n` });
  } finally {
    taken.close();
  }
});

test('--workers 2 and SIGTERM to the whole process group (systemd, kill -TERM -<pgid>): the workers drain instead of exiting at once', async () => {
  const { PATH, HOME } = process.env;
  // detached: the server leads a process group of its own, as under a service manager.
  const server = spawn(process.execPath, ['dist/fluid/server.js', '--port', '0', '--workers', '2'], {
    cwd: root,
    env: { PATH, HOME, SECRET_KEY: 'k'.repeat(64), SERVER_DRAIN_DELAY: '3', FW_LOG_FORMAT: 'text' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  server.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  server.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const exited = once(server, 'exit');
  try {
    const url = await new Promise<string>((resolve, reject) => {
      server.stdout.on('data', () => {
        const match = /serving at (http:\/\/\S+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      server.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
    });
    // Probed once per worker (round robin), so each drains for SERVER_DRAIN_DELAY.
    for (let i = 0; i < 4; i++) expect((await fetch(`${url}/readyz`)).status).toBe(200);
    process.kill(-server.pid!, 'SIGTERM');
    // A probe may still reach a worker before its SIGTERM does; the next ones see the drain.
    let ready = await fetch(`${url}/readyz`);
    for (let i = 0; i < 100 && ready.status === 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      ready = await fetch(`${url}/readyz`);
    }
    expect({ status: ready.status, body: await ready.json() }).toEqual({ status: 503, body: { status: 'draining' } });
    expect((await fetch(`${url}/`)).status).toBe(200);
    expect(await exited).toEqual([0, null]);
    expect(out).not.toContain('second SIGTERM');
  } finally {
    if (server.exitCode === null) process.kill(-server.pid!, 'SIGKILL');
  }
}, 60_000);

test('with a SECRET_KEY it serves the home page', async () => {
  const { PATH, HOME } = process.env;
  const server = spawn(process.execPath, ['dist/fluid/server.js', '--port', '0'], { cwd: root, env: { PATH, HOME, SECRET_KEY: 'k'.repeat(64) }, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let out = '';
    server.stdout.setEncoding('utf8');
    const url = await new Promise<string>((resolve, reject) => {
      server.stdout.on('data', (chunk: string) => {
        out += chunk;
        const match = /serving at (http:\/\/\S+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      server.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
    });
    const home = await fetch(`${url}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<h1>shop</h1>');
  } finally {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
});
