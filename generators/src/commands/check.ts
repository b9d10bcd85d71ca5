import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CliError } from '../cli/errors.js';
import type { CommandIO } from '../cli/io.js';
import { ensureClients } from '../migrate/client.js';
import { CLIENTS_CHECKED_ENV } from '../migrate/vitest-setup.js';
import { findProjectRoot } from '../project.js';
import { projectTsc } from './build.js';

/** Usage text of `fw test`. */
export const testHelp = `Usage: fw test [vitest options]

What "npm test" runs: generates the Prisma client of each bind whose generated/prisma/<bind>/ is
missing or older than its prisma/<bind>/schema.prisma (a fresh clone has none: git ignores
generated/), then runs the project's vitest: vitest run [vitest options].

Examples:
  npm test
  npm test -- test/app.test.ts`;

/** Usage text of `fw typecheck`. */
export const typecheckHelp = `Usage: fw typecheck [tsc options]

What "npm run typecheck" runs: generates the Prisma client of each bind whose
generated/prisma/<bind>/ is missing or older than its prisma/<bind>/schema.prisma (the server
code imports it; git ignores generated/), then runs the project's TypeScript: tsc --noEmit
[tsc options].`;

/** The project's `node_modules/.bin/<name>` (in `root` or a folder above it: a workspace install). */
function projectBin(root: string, name: string): string {
  for (let dir = root; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', '.bin', name);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) break;
  }
  throw new CliError(`fw test: vitest is not installed in ${root}; run "npm install" (the tests need the devDependencies).`);
}

/** Runs `command` in `cwd` on the terminal (inherited streams); resolves to its exit code. */
function exec(command: string, args: string[], cwd: string, io: CommandIO, name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: io.env, stdio: ['inherit', 'inherit', 'inherit'] });
    child.on('error', (error) => reject(new CliError(`${name}: cannot run ${command}: ${error.message}`)));
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const isHelp = (argv: string[]): boolean => argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h');

/** `fw test`: the stale Prisma clients, then `vitest run` with the arguments. Returns vitest's exit code. */
export async function runTest(argv: string[], io: CommandIO): Promise<number> {
  if (isHelp(argv)) {
    io.stdout.write(`${testHelp}\n`);
    return 0;
  }
  const root = await findProjectRoot(io.cwd);
  const vitest = projectBin(root, 'vitest');
  await ensureClients(root, io, 'fw test');
  // The project's vitest globalSetup (@fw/cli/vitest-setup) need not check them again.
  return exec(vitest, ['run', ...argv], io.cwd, { ...io, env: { ...io.env, [CLIENTS_CHECKED_ENV]: root } }, 'fw test');
}

/** `fw typecheck`: the stale Prisma clients, then `tsc --noEmit` with the arguments. Returns tsc's exit code. */
export async function runTypecheck(argv: string[], io: CommandIO): Promise<number> {
  if (isHelp(argv)) {
    io.stdout.write(`${typecheckHelp}\n`);
    return 0;
  }
  const root = await findProjectRoot(io.cwd);
  const tsc = projectTsc(root, 'fw typecheck');
  await ensureClients(root, io, 'fw typecheck');
  return exec(process.execPath, [tsc, '--noEmit', ...argv], root, io, 'fw typecheck');
}
