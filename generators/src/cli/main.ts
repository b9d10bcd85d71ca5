import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError } from './errors.js';
import { processIO, type CommandIO } from './io.js';

/** A command entry point: argv after the command words, the IO, and the exit code it returns. */
export type CommandMain = (argv: string[], io: CommandIO) => Promise<number>;

/** The folder of the fw CLI itself (its frames are never "where your code threw"). */
const CLI_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Where an error that is not fw's own came from: the first stack frame in a file of the user's
 * under `cwd` (not in node_modules, not Node's, not the CLI's), as `fluid/db.ts:9:31` relative to it.
 */
export function userFrame(error: Error, cwd: string): string | undefined {
  for (const line of stackFrames(error)) {
    const frame = userFile(line, cwd);
    if (frame) return frame;
  }
  return undefined;
}

/** The user's frame when the user's own code threw the error (its top frame is theirs). */
function thrownByUser(error: Error, cwd: string): string | undefined {
  const top = stackFrames(error)[0];
  return top === undefined ? undefined : userFile(top, cwd);
}

function stackFrames(error: Error): string[] {
  return (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
}

/** `fluid/db.ts:9:31` for a stack line in a file of the user's (in the project, not a package), else undefined. */
function userFile(line: string, cwd: string): string | undefined {
  const match = /(?:\(|at )(?:file:\/\/)?(\/[^():]+):(\d+):(\d+)\)?\s*$/.exec(line);
  if (!match) return undefined;
  const file = match[1]!;
  if (file.includes('/node_modules/') || file.startsWith(CLI_ROOT + path.sep)) return undefined;
  // Outside the project: a linked package (npm link, a workspace), never the user's own code.
  const relative = path.relative(cwd, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return `${relative}:${match[2]}:${match[3]}`;
}

const PROGRAMMING_ERRORS = new Set(['TypeError', 'ReferenceError', 'RangeError', 'SyntaxError']);

/** A value read from a module that is still loading (an import cycle) fails with one of these. */
const TOO_EARLY = /Cannot read properties of undefined|before initialization/;

/** What the terminal says about an error a command failed with (see {@link runMain}). */
export interface FailureReport {
  /** The error's message (`error: <message>` on the terminal). */
  message: string;
  /** Where the user's own code threw it, as `fluid/db.ts:9:31` relative to the project (`  at <frame>`). */
  frame?: string;
  /** A line of advice about it (an import cycle). */
  hint?: string;
}

/**
 * The facts {@link runMain} prints for an error: its message and, for programming errors and
 * errors the user's code threw itself (`throw new Error(...)` in fluid/app.ts), the file and line
 * they came from (fw's and the kernel's own errors say what is wrong themselves). `fw dev`'s page
 * for an app that cannot start shows the same (docs/dev.md).
 */
export function failureReport(error: unknown, cwd: string): FailureReport {
  const message = error instanceof Error ? error.message : String(error);
  const frame =
    error instanceof Error && !(error instanceof CliError)
      ? PROGRAMMING_ERRORS.has(error.name)
        ? userFrame(error, cwd)
        : thrownByUser(error, cwd)
      : undefined;
  if (!frame) return { message };
  if (!TOO_EARLY.test(message)) return { message, frame };
  const hint =
    `${frame.replace(/:\d+:\d+$/, '')} read a value of a module that was still loading. If it imports fluid/app.ts (directly or not) ` +
    'while fluid/app.ts imports it, the app does not exist yet when it runs: take what it needs from the config instead ' +
    '(npx fw docs databases shows a fluid/db.ts that does).';
  return { message, frame, hint };
}

/**
 * Runs a command as a process: prints any error as `error: <message>` on stderr (with the stack
 * when FW_DEBUG is set) and sets the exit code (1 unless a {@link CliError} says otherwise). An
 * error thrown by the app's own code (`fw run` loading `fluid/app.ts`: a programming error, or
 * one its code threw itself) also names the file and line it came from, and a read of a module
 * that was still loading says it may be an import cycle ({@link failureReport}).
 */
export async function runMain(main: CommandMain, argv: string[]): Promise<void> {
  const io = processIO();
  // A reader that stopped reading (`npx fw docs deployment | head`) is not a failure of fw's.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
  try {
    process.exitCode = await main(argv, io);
  } catch (error) {
    const report = failureReport(error, io.cwd);
    io.stderr.write(`error: ${report.message}\n`);
    if (report.frame) io.stderr.write(`  at ${report.frame}\n`);
    if (report.hint) io.stderr.write(`  ${report.hint}\n`);
    if (io.env.FW_DEBUG && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    process.exitCode = error instanceof CliError ? error.exitCode : 1;
  }
}
