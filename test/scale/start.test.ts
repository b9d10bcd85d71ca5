/**
 * `fw start` (the built CLI, generators/dist/bin/fw.js) on a built app's entry
 * (`dist/fluid/server.js`, here written by hand in plain JavaScript, as `fw build` would leave
 * it): `--workers 2` serves from two processes on one port, SIGTERM stops them all with exit 0;
 * bad options and a missing build are errors naming what is wrong.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { cleanupProjects, makeProject } from '../kernel/helpers.js';
import { pidOf, waitFor } from './cluster.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const FW_BIN = path.join(REPO, 'generators/dist/bin/fw.js');
const KERNEL = pathToFileURL(path.join(REPO, 'runtime-kernel/dist/index.js')).href;

let running: ChildProcess | undefined;
/** Process groups to kill after the file (an orphaned server keeps npm's group). */
const groups: number[] = [];
afterAll(() => {
  if (running?.exitCode === null && running.pid) process.kill(-running.pid, 'SIGKILL');
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  cleanupProjects();
});

function built(): string {
  const root = makeProject({ name: 'started', config: { FW_LOG_REQUESTS: false } });
  mkdirSync(path.join(root, 'dist/fluid'), { recursive: true });
  writeFileSync(
    path.join(root, 'dist/fluid/server.js'),
    `import { Fluid, serve, serveArgs } from ${JSON.stringify(KERNEL)};
const fluid = new Fluid({ root: new URL('../..', import.meta.url) });
fluid.app.get('pid', '/pid', () => ({ pid: process.pid }));
fluid.onShutdown(() => process.stdout.write('shutdown hook ran in ' + process.pid + '\\n'));
await serve(fluid, serveArgs(process.argv.slice(2)));
`,
  );
  return root;
}

it('fw start --workers 2: two worker processes serve one port; SIGTERM runs every shutdown hook and exits 0', async () => {
  const root = built();
  const fw = spawn(process.execPath, [FW_BIN, 'start', '--workers', '2', '--port', '0', '--host', '127.0.0.1'], {
    cwd: root,
    env: { ...process.env, FW_LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running = fw;
  let out = '';
  let err = '';
  fw.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => fw.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "serving at" line; stdout=${out} stderr=${err}`)), 60_000);
    fw.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /fw: started serving at (http:\/\/\S+) \(2 workers\)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
  });
  const pids = new Set<number>();
  for (let i = 0; i < 20 && pids.size < 2; i++) pids.add(await pidOf(url));
  expect(pids.size).toBe(2);
  expect(pids.has(fw.pid!)).toBe(false);

  fw.kill('SIGTERM');
  expect(await exited).toBe(0);
  for (const pid of pids) expect(out).toContain(`shutdown hook ran in ${pid}`);
});

it('bad options and a missing build are errors naming what is wrong', () => {
  const root = built();
  const run = (args: string[], cwd = root) => spawnSync(process.execPath, [FW_BIN, 'start', ...args], { cwd, encoding: 'utf8' });
  const zero = run(['--workers', '0']);
  expect(zero.status).not.toBe(0);
  expect(zero.stderr).toContain('--workers: got "0"; expected a whole number of worker processes, at least 1');
  expect(run(['--port', '70000']).stderr).toContain('--port: got "70000"');
  const unbuilt = run([], makeProject({ name: 'unbuilt' }));
  expect(unbuilt.status).not.toBe(0);
  expect(unbuilt.stderr).toContain('dist/fluid/server.js not found');
  expect(unbuilt.stderr).toContain('npm run build');
});

it.each([1, 2])('npm start with --workers %i: a SIGTERM to npm alone (its sh -c dies without passing it on) still drains and stops the server', async (workers) => {
  const root = built();
  writeFileSync(
    path.join(root, 'package.json'),
    JSON.stringify({ name: 'started', private: true, type: 'module', scripts: { start: `node dist/fluid/server.js --port 0 --host 127.0.0.1 --workers ${workers}` } }),
  );
  const npm = spawn('npm', ['start'], { cwd: root, env: { ...process.env, FW_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  groups.push(npm.pid!);
  let out = '';
  npm.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  npm.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  await waitFor('the serving line', () => /serving at http:\/\/\S+/.test(out), 60_000);
  const url = /serving at (http:\/\/[^\s]+)/.exec(out)![1]!;
  const servers = new Set<number>();
  for (let i = 0; i < 20 && servers.size < workers; i++) servers.add(await pidOf(url));

  process.kill(npm.pid!, 'SIGTERM'); // npm only, not its process group
  const gone = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  };
  await waitFor('every server process to exit', () => [...servers].every(gone), 30_000);
  for (const pid of servers) expect(out).toContain(`shutdown hook ran in ${pid}`);
  expect(out).toContain('the npm script that started this server');
});
