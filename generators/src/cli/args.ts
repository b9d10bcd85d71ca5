import { parseArgs, type ParseArgsConfig } from 'node:util';
import { didYouMean } from '@fw/schemas/suggest';
import { CliError } from './errors.js';

/** Option definitions as `node:util` `parseArgs` takes them. */
export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** Every spelling of the options (`--dry-run`, `-h`), for a did-you-mean. */
function spellings(options: OptionSpec): string[] {
  return Object.entries(options).flatMap(([name, spec]) => [`--${name}`, ...(spec.short ? [`-${spec.short}`] : [])]);
}

/** The `--option` a `parseArgs` error is about (its message quotes it). */
function optionIn(message: string): string {
  return /'(-[^' <,]+)/.exec(message.replace(/^Option '-\w, /, "Option '"))?.[1] ?? 'an option';
}

/**
 * Parses a command's argv strictly with `node:util` `parseArgs`; an unknown option (with a
 * did-you-mean) or a missing value becomes a {@link CliError} naming the command and pointing at
 * its `--help`, instead of Node's own text.
 */
export function parseCommandArgs<T extends OptionSpec>(
  command: string,
  argv: string[],
  options: T,
): ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>> {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    const usage = `Run "${command} --help" for usage.`;
    const code = (error as NodeJS.ErrnoException).code;
    const message = error instanceof Error ? error.message : String(error);
    const option = optionIn(message);
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      throw new CliError(`${command}: unknown option ${option}${didYouMean(option, spellings(options))}. ${usage}`);
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      if (/does not take an argument/.test(message)) throw new CliError(`${command}: ${option} takes no value. ${usage}`);
      throw new CliError(`${command}: ${option} needs a value (${option} <value>). ${usage}`);
    }
    throw new CliError(`${command}: ${message}. ${usage}`);
  }
}

const HELP = { help: { type: 'boolean', short: 'h' } } as const satisfies OptionSpec;

/**
 * For a command that takes only options (and `-h`/`--help`): parses `argv` as
 * {@link parseCommandArgs} does, refuses any positional argument, and prints `help` and answers
 * `undefined` when help was asked for.
 */
export function parseOptionsOnly<T extends OptionSpec>(
  command: string,
  argv: string[],
  options: T,
  help: { text: string; write(text: string): unknown },
): ReturnType<typeof parseCommandArgs<T & typeof HELP>>['values'] | undefined {
  const { values, positionals } = parseCommandArgs(command, argv, { ...options, ...HELP });
  if ((values as { help?: boolean }).help === true) {
    help.write(`${help.text}\n`);
    return undefined;
  }
  if (positionals.length > 0) throw new CliError(`${command}: unexpected argument ${positionals.join(' ')}; it takes only options.`);
  return values;
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

/** Whether argv asks for the version (`--version` or `-v` as the only word). */
export function wantsVersion(argv: readonly string[]): boolean {
  return argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v');
}
