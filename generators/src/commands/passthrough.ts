import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CliError } from '../cli/errors.js';
import type { CommandIO } from '../cli/io.js';
import { findProjectRoot } from '../project.js';
import { resolveKernel } from './run.js';

/** Usage text of `fw tailwind`. */
export const tailwindHelp = `Usage: fw tailwind -- <tailwind arguments>

Runs the project's Tailwind CLI (@tailwindcss/cli) with the terminal attached; everything after
"--" is passed on untouched. Example: npx fw tailwind -- -i fluid/static/app.css -o out.css`;

/** Usage text of `fw node`. */
export const nodeHelp = `Usage: fw node <command> [args...]

Runs a Node/npm command with the Node runtime the frontend uses (its folder first on PATH), with
the terminal attached, and exits with its status. Example: npx fw node npm install`;

type Cli = (argv: readonly string[], cwd: string) => Promise<unknown>;

/** A passthrough function of the project's own `@fw/kernel/frontend` (never the CLI's), by export name. */
async function kernelCli(root: string, name: 'tailwindCli' | 'nodeCli'): Promise<Cli> {
  resolveKernel(root); // a clear error when the kernel is not installed
  let kernelPath: string;
  try {
    kernelPath = createRequire(path.join(root, 'package.json')).resolve('@fw/kernel/frontend');
  } catch {
    throw new CliError(`@fw/kernel in ${root} has no @fw/kernel/frontend: is @fw/kernel up to date?`);
  }
  const kernel = (await import(pathToFileURL(kernelPath).href)) as Record<string, unknown>;
  const fn = kernel[name];
  if (typeof fn !== 'function') throw new CliError(`${kernelPath} does not export ${name}: is @fw/kernel up to date?`);
  return fn as Cli;
}

function asCliError(error: unknown): never {
  throw error instanceof Error && !(error instanceof CliError) ? new CliError(error.message) : error;
}

/** `fw tailwind -- <args>`: the kernel's `tailwindCli` in the project root. Returns the exit code. */
export async function runTailwind(argv: string[], io: CommandIO): Promise<number> {
  if (argv[0] === '--help' || argv[0] === '-h') {
    io.stdout.write(`${tailwindHelp}\n`);
    return 0;
  }
  const root = await findProjectRoot(io.cwd);
  const cli = await kernelCli(root, 'tailwindCli');
  await cli(argv, root).catch(asCliError);
  return 0;
}

/** `fw node <cmd...>`: the kernel's `nodeCli` in the project root. Returns the command's exit code. */
export async function runNode(argv: string[], io: CommandIO): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h') {
    io.stdout.write(`${nodeHelp}\n`);
    return argv.length === 0 ? 1 : 0;
  }
  const root = await findProjectRoot(io.cwd);
  const cli = await kernelCli(root, 'nodeCli');
  const code = await cli(argv, root).catch(asCliError);
  return typeof code === 'number' ? code : 0;
}
