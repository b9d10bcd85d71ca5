import { oneName, parseCommandArgs } from '../cli/args.js';
import type { CommandIO } from '../cli/io.js';
import { findProjectRoot } from '../project.js';
import { createAdditive } from '../project/additive.js';
import { exitCodeOf, formatGenerate } from '../project/generate.js';
import { withProjectLock } from '../project/lock.js';

/** Usage text of `fw create additive`. */
export const help = `Usage: fw create additive <name> [options]

Creates the Additive <name> in additives/<name>/: manifest.json, index.ts (the Additive),
typed api, app and ws routers, beforeRequest/afterRequest hooks, beforeEnable, templates/ and
static/. Adds <name> to fw.json "additives" and registers it in fluid/app.ts.

<name>: lowercase letters, digits, "-" and "_", starting with a letter; not fluid, api, ws,
static, frontend, vite-dev, additives, node_modules or a JavaScript reserved word.

Options:
  --dry-run    print what would be written and write nothing
  -h, --help   show this help

Example:
  npx fw create additive blog`;

/** `fw create additive <name>`. Returns the exit code. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const command = 'fw create additive';
  const { values, positionals } = parseCommandArgs(command, argv, {
    'dry-run': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(`${help}\n`);
    return 0;
  }
  const name = oneName(command, positionals, 'the additive to create');
  const root = await findProjectRoot(io.cwd);
  const dryRun = values['dry-run'] === true;
  const work = async (): Promise<number> => {
    const gp = await createAdditive({ root, name, dryRun });
    io.stdout.write(formatGenerate(gp, { dryRun }));
    if (!dryRun) io.stdout.write(`Created additive "${name}" in additives/${name}/; it serves /${name}/, /api/${name}/status and /ws/${name}/echo.\n`);
    return exitCodeOf(gp);
  };
  return dryRun ? work() : withProjectLock(root, command, work);
}
