/**
 * Boot to first 200 and memory after boot, each boot a fresh process, against bare Koa +
 * @koa/router (plain JS, a home route):
 * - the kernel alone: compiled @fw/kernel, `new Fluid` on a default project, a home route;
 * - `fw run` in a project made by `fw create project` (the CLI loads fluid/app.ts through tsx);
 * - the same project built (`fw build`) and started as in production (`node dist/fluid/server.js`,
 *   what `npm start` runs);
 * - a Vite React app built by `fw build`, started the same way with the default settings (the
 *   production entry `fluid/server.ts` turns FW_CHECK_FRONTEND and FW_BUILD_FRONTEND off, so the
 *   boot serves the built dist/), and under `fw run` (the config defaults, FW_CHECK_FRONTEND and
 *   FW_BUILD_FRONTEND false: it serves the same dist/ and builds nothing).
 * Time is from spawn to the first 200 on `/`; CPU is the server process's own time until then;
 * RSS is read from /proc at that moment.
 *
 *   npm run bench -- boot        # BENCH_ROUNDS=5
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { compareBoots, type BootCommand } from './lib/boot.ts';
import { kernelProject, tempDir } from './lib/project.ts';
import { report } from './lib/report.ts';
import { BENCH_DIR, FW_BIN, rounds } from './lib/settings.ts';

const ROUNDS = rounds(5);

function run(argv: string[], cwd: string): void {
  const r = spawnSync(process.execPath, argv, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${argv.join(' ')} in ${cwd} exited ${r.status}:\n${r.stderr || r.stdout}`);
}

/** A project made by `fw create project` (with its app_configs ini) under .tmp/bench, so it resolves this checkout's packages. */
function created(flags: string[]): string {
  const root = join(tempDir('boot'), 'app');
  run([FW_BIN, 'create', 'project', root, '--yes', ...flags], join(root, '..'));
  if (!existsSync(join(root, 'app_configs', 'app.ini'))) run([FW_BIN, 'create', 'app', 'app'], root);
  return root;
}

const koa: BootCommand = { label: 'bare Koa + @koa/router', argv: (port) => [process.execPath, join(BENCH_DIR, 'servers', 'boot-koa.js'), String(port)], cwd: BENCH_DIR };
const project = kernelProject();
const htmx = created([]);
const vite = created(['--surface', 'vite', '--framework', 'react', '--no-typescript']);
run([FW_BIN, 'build'], htmx);
run([FW_BIN, 'build'], vite);
// Production: the generated app_configs/app.ini says DEBUG = true (development); a deployment sets
// DEBUG=false in its environment, which wins over the ini.
const production = { DEBUG: 'false' };
const fwRun = (root: string, label: string, env: NodeJS.ProcessEnv = {}): BootCommand => ({
  label,
  argv: (port) => [process.execPath, FW_BIN, 'run', '--port', String(port)],
  cwd: root,
  env: () => ({ ...process.env, ...env }),
});
// `npm start` without npm in between: the compiled server, PORT from the environment.
const started = (root: string, label: string): BootCommand => ({
  label,
  argv: () => [process.execPath, join(root, 'dist', 'fluid', 'server.js')],
  cwd: root,
  env: (port) => ({ ...process.env, ...production, PORT: String(port), HOST: '127.0.0.1' }),
});
const rows = await compareBoots(
  'boot',
  [
    {
      name: 'kernel alone',
      fw: { label: 'fw kernel (compiled JS)', argv: (port) => [process.execPath, join(BENCH_DIR, 'servers', 'boot-fw.js'), project, String(port)], cwd: BENCH_DIR },
      baseline: koa,
      target: '≤ 2×',
      rssTarget: '≤ 1.5×',
    },
    { name: 'htmx app, compiled (npm start, DEBUG=false)', fw: started(htmx, 'node dist/fluid/server.js, htmx app'), baseline: koa, target: '≤ 2×', rssTarget: '≤ 1.5×' },
    { name: 'fw run (htmx app)', fw: fwRun(htmx, 'fw run, htmx app'), baseline: koa, note: 'fw run loads fluid/app.ts through tsx (development convenience, not the production path)' },
    {
      name: 'Vite React app, compiled (npm start, DEBUG=false), default settings',
      fw: started(vite, 'node dist/fluid/server.js, Vite app'),
      baseline: koa,
      target: '≤ 2×',
      rssTarget: '≤ 1.5×',
      note: 'Built once by fw build; the boot serves dist/ and builds nothing (fluid/server.ts turns FW_CHECK_FRONTEND and FW_BUILD_FRONTEND off).',
    },
    { name: 'fw run (Vite React app, production, default settings)', fw: fwRun(vite, 'fw run, Vite app, DEBUG=false', production), baseline: koa, note: 'tsx loads fluid/app.ts; the config defaults (FW_CHECK_FRONTEND and FW_BUILD_FRONTEND false) serve the built dist/ and build nothing.' },
  ],
  { rounds: ROUNDS },
);
report('Boot to first 200 and RSS after boot', `${ROUNDS} interleaved rounds, a fresh process each; CPU = the server process's own until its first 200`, rows);
