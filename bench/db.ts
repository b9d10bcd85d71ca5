/**
 * Start-up cost of the kernel's db plugin, which loads no `@prisma/*` code until a bind's first
 * query: a fresh Node process importing `@fw/kernel/db` against one importing both driver adapters
 * eagerly (what a db module without lazy loading pays). Whole processes, interleaved.
 *
 *   npm run bench -- db          # BENCH_ROUNDS=9
 */
import { compareCommands } from './lib/commands.ts';
import { report } from './lib/report.ts';
import { REPO, rounds } from './lib/settings.ts';

const ROUNDS = rounds(9);
const importing = (specifiers: string[]): readonly [string, ...string[]] => [
  process.execPath,
  '--input-type=module',
  '-e',
  specifiers.map((s) => `await import(${JSON.stringify(s)});`).join(' '),
];
const rows = await compareCommands(
  'db',
  [
    {
      name: 'import the db plugin',
      fw: { label: 'import @fw/kernel/db (adapters lazy)', argv: importing(['@fw/kernel/db']), cwd: REPO },
      baseline: { label: 'import @prisma/adapter-libsql + @prisma/adapter-pg', argv: importing(['@prisma/adapter-libsql', '@prisma/adapter-pg']), cwd: REPO },
    },
  ],
  { rounds: ROUNDS },
);
report('Database plugin start-up (whole process)', `${ROUNDS} interleaved rounds, a fresh process each; CPU = the process's user + system time`, rows);
