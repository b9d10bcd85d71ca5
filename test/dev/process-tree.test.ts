/**
 * `npm run dev` is a chain: npm → `sh -c "fw run --watch"` → `fw dev` (the dev loop) → `fw run` (the app, in its own
 * process group) → esbuild. A SIGTERM sent to npm alone (a process manager, an IDE's stop button,
 * `kill <npm pid>`) reached only the shell, which died without passing it on: `fw dev` and the app
 * went on serving, re-parented to process 1, holding the port. Now `fw dev` started by an npm
 * script stops the app and exits once its parent is gone. The real chain through the app's own
 * `npm run dev`; only the top process is signalled; every process of the tree must go and the
 * port must be free. (A SIGINT to npm alone stops at the shell, which waits for its child as POSIX
 * shells do under `sh -c`: nothing observable changes, so nothing can act on it; docs/dev.md.)
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupViteProjects, viteProject } from '../frontend/helpers.js';
import { cleanupDevProjects, devProject, DevRun, htmxApp, requireBuild, writeTree } from './helpers.js';

let root: string;
/** A React + Vite app: its app process runs the Vite dev server too. */
let viteRoot: string;
/** An app that says it is loading (the file `loading`), then loads only once the file `go` exists. */
let slow: string;
/** An app whose shutdown hook takes a while, then writes the file `hook-done`. */
let lingering: string;

beforeAll(() => {
  requireBuild();
  root = devProject({
    ...htmxApp(),
    'package.json': JSON.stringify({ name: 'devapp', private: true, type: 'module', scripts: { dev: 'fw run --watch' } }),
  });
  const app = htmxApp();
  const wait = [
    "import { existsSync, writeFileSync } from 'node:fs';",
    "writeFileSync(new URL('../loading', import.meta.url), '');",
    "await new Promise<void>((resolve) => { const t = setInterval(() => existsSync(new URL('../go', import.meta.url)) && (clearInterval(t), resolve()), 50); });",
  ].join('\n');
  slow = devProject({ ...app, 'fluid/app.ts': `${wait}\n${app['fluid/app.ts']!}` });
  lingering = devProject({
    ...app,
    'package.json': JSON.stringify({ name: 'devapp', private: true, type: 'module', scripts: { dev: 'fw run --watch' } }),
    'fluid/app.ts': app['fluid/app.ts']!.replace(
      'export default fluid;',
      [
        "import { writeFileSync } from 'node:fs';",
        "fluid.onShutdown(async () => { await new Promise((r) => setTimeout(r, 1500)); writeFileSync(new URL('../hook-done', import.meta.url), ''); });",
        'export default fluid;',
      ].join('\n'),
    ),
  });
  viteRoot = viteProject({ surfaces: [{ frontend: { type: 'vite', framework: 'react', typescript: true } }] });
  const pkg = JSON.parse(readFileSync(path.join(viteRoot, 'package.json'), 'utf8')) as Record<string, unknown>;
  writeTree(viteRoot, {
    'package.json': JSON.stringify({ ...pkg, scripts: { dev: 'fw run --watch' } }),
    'fluid/app.ts': ["import { Fluid } from '@fw/kernel';", "export default new Fluid({ root: new URL('..', import.meta.url) });", ''].join('\n'),
  });
});

afterAll(() => {
  cleanupDevProjects();
  cleanupViteProjects();
});

/** A process as /proc shows it: its parent, its state, and its start time (a reused pid has another). */
interface Proc {
  pid: number;
  ppid: number;
  state: string;
  start: string;
  args: string;
}

function readProc(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid ... ; comm may hold spaces and parentheses: split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return { pid, ppid: Number(fields[1]), state: fields[0]!, start: fields[19]!, args };
  } catch {
    return undefined;
  }
}

/** `top` and every process below it, right now. */
function tree(top: number): Proc[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProc(Number(name)))
    .filter((p): p is Proc => p !== undefined);
  const found: Proc[] = [];
  const queue = [top];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    const proc = all.find((p) => p.pid === pid);
    if (proc) found.push(proc);
    for (const child of all.filter((p) => p.ppid === pid)) queue.push(child.pid);
  }
  return found;
}

/** Still running: the same process (same start time), not a zombie. */
function alive(proc: Proc): boolean {
  const now = readProc(proc.pid);
  return now !== undefined && now.start === proc.start && now.state !== 'Z';
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

describe('npm run dev leaves nothing behind when only its top process is signalled', () => {
  it.each([
    ['npm', 'SIGTERM', 'htmx'],
    ['fw dev', 'SIGTERM', 'htmx'],
    ['fw dev', 'SIGINT', 'htmx'],
    ['fw dev', 'SIGKILL', 'htmx'],
    ['npm', 'SIGTERM', 'Vite'],
    ['fw dev', 'SIGKILL', 'Vite'],
  ] as const)('%s gets %s (%s app): every process of the tree exits and the port is free', async (target, signal, kind) => {
    const dev = await DevRun.npm(kind === 'Vite' ? viteRoot : root, 'dev');
    let procs: Proc[] = [];
    try {
      await dev.waitForBoot();
      procs = tree(dev.child.pid!);
      // Node processes only: the shell's own arguments are "sh -c fw run --watch --port ...".
      const node = procs.filter((p) => /(^|\/)node$/.test(p.args.split(' ')[0]!));
      const fwDev = node.find((p) => /\bfw run --watch --port/.test(p.args));
      const app = node.find((p) => /fw\.js run --port/.test(p.args));
      expect(fwDev, procs.map((p) => `${p.pid} ${p.args}`).join('\n')).toBeDefined();
      expect(app).toBeDefined();
      const port = Number(new URL(dev.base).port);
      expect(await portFree(port)).toBe(false);

      process.kill(target === 'npm' ? dev.child.pid! : fwDev!.pid, signal);

      const deadline = Date.now() + 30_000;
      for (;;) {
        const left = procs.filter(alive);
        if (left.length === 0 && (await portFree(port))) break;
        if (Date.now() > deadline) {
          throw new Error(`still running 30 s after ${signal} to ${target}:\n${left.map((p) => `${p.pid} (parent ${readProc(p.pid)?.ppid}) ${p.args}`).join('\n')}\n${dev.output}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await dev.exited;
    } finally {
      // A failed run must not leave its processes (all started here) to the next test.
      for (const proc of procs.filter(alive)) process.kill(proc.pid, 'SIGKILL');
    }
  }, 90_000);
});

describe('fw dev killed under npm run dev', () => {
  it('the app names fw dev and its pid as the parent that exited (not "the npm script"), and shuts down fully', async () => {
    const dev = await DevRun.npm(lingering, 'dev');
    let procs: Proc[] = [];
    try {
      await dev.waitForBoot();
      procs = tree(dev.child.pid!);
      const fwDev = procs.find((p) => /(^|\/)node .*\bfw run --watch --port/.test(p.args));
      if (!fwDev) throw new Error(`no fw dev below npm:\n${procs.map((p) => `${p.pid} ${p.args}`).join('\n')}`);
      process.kill(fwDev.pid, 'SIGKILL');
      const deadline = Date.now() + 30_000;
      while (procs.some(alive)) {
        if (Date.now() > deadline) throw new Error(`still running after fw dev was killed:\n${dev.output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await dev.exited;
      expect(dev.output).toContain(`fw run: fw dev (pid ${fwDev.pid}), which ran this app, has exited; stopping the app`);
      expect(dev.output).not.toContain('the npm script that started this server');
      // The parent's exit during the shutdown was taken for a second signal, which cut it short.
      expect(dev.output).not.toContain('second SIGTERM');
      expect(existsSync(path.join(lingering, 'hook-done'))).toBe(true);
    } finally {
      for (const proc of procs.filter(alive)) process.kill(proc.pid, 'SIGKILL');
    }
  }, 90_000);
});

describe('fw dev killed while the app is still loading', () => {
  it('the app stops once it serves: it found its IPC channel already closed', async () => {
    // Not under npm (the kernel's own npm-parent watch would stop it otherwise).
    const dev = await DevRun.start(slow, ['dev'], { npm_lifecycle_event: '' });
    let procs: Proc[] = [];
    try {
      const deadline = Date.now() + 60_000;
      // fw run has checked that fw dev runs it and imports fluid/app.ts.
      while (!existsSync(path.join(slow, 'loading'))) {
        if (Date.now() > deadline) throw new Error(`the app did not start loading:\n${dev.output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      procs = tree(dev.child.pid!);
      const app = procs.find((p) => /fw\.js run --port/.test(p.args));
      if (!app) throw new Error(`no app below fw dev:\n${procs.map((p) => `${p.pid} ${p.args}`).join('\n')}`);
      dev.child.kill('SIGKILL');
      await dev.exited;
      writeFileSync(path.join(slow, 'go'), ''); // the app loads and serves now, with no fw dev
      const port = Number(new URL(dev.base).port);
      for (;;) {
        if (!alive(app) && (await portFree(port))) break;
        if (Date.now() > deadline) throw new Error(`the app still runs after fw dev was killed:\n${dev.output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      for (const proc of procs.filter(alive)) process.kill(proc.pid, 'SIGKILL');
    }
  }, 90_000);
});
