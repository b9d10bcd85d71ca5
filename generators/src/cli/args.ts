import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './errors.js';

/** Option definitions as `node:util` `parseArgs` takes them. */
export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/**
 * Parses a command's argv strictly with `node:util` `parseArgs`; an unknown option or a missing
 * value becomes a {@link CliError} naming the command and pointing at its `--help`.
 */
export function parseCommandArgs<T extends OptionSpec>(
  command: string,
  argv: string[],
  options: T,
): ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>> {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError(`${command}: ${reason}. Run "${command} --help" for usage.`);
  }
}

/** Resolves a `--x` / `--no-x` pair: `undefined` when neither was given; both is an error. */
export function negatable(command: string, name: string, yes: boolean | undefined, no: boolean | undefined): boolean | undefined {
  if (yes && no) throw new CliError(`${command}: --${name} and --no-${name} contradict each other; give one.`);
  if (yes) return true;
  if (no) return false;
  return undefined;
}

/**
 * The one `<name>` a command takes (`fw create app <name>`, `fw create additive <name>`, ...):
 * a missing or an extra argument is a {@link CliError} saying what the name is for (`what`).
 */
export function oneName(command: string, positionals: string[], what: string): string {
  const [name, ...extra] = positionals;
  if (name === undefined) throw new CliError(`${command}: missing <name>, ${what}. Run "${command} --help" for usage.`);
  if (extra.length > 0) throw new CliError(`${command}: unexpected argument ${extra.join(' ')}; give one <name>.`);
  return name;
}
