import { parseCommandArgs } from '../cli/args.js';
import { CliError } from '../cli/errors.js';
import type { CommandIO } from '../cli/io.js';
import { findProjectRoot } from '../project.js';
import { applyGenerate, exitCodeOf, formatGenerate, generateJSON, planGenerate } from '../project/generate.js';
import { withProjectLock } from '../project/lock.js';

/** Usage text of `fw generate`. */
export const help = `Usage: fw generate [options]

Re-renders every generated file from the current fw.json and merges it with your edits
(three-way: what fw generated last time, your file, the new render). Untouched files update,
edited files merge, overlapping changes get conflict markers and exit status 1. Nothing of
yours is overwritten. See docs/regeneration.md.

Options:
  --dry-run    classify every file and print unified diffs; write nothing
  --json       print the result as JSON (with --dry-run: including the diffs)
  -h, --help   show this help

Examples:
  npx fw generate --dry-run
  npx fw generate`;

/** `fw generate [--dry-run] [--json]`. Returns the exit code (1 when a file needs your attention). */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const command = 'fw generate';
  const { values, positionals } = parseCommandArgs(command, argv, {
    'dry-run': { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(`${help}\n`);
    return 0;
  }
  if (positionals.length > 0) throw new CliError(`${command}: unexpected argument ${positionals.join(' ')}; it takes only options.`);
  const root = await findProjectRoot(io.cwd);
  const dryRun = values['dry-run'] === true;
  const work = async (): Promise<number> => {
    const gp = await planGenerate({ root });
    const leftovers = dryRun ? [] : await applyGenerate(gp);
    if (values.json) io.stdout.write(`${JSON.stringify(generateJSON(gp, { dryRun, leftovers }), null, 2)}\n`);
    else io.stdout.write(formatGenerate(gp, { dryRun, leftovers }));
    return exitCodeOf(gp);
  };
  return dryRun ? work() : withProjectLock(root, command, work);
}
