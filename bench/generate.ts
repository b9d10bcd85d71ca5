/**
 * `fw generate`, whole process (the built CLI, `node generators/dist/bin/fw.js generate`, in a
 * project made by `fw create project`), at 10, 100 and 300 Additives, without and with locales
 * (`I18N_SUPPORTED_LOCALES: ["en", "de"]`): a run with nothing changed (no-op), and a run after a
 * one-key config change (`APP_FRONTEND.alpine` toggled before every run, untimed; without locales
 * only, to keep the whole set near 15 minutes: `BENCH_GENERATE_ALL=1` adds it with locales). The
 * 100 and 300 rows are paired with the 10-Additive run of the same kind, so their ratio is the
 * scaling.
 *
 *   npm run bench -- generate    # BENCH_ROUNDS=3 BENCH_GENERATE_SIZES=10,100,300 BENCH_GENERATE_ALL=1
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareCommands, type Command, type CommandComparison } from './lib/commands.ts';
import { tempDir } from './lib/project.ts';
import { report } from './lib/report.ts';
import { FW_BIN, QUICK, rounds } from './lib/settings.ts';

const ROUNDS = rounds(3);
const SIZES = (process.env.BENCH_GENERATE_SIZES ?? (QUICK ? '10' : '10,100,300')).split(',').map(Number);
const BASE = SIZES[0]!;

function run(argv: string[], cwd: string): void {
  const r = spawnSync(process.execPath, argv, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${argv.join(' ')} in ${cwd} exited ${r.status}:\n${r.stderr || r.stdout}`);
}

function editConfig(root: string, edit: (json: { additives: string[]; config: Record<string, unknown> }) => void): void {
  const file = join(root, 'fw.json');
  const json = JSON.parse(readFileSync(file, 'utf8'));
  edit(json);
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
}

/** A generated project with `additives` Additives (and locales), already generated once. */
function project(additives: number, locales: boolean): string {
  const work = tempDir(`generate-${additives}`);
  run([FW_BIN, 'create', 'project', 'app', '--yes'], work);
  const root = join(work, 'app');
  editConfig(root, (json) => {
    json.additives = Array.from({ length: additives }, (_, i) => `a${i}`);
    if (locales) json.config.I18N_SUPPORTED_LOCALES = ['en', 'de'];
  });
  run([FW_BIN, 'generate'], root);
  return root;
}

const comparisons: CommandComparison[] = [];
for (const locales of [false, true]) {
  const roots = new Map(SIZES.map((n) => [n, project(n, locales)]));
  const suffix = locales ? ', locales en+de' : '';
  const noop = (n: number): Command => ({ label: `${n} Additives${suffix}`, argv: [process.execPath, FW_BIN, 'generate'], cwd: roots.get(n)! });
  const oneKey = (n: number): Command => ({
    ...noop(n),
    label: `${n} Additives${suffix}, alpine toggled`,
    prepare: () => editConfig(roots.get(n)!, (json) => {
      const frontend = json.config.APP_FRONTEND as { alpine?: boolean };
      json.config.APP_FRONTEND = { ...frontend, alpine: !frontend.alpine };
    }),
  });
  const kinds = locales && process.env.BENCH_GENERATE_ALL !== '1' ? ([['no-op', noop]] as const) : ([['no-op', noop], ['one-key change', oneKey]] as const);
  for (const [kind, command] of kinds) {
    for (const n of SIZES) {
      comparisons.push({
        name: `fw generate ${kind}, ${n} Additives${suffix}`,
        fw: command(n),
        ...(n === BASE ? {} : { baseline: command(BASE) }),
        ...(kind === 'no-op' && n === 100 ? { target: '< 500 ms' } : {}),
        ...(kind === 'no-op' && n === 300 ? { target: `≤ 3× the ${BASE}-Additive run` } : {}),
      });
    }
  }
}
const rows = await compareCommands('generate', comparisons, { rounds: ROUNDS, warmup: 0 });
report(
  'fw generate (whole process)',
  `${ROUNDS} interleaved rounds of each command, a fresh process each; the baseline of a row is the ${BASE}-Additive run of the same kind; CPU = the process tree's user + system time`,
  rows,
);
