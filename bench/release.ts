/**
 * What a user gets from a registry (issue 14), measured through ONE local verdaccio registry
 * (test/support/registry.ts: the checkout's build published to it, the public registry as uplink):
 * - `npm create fw-app@latest app -- --yes` against `npm create vite@<create-vite's pin> app --
 *   --template vanilla`, whole processes, interleaved, after one untimed run of each (a warm npm
 *   cache: what a user who has run `npm create` before sees); and the installed size of each
 *   create package with its dependencies (what `npm create` downloads);
 * - the production `node_modules` (`npm ci --omit=dev` after `npm run build`) of three apps:
 *   the default htmx app, a Vite React TypeScript app, and the htmx app after `fw migrate init`
 *   (Prisma, SQLite);
 * - boot to first 200 of the htmx app: `npm start` (compiled JavaScript, `node
 *   dist/fluid/server.js`) against the development path `fw run` (TypeScript through tsx).
 *
 *   npm run bench -- release        # BENCH_ROUNDS=5; needs .ci/setup's verdaccio
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { compareBoots, type BootCommand } from './lib/boot.ts';
import { compareCommands } from './lib/commands.ts';
import { tempDir } from './lib/project.ts';
import { report, row, type Row } from './lib/report.ts';
import { REPO, rounds } from './lib/settings.ts';

type RegistryModule = typeof import('../test/support/registry.ts');
const { startRegistry, publishAll } = (await tsImport('../test/support/registry.ts', import.meta.url)) as RegistryModule;

const ROUNDS = rounds(5);
const CREATE_VITE = (JSON.parse(readFileSync(join(REPO, 'generators', 'package.json'), 'utf8')) as { dependencies: Record<string, string> })
  .dependencies['create-vite']!;

/** Bytes under a folder (files as stored, symlinks not followed). */
function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isDirectory()) total += folderBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

const registry = await startRegistry();
try {
  await publishAll(registry);
  const env = registry.env;
  const work = tempDir('release');
  const run = (command: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}): void => {
    const r = spawnSync(command, args, { cwd, env: { ...env, ...extra }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} in ${cwd} exited ${r.status ?? r.signal}:\n${(r.stderr || r.stdout).slice(-3000)}`);
  };
  const fresh = (dir: string) => () => rmSync(join(work, dir), { recursive: true, force: true });

  // 1. npm create, whole process, through the registry (compareCommands runs one untimed warm-up of each).
  const createRows = await compareCommands(
    'release',
    [
      {
        name: 'npm create (registry, warm cache)',
        fw: { label: 'npm create fw-app@latest -- --yes', argv: ['npm', 'create', 'fw-app@latest', 'fw-app', '--', '--yes'], cwd: work, env, prepare: fresh('fw-app') },
        baseline: {
          label: `npm create vite@${CREATE_VITE} -- --template vanilla`,
          argv: ['npm', 'create', `vite@${CREATE_VITE}`, 'vite-app', '--', '--template', 'vanilla', '--no-interactive'],
          cwd: work,
          env,
          prepare: fresh('vite-app'),
        },
        target: '≤ 2×',
      },
    ],
    { rounds: ROUNDS },
  );

  // 2. Install size of each create package with its dependencies.
  const installed = (spec: string): number => {
    const dir = join(work, `size-${spec.replace(/[^a-z0-9]/gi, '_')}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
    run('npm', ['install', '--no-save', '--ignore-scripts', spec], dir);
    return folderBytes(join(dir, 'node_modules')) / 1e6;
  };
  const sizes: Row[] = [
    row({
      bench: 'release',
      name: 'create package, installed with its dependencies',
      unit: 'MB',
      fw: { label: 'create-fw-app', value: installed('create-fw-app@latest') },
      baseline: { label: `create-vite@${CREATE_VITE}`, value: installed(`create-vite@${CREATE_VITE}`) },
      target: '< 3 MB',
      rounds: 1,
    }),
  ];

  // 3. Production node_modules of three apps.
  const app = (name: string, flags: string[], after: (root: string) => void = () => undefined): string => {
    run('npm', ['create', 'fw-app@latest', name, '--', '--yes', ...flags], work);
    const root = join(work, name);
    after(root);
    run('npm', ['install'], root);
    run('npm', ['run', 'build'], root);
    run('npm', ['ci', '--omit=dev'], root);
    return root;
  };
  const htmx = app('htmx-app', []);
  const vite = app('vite-app-prod', ['--framework', 'react', '--typescript']);
  const prisma = app('prisma-app', [], (root) => {
    run('npm', ['install'], root);
    run('npx', ['fw', 'migrate', 'init'], root);
  });
  const production = (label: string, root: string, target?: string): Row =>
    row({
      bench: 'release',
      name: `production node_modules (npm ci --omit=dev): ${label}`,
      unit: 'MB',
      fw: { label, value: folderBytes(join(root, 'node_modules')) / 1e6 },
      ...(target ? { target } : {}),
      rounds: 1,
    });
  sizes.push(production('htmx app (default)', htmx, '≤ 40 MB'), production('Vite React TS app', vite), production('htmx app + fw migrate init (Prisma, SQLite)', prisma));

  // 4. Boot to first 200: compiled JavaScript (npm start's command) against the tsx dev path.
  // The production install has no fw CLI, so the dev path runs in a second, full install.
  const dev = app('htmx-dev', []);
  run('npm', ['install'], dev);
  const secret = join(work, 'secret-key');
  writeFileSync(secret, `${'ab'.repeat(32)}\n`, { mode: 0o600 });
  const portEnv = (port: number): NodeJS.ProcessEnv => ({ ...env, PORT: String(port), HOST: '127.0.0.1', SECRET_KEY_FILE: secret });
  const compiled: BootCommand = { label: 'node dist/fluid/server.js (npm start)', argv: () => [process.execPath, 'dist/fluid/server.js'], cwd: htmx, env: portEnv };
  const tsxPath: BootCommand = {
    label: 'fw run (tsx)',
    argv: (port) => [process.execPath, join(dev, 'node_modules', '@fw', 'cli', 'dist', 'bin', 'fw.js'), 'run', '--port', String(port), '--host', '127.0.0.1'],
    cwd: dev,
    env: portEnv,
  };
  const bootRows = await compareBoots('release', [{ name: 'htmx app, compiled JS vs the tsx dev path', fw: compiled, baseline: tsxPath }], { rounds: ROUNDS });

  report(
    'What a user gets from the registry',
    `through one local verdaccio; ${ROUNDS} interleaved rounds for the timed rows; sizes are bytes of files under node_modules`,
    [...createRows, ...sizes, ...bootRows],
  );
} finally {
  await registry.close();
}
