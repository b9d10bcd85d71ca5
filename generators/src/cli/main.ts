import { CliError } from './errors.js';
import { processIO, type CommandIO } from './io.js';

/** A command entry point: argv after the command words, the IO, and the exit code it returns. */
export type CommandMain = (argv: string[], io: CommandIO) => Promise<number>;

/**
 * Runs a command as a process: prints any error as `error: <message>` on stderr (with the stack
 * when FW_DEBUG is set) and sets the exit code (1 unless a {@link CliError} says otherwise).
 */
export async function runMain(main: CommandMain, argv: string[]): Promise<void> {
  const io = processIO();
  try {
    process.exitCode = await main(argv, io);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`error: ${message}\n`);
    if (io.env.FW_DEBUG && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    process.exitCode = error instanceof CliError ? error.exitCode : 1;
  }
}
