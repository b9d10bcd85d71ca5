import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Plan } from '../pipeline/plan.js';
import { CliError } from './errors.js';
import { isInteractive, type CommandIO } from './io.js';

/** What a run changed in `package.json`'s `dependencies` and `devDependencies` (`name@spec` each). */
export interface DependencyChanges {
  added: string[];
  removed: string[];
  changed: string[];
  /** The command that installs them in the project (`npm install`). */
  command: string;
  /** Set when package.json holds conflict markers: the install must wait for them. */
  conflicted?: boolean;
}

type Deps = Record<string, string>;

function depsOf(bytes: Buffer | undefined): Deps | undefined {
  if (bytes === undefined) return {};
  try {
    const pkg = JSON.parse(bytes.toString('utf8')) as { dependencies?: Deps; devDependencies?: Deps };
    return { ...pkg.dependencies, ...pkg.devDependencies };
  } catch {
    return undefined;
  }
}

/**
 * The package manager of a project: its lockfile says (`pnpm-lock.yaml`, `yarn.lock`,
 * `bun.lock`), else the one that started this command (`npm_config_user_agent`), else npm.
 */
export function packageManager(root: string, env: NodeJS.ProcessEnv): string {
  const locks: [string, string][] = [
    ['package-lock.json', 'npm'],
    ['pnpm-lock.yaml', 'pnpm'],
    ['yarn.lock', 'yarn'],
    ['bun.lock', 'bun'],
    ['bun.lockb', 'bun'],
  ];
  for (const [file, manager] of locks) if (existsSync(path.join(root, file))) return manager;
  const agent = /^(npm|pnpm|yarn|bun)\//.exec(env.npm_config_user_agent ?? '')?.[1];
  return agent ?? 'npm';
}

/** The dependency changes of a plan's `package.json` item, or `undefined` when it changes none. */
export function dependencyChanges(plan: Plan, env: NodeJS.ProcessEnv): DependencyChanges | undefined {
  const item = plan.items.find((i) => i.path === 'package.json');
  if (!item || (item.write === undefined && !item.remove)) return undefined;
  const command = `${packageManager(plan.root, env)} install`;
  const before = depsOf(item.disk) ?? {};
  const after = depsOf(item.write);
  if (after === undefined) return { added: [], removed: [], changed: [], command, conflicted: true };
  const added = Object.keys(after).filter((n) => !(n in before)).map((n) => `${n}@${after[n]}`);
  const removed = Object.keys(before).filter((n) => !(n in after)).map((n) => `${n}@${before[n]}`);
  const changed = Object.keys(after).filter((n) => n in before && before[n] !== after[n]).map((n) => `${n}@${after[n]}`);
  if (added.length + removed.length + changed.length === 0) return undefined;
  return { added, removed, changed, command };
}

/** One line per kind: `  + vite@8.3.8`. */
function listChanges(changes: DependencyChanges): string {
  const lines = [
    ...changes.added.map((d) => `  + ${d}`),
    ...changes.changed.map((d) => `  ~ ${d}`),
    ...changes.removed.map((d) => `  - ${d}`),
  ];
  return lines.join('\n');
}

/** Runs `command` (`npm install`) in `root`, its output passed through; rejects naming it on failure. */
export function runInstall(root: string, command: string, io: CommandIO): Promise<void> {
  return runCommand(root, command.split(' '), io, `the files are written: fix the cause and run "${command}" again.`);
}

/**
 * Runs `argv` in `root` with the command's environment, its output passed through to `io`;
 * rejects with a {@link CliError} naming the command, its exit status, and `then` (what to do next).
 */
export function runCommand(root: string, argv: readonly string[], io: CommandIO, then: string): Promise<void> {
  const [bin, ...args] = argv;
  const command = argv.join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn(bin!, args, { cwd: root, env: io.env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => io.stdout.write(chunk));
    child.stderr.on('data', (chunk: Buffer) => io.stderr.write(chunk));
    child.on('error', (error) => reject(new CliError(`cannot run "${command}" in ${root}: ${error.message}; ${then}`)));
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new CliError(`"${command}" failed (${signal ?? `exit ${code}`}) in ${root}; ${then}`));
    });
  });
}

/** Asks a yes/no question with @clack/prompts (loaded here, on a terminal only); a cancel is "no". */
export async function confirm(io: CommandIO, message: string, initialValue: boolean): Promise<boolean> {
  const clack = await import('@clack/prompts');
  const answer = await clack.confirm({ input: io.stdin, output: io.stdout, message, initialValue });
  return !clack.isCancel(answer) && answer;
}

/**
 * After a run that changed `package.json`'s dependencies: with `install`, runs the install
 * command; on a terminal (and `install` not set to false), offers to; otherwise prints the exact
 * command. A dry run only says what would change. Returns the text to print (the install's own
 * output goes straight through).
 */
export async function afterDependencyChanges(
  io: CommandIO,
  changes: DependencyChanges,
  options: { dryRun: boolean; install?: boolean | undefined; root: string },
): Promise<string> {
  const list = listChanges(changes);
  if (options.dryRun) return `package.json dependencies would change:\n${list}\n`;
  if (changes.conflicted) return `package.json has conflicts: resolve them, then run "${changes.command}".\n`;
  const head = `package.json dependencies changed:\n${list}\n`;
  let install = options.install;
  if (install === undefined && isInteractive(io)) {
    io.stdout.write(head);
    install = await confirm(io, `Run ${changes.command} now?`, true);
    if (install) {
      await runInstall(options.root, changes.command, io);
      return `Installed with ${changes.command}.\n`;
    }
    return `Run "${changes.command}" to install them (tsc and the app need them).\n`;
  }
  if (install) {
    io.stdout.write(head);
    await runInstall(options.root, changes.command, io);
    return `Installed with ${changes.command}.\n`;
  }
  return `${head}Run "${changes.command}" to install them (tsc and the app need them), or pass --install.\n`;
}

/** The `--install` / `--no-install` options of the commands that may change dependencies. */
export const INSTALL_OPTIONS = {
  install: { type: 'boolean' },
  'no-install': { type: 'boolean' },
} as const;

/**
 * Their help lines, the descriptions starting at `column` (that of the command's other options;
 * at least 15: after "  --no-install ").
 */
export function installHelp(column = 15): string {
  const line = (flag: string, text: string): string => `  ${flag}`.padEnd(Math.max(column, 15)) + text;
  return [
    line('--install', "run the install (npm install) when package.json's dependencies change"),
    line('--no-install', 'never run it, never ask (default: ask on a terminal, else print the command)'),
  ].join('\n');
}

/** The help lines of the commands whose options' descriptions start at column 15. */
export const INSTALL_HELP = installHelp();

/**
 * Environment variable: `off` leaves out the "Next:" line a successful `fw create auth` prints.
 * `create-fw-app --auth` sets it for the `fw create auth` it runs, and prints one "Next steps"
 * block for the whole project itself.
 */
export const NEXT_STEPS_ENV = 'FW_NEXT_STEPS';
