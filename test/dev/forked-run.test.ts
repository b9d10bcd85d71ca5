/**
 * `fw run` used to take any IPC channel for `fw dev`'s: an app a process manager starts with
 * `fork()` (or a test runner's child) skipped the Prisma client check, sent `fw:serving` to its
 * parent, and stopped itself when that parent closed the channel. Now only the child `fw dev`
 * marks (`FW_DEV_PARENT`, its own pid, taken out of the app's environment) behaves as under
 * `fw dev`; `fw dev` itself works as before. The built CLI, a real fork, real HTTP.
 *
 * The project lives outside the checkout (its `@fw/kernel` linked from the build), so no Prisma
 * CLI is found: the client check's `warning:` line shows whether a process made it.
 */
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/process.js';
import { DevRun, edit, FW_BIN, htmxApp, REPO, requireBuild, writeTree } from './helpers.js';

let root: string;
const IPC_ROUTE = "fluid.app.get('ipc', '/ipc', () => ({ connected: process.connected, marker: process.env.FW_DEV_PARENT ?? null }));";

beforeAll(() => {
  requireBuild();
  root = mkdtempSync(path.join(tmpdir(), 'fw-forked-'));
  const app = htmxApp();
  writeTree(root, {
    ...app,
    'fluid/app.ts': app['fluid/app.ts']!.replace('export default fluid;', `${IPC_ROUTE}\nexport default fluid;`),
    // A bind whose client was never generated; nothing imports it.
    'prisma/main/prisma.config.ts': "export default { schema: './schema.prisma' };\n",
    'prisma/main/schema.prisma': 'generator client {\n  provider = "prisma-client"\n  output   = "../../generated/prisma/main"\n}\n',
  });
  mkdirSync(path.join(root, 'node_modules/@fw'), { recursive: true });
  symlinkSync(path.join(REPO, 'runtime-kernel'), path.join(root, 'node_modules/@fw/kernel'));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const CLIENT_WARNING = /^warning: fw (?:run|dev): prisma CLI not found .*\(so the Prisma client is not generated: prisma\/main: generated\/prisma\/main was missing\)$/gm;

describe('fw run forked by another process (a process manager, a test runner)', () => {
  it('checks the Prisma client, tells its parent nothing, and keeps serving when the parent disconnects', async () => {
    const port = await freePort();
    const { FW_ENV: _unset, ...env } = process.env;
    const child = fork(FW_BIN, ['run', '--port', String(port)], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const messages: unknown[] = [];
    child.on('message', (message) => messages.push(message));
    // 'exit' and the end of its output ('close' never comes once the parent closed the channel).
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const ended = Promise.all([child.stdout, child.stderr].map((stream) => new Promise((resolve) => stream?.on('end', resolve))));
    const ipc = async (): Promise<{ connected: boolean; marker: string | null } | undefined> => {
      const res = await fetch(`http://127.0.0.1:${port}/ipc`, { headers: { accept: 'application/json' } }).catch(() => undefined);
      return res?.status === 200 ? ((await res.json()) as { connected: boolean; marker: string | null }) : undefined;
    };
    try {
      const until = async (check: () => Promise<boolean>, what: string): Promise<void> => {
        const deadline = Date.now() + 60_000;
        while (!(await check())) {
          if (child.exitCode !== null) throw new Error(`fw run exited while waiting for ${what}:\n${output}`);
          if (Date.now() > deadline) throw new Error(`${what} did not happen:\n${output}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      await until(async () => (await ipc())?.connected === true, 'the app serving with its IPC channel open');
      expect(output.match(CLIENT_WARNING)).toEqual([expect.stringMatching(/^warning: fw run: /)]);
      expect(await ipc()).toEqual({ connected: true, marker: null }); // a round trip more: what it sent is in
      expect(messages).toEqual([]);

      // The parent closes the channel: the app goes on serving (it answers once it saw the close).
      child.disconnect();
      await until(async () => (await ipc())?.connected === false, 'the app seeing its channel closed');
      expect(await ipc()).toEqual({ connected: false, marker: null });
    } finally {
      child.kill('SIGTERM');
    }
    // One SIGTERM, one graceful shutdown (a second one would exit at once with 1).
    const code = await exited;
    await ended;
    expect(code, output).toBe(0);
    expect(output.match(/SIGTERM: shutting down/g)).toHaveLength(1);
    expect(messages).toEqual([]);
  }, 90_000);
});

describe('fw dev', () => {
  it('its app knows it runs under fw dev (no second client check, messages reach fw dev), and its marker goes no further', async () => {
    const dev = await DevRun.start(root, ['dev']);
    try {
      await dev.waitForBoot();
      const res = await fetch(`${dev.base}/ipc`, { headers: { accept: 'application/json' } });
      expect(await res.json()).toEqual({ connected: true, marker: null });
      // fw dev checked the client before the first start; its app did not check again.
      expect(dev.output.match(CLIENT_WARNING)).toEqual([expect.stringMatching(/^warning: fw dev: /)]);
      // The app's fw:serving and fw:failed reached fw dev: it answers on the app's address.
      edit(root, 'fluid/app.ts', 'export default fluid;', "throw new Error('forked-run: cannot start');\nexport default fluid;");
      await dev.waitFor(() => dev.output.includes(`Until then ${dev.base} answers with this error.`), 'the down page');
      const page = await fetch(`${dev.base}/`, { headers: { accept: 'text/plain' } });
      expect(page.status).toBe(503);
      expect(await page.text()).toContain('forked-run: cannot start');
    } finally {
      edit(root, 'fluid/app.ts', "throw new Error('forked-run: cannot start');\n", '');
      expect(await dev.stop()).toBe(0);
    }
  }, 90_000);
});
