/**
 * Project creation, whole process, through the same path for both (node running the package's
 * bin in a fresh process; no install): the built create-fw-app package (its esbuild bundle,
 * what `npm create fw-app` runs) with `app --yes` against `create-vite app --template vanilla`
 * (this checkout's node_modules/create-vite). The folder is removed before
 * every run (untimed). The install through a registry (`npm create …`) belongs to the release
 * test's registry and is not part of this row.
 *
 *   npm run bench -- create      # BENCH_ROUNDS=7
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { compareCommands } from './lib/commands.ts';
import { tempDir } from './lib/project.ts';
import { report } from './lib/report.ts';
import { CREATE_FW_APP_BIN, REPO, rounds } from './lib/settings.ts';

const ROUNDS = rounds(7);
const work = tempDir('create');
const fresh = (dir: string) => () => rmSync(join(work, dir), { recursive: true, force: true });
const rows = await compareCommands(
  'create',
  [
    {
      name: 'create a project (scaffold step, no install)',
      fw: { label: 'create-fw-app --yes', argv: [process.execPath, CREATE_FW_APP_BIN, 'fw-app', '--yes'], cwd: work, prepare: fresh('fw-app') },
      baseline: {
        label: 'create-vite --template vanilla',
        argv: [process.execPath, join(REPO, 'node_modules', 'create-vite', 'index.js'), 'vite-app', '--template', 'vanilla', '--no-interactive'],
        cwd: work,
        prepare: fresh('vite-app'),
      },
      target: '≤ 2× (npm create, registry)',
    },
  ],
  { rounds: ROUNDS },
);
report('Project creation (whole process)', `${ROUNDS} interleaved rounds, a fresh process each; CPU = the process tree's user + system time`, rows);
