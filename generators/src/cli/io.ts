import type { Readable, Writable } from 'node:stream';

/** The streams and working directory a command runs with (tests pass their own). */
export interface CommandIO {
  cwd: string;
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable;
  env: NodeJS.ProcessEnv;
}

/** The real process streams. */
export function processIO(): CommandIO {
  return { cwd: process.cwd(), stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
}

/** Whether the command may ask questions: both stdin and stdout are terminals. */
export function isInteractive(io: CommandIO): boolean {
  return io.stdin.isTTY === true && io.stdout.isTTY === true;
}
