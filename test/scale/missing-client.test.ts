/**
 * An app whose generated Prisma client is missing, served by one process and by `--workers 2`:
 * each way fails once, from the process that loads the app first (a cluster's primary, before it
 * forks any worker), with one `error:` line naming the client and what to do, and exit status 1.
 *
 * - `fw start` (the built CLI) on a build without `dist/generated/prisma/main/` printed Node's
 *   resolver stack; it now prints the one line `startupFailed` prints for a config mistake.
 * - `fw run` (a project outside the checkout, so no Prisma CLI is found) under `WEB_CONCURRENCY=2`:
 *   the primary checks the client as the single process does (one `warning:` line saying it is
 *   not generated), the workers do not check again, and the primary's import fails once.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupProjects, makeProject } from '../kernel/helpers.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const FW_BIN = path.join(REPO, 'generators/dist/bin/fw.js');
const KERNEL = pathToFileURL(path.join(REPO, 'runtime-kernel/dist/index.js')).href;

afterAll(() => cleanupProjects());

/** Runs the built `fw <argv>` in `root` to its end: exit code and output (stdout and stderr). */
function fw(root: string, argv: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const { FW_ENV: _unset, ...inherited } = process.env;
    const child = spawn(process.execPath, [FW_BIN, ...argv], {
      cwd: root,
      env: { ...inherited, FW_LOG_LEVEL: 'error', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A built app (as `fw build` leaves it, in plain JavaScript) whose `dist/generated/prisma/main/` is missing. */
function builtWithoutClient(): string {
  return makeProject({
    name: 'noclient',
    files: {
      'package.json': JSON.stringify({
        name: 'noclient',
        private: true,
        type: 'module',
      }),
      // The project blueprint's fluid/server.ts, compiled.
      'dist/fluid/server.js': `import { serve, serveArgs, startupFailed } from ${JSON.stringify(KERNEL)};
try {
  const { default: fluid } = await import('./app.js');
  await serve(fluid, serveArgs(process.argv.slice(2)));
} catch (err) {
  startupFailed(err);
}
`,
      'dist/fluid/app.js': `import { Fluid } from ${JSON.stringify(KERNEL)};
import { db } from './db.js';
export const fluid = new Fluid({ root: new URL('../..', import.meta.url) });
fluid.app.get('db', '/db', () => ({ db: typeof db }));
export default fluid;
`,
      'dist/fluid/db.js': "import { PrismaClient } from '../generated/prisma/main/client.js';\nexport const db = PrismaClient;\n",
    },
  });
}

const START_ERROR =
  'error: the Prisma client dist/generated/prisma/main is missing (dist/fluid/db.js imports it): "npm run build" (fw build) generates it; build again, and deploy the whole dist/ folder\n';

describe('fw start on a build without its Prisma client', () => {
  it('one process: one error line naming the client, exit 1', async () => {
    const run = await fw(builtWithoutClient(), ['start', '--port', '0']);
    expect(run).toEqual({ code: 1, stdout: '', stderr: START_ERROR });
  }, 60_000);

  it('--workers 2: the same one line, once, from the primary; no worker starts', async () => {
    const run = await fw(builtWithoutClient(), ['start', '--workers', '2', '--port', '0']);
    expect(run).toEqual({ code: 1, stdout: '', stderr: START_ERROR });
  }, 60_000);
});

describe('fw run with WEB_CONCURRENCY=2 and no Prisma client', () => {
  it('the primary checks the client like one process does, and fails once', async () => {
    const root = makeProject({
      name: 'runclient',
      files: {
        'package.json': JSON.stringify({
          name: 'runclient',
          private: true,
          type: 'module',
        }),
        'fluid/app.ts': [
          "import { Fluid } from '@fw/kernel';",
          "import { PrismaClient } from '../generated/prisma/main/client.js';",
          "export const fluid = new Fluid({ root: new URL('..', import.meta.url) });",
          "fluid.app.get('db', '/db', () => ({ db: typeof PrismaClient }));",
          'export default fluid;',
          '',
        ].join('\n'),
        'prisma/main/prisma.config.ts': "export default { schema: './schema.prisma' };\n",
        'prisma/main/schema.prisma': 'generator client {\n  provider = "prisma-client"\n  output   = "../../generated/prisma/main"\n}\n',
      },
    });
    mkdirSync(path.join(root, 'node_modules/@fw'), { recursive: true });
    symlinkSync(path.join(REPO, 'runtime-kernel'), path.join(root, 'node_modules/@fw/kernel'));

    const one = await fw(root, ['run', '--port', '0']);
    const workers = await fw(root, ['run', '--port', '0'], {
      WEB_CONCURRENCY: '2',
    });
    const lines = (run: { stderr: string }): string[] => run.stderr.split('\n').filter((line) => /^(?:warning|error): /.test(line));
    expect(one.code, one.stderr).toBe(1);
    expect(lines(one)).toEqual([
      expect.stringMatching(/^warning: fw run: prisma CLI not found .*\(so the Prisma client is not generated: prisma\/main: generated\/prisma\/main was missing\)$/),
      expect.stringMatching(/^error: Cannot find module '.*\/generated\/prisma\/main\/client\.js' imported from .*\/fluid\/app\.ts$/),
    ]);
    expect(workers.code, workers.stderr).toBe(1);
    expect(lines(workers)).toEqual(lines(one));
    expect(workers.stdout).not.toContain('serving at');
  }, 60_000);
});
