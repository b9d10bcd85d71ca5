/**
 * CLI start-up, whole process: `fw --help` (the built CLI) against `node -e 0`, the floor any
 * Node command pays.
 *
 *   npm run bench -- cli         # BENCH_ROUNDS=15
 */
import { compareCommands } from './lib/commands.ts';
import { report } from './lib/report.ts';
import { FW_BIN, REPO, rounds } from './lib/settings.ts';

const ROUNDS = rounds(15);
const rows = await compareCommands(
  'cli',
  [
    {
      name: 'fw --help',
      fw: { label: 'fw --help', argv: [process.execPath, FW_BIN, '--help'], cwd: REPO },
      baseline: { label: 'node -e 0', argv: [process.execPath, '-e', '0'], cwd: REPO },
      target: '≤ 1.2×',
    },
  ],
  { rounds: ROUNDS, warmup: 2 },
);
report('CLI start-up (whole process)', `${ROUNDS} interleaved rounds, a fresh process each; CPU = the process tree's user + system time`, rows);
