/**
 * Live reload used to act on any IPC message `{ type: 'fw:changed', changes }`, from whatever
 * parent forked the app (a process manager, a test runner, a user's own supervisor): each one
 * reloaded every connected browser. Now only the app `fw dev` runs listens (`fw run` marks it
 * when `FW_DEV_PARENT` names its parent). The built CLI, a real fork, a real event-stream client.
 */
import { fork } from 'node:child_process';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/process.js';
import { cleanupDevProjects, devProject, DevRun, edit, FW_BIN, htmxApp, requireBuild } from './helpers.js';

let root: string;
/** The app answers `test:ping` with `test:pong` once the messages before it have been handled. */
const PING = "process.on('message', (m) => { if ((m as { type?: unknown } | null)?.type === 'test:ping') setImmediate(() => process.send?.({ type: 'test:pong' })); });";
const CHANGED = {
  type: 'fw:changed',
  changes: [{ path: 'fluid/templates/index.html', kind: 'template' }],
};

beforeAll(() => {
  requireBuild();
  const app = htmxApp();
  root = devProject({
    ...app,
    'fluid/app.ts': app['fluid/app.ts']!.replace('export default fluid;', `${PING}\nexport default fluid;`),
  });
});

afterAll(() => cleanupDevProjects());

/** An event-stream client of `url`: everything it received, and a promise of its end. */
function listen(url: string): Promise<{ text: () => string; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`${url}: ${res.statusCode}`));
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      const ended = new Promise<void>((done) => res.on('close', () => done()));
      resolve({ text: () => text, ended });
    });
    req.on('error', reject);
  });
}

describe('live reload under a parent that is not fw dev', () => {
  it("a fw:changed message from the app's parent reaches no browser", async () => {
    const port = await freePort();
    const { FW_ENV: _unset, ...env } = process.env;
    const child = fork(FW_BIN, ['run', '--port', String(port)], {
      cwd: root,
      env: { ...env, FW_ENV: 'development' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 60_000;
      while (!output.includes('serving at http')) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`fw run did not start:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // A page of it has live reload (DEBUG is on), and its event stream is open.
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toContain('/fluid/dev/reload.js');
      const stream = await listen(`http://127.0.0.1:${port}/fluid/dev/events`);
      while (!stream.text().includes('event: hello')) await new Promise((resolve) => setTimeout(resolve, 50));

      // The parent says a template changed; the pong comes once the app handled that message
      // (and anything it started then has written to the stream).
      const pong = new Promise<void>((resolve) => child.on('message', (m) => (m as { type?: unknown }).type === 'test:pong' && resolve()));
      child.send(CHANGED);
      child.send({ type: 'test:ping' });
      await pong;

      // The app shuts down, closing the stream: all it ever sent is in.
      child.kill('SIGTERM');
      await stream.ended;
      expect(stream.text()).toContain('event: hello');
      expect(stream.text()).not.toContain('event: reload');
    } finally {
      if (child.exitCode === null) child.kill('SIGTERM');
    }
    expect(await exited, output).toBe(0);
  }, 90_000);
});

describe('live reload under fw dev', () => {
  it('a template change reaches the connected browser as a reload', async () => {
    const dev = await DevRun.start(root, ['dev']);
    try {
      await dev.waitForBoot();
      const stream = await listen(`${dev.base}/fluid/dev/events`);
      await dev.waitFor(() => stream.text().includes('event: hello'), 'the hello event');
      edit(root, 'fluid/templates/index.html', '<h1 class="text-lg">', '<h1 class="text-xl">');
      await dev.waitFor(() => stream.text().includes('event: reload'), 'the reload event');
    } finally {
      expect(await dev.stop()).toBe(0);
    }
  }, 90_000);
});
