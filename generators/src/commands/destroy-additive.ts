import { oneName, parseCommandArgs } from '../cli/args.js';
import type { CommandIO } from '../cli/io.js';
import { findProjectRoot } from '../project.js';
import { destroyAdditive } from '../project/additive.js';
import { withProjectLock } from '../project/lock.js';
import { summarise } from '../regen/summary.js';

/** Usage text of `fw destroy additive`. */
export const help = `Usage: fw destroy additive <name> [options]

Removes the files fw generated for the Additive <name>, its entry in fw.json "additives" and
its registration in fluid/app.ts. Refuses, changing nothing, when you edited one of those files.
Files in additives/<name>/ that fw never generated are kept.

Options:
  --force      remove edited files too (your edits are lost)
  --dry-run    print what would be removed and change nothing
  -h, --help   show this help

Example:
  npx fw destroy additive blog`;

/** `fw destroy additive <name> [--force]`. Returns the exit code. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const command = 'fw destroy additive';
  const { values, positionals } = parseCommandArgs(command, argv, {
    force: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(`${help}\n`);
    return 0;
  }
  const name = oneName(command, positionals, 'the additive to remove');
  const root = await findProjectRoot(io.cwd);
  const dryRun = values['dry-run'] === true;
  const work = async (): Promise<number> => {
    const result = await destroyAdditive({ root, name, force: values.force === true, dryRun });
    let out = summarise(result.plan);
    if (result.unregistered) out += `  unregister    fluid/app.ts  (fluid.additive(...) of ${name} removed)\n`;
    if (result.configChanged) out += `  update        fw.json  ("${name}" removed from "additives")\n`;
    if (result.kept.length > 0) out += `Kept files fw did not generate: ${result.kept.join(', ')}\n`;
    out += dryRun ? 'Dry run: nothing was changed.\n' : `Destroyed additive "${name}".\n`;
    io.stdout.write(out);
    return 0;
  };
  return dryRun ? work() : withProjectLock(root, command, work);
}
