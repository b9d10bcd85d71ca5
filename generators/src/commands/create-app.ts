import { randomBytes } from 'node:crypto';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { validateProjectName } from '@fw/schemas';
import { oneName, parseCommandArgs } from '../cli/args.js';
import { CliError } from '../cli/errors.js';
import type { CommandIO } from '../cli/io.js';
import { commit } from '../engine/commit.js';
import { FileTree } from '../engine/file-tree.js';
import { plan, type Plan } from '../engine/plan.js';
import { formatPlan } from '../engine/print.js';
import { findProjectRoot } from '../project.js';

/** Usage text of `fw create app`. */
export const help = `Usage: fw create app <name> [options]

Writes app_configs/<name>.ini with a fresh SECRET_KEY (64 hex characters) and DEBUG = false.
The kernel reads it when FW_APP=<name>; the default app is the project's own name.

Options:
  --force      replace an existing app_configs/<name>.ini (and its SECRET_KEY)
  --dry-run    print what would be written and write nothing
  -h, --help   show this help

Example:
  npx fw create app my-app`;

/** Options of {@link createApp}. */
export interface CreateAppOptions {
  name: string;
  force?: boolean;
  dryRun?: boolean;
}

/** The ini text of a fresh app config. */
export function appConfigText(name: string, secretKey: string): string {
  return [
    `; Runtime config of the app "${name}" (selected with FW_APP=${name}; the default app is the project name).`,
    '; Keys here override fw.json "config"; environment variables override these. Any key X may be',
    '; given as X_FILE = <path> to read its value from a file. Keep this file out of public repositories.',
    `SECRET_KEY = ${secretKey}`,
    'DEBUG = false',
    '',
  ].join('\n');
}

/**
 * Writes `app_configs/<name>.ini` through the engine (UTF-8, atomic, not kept in the generation
 * record because it holds a secret). Refuses to replace an existing file unless `force`.
 */
export async function createApp(options: CreateAppOptions, io: CommandIO): Promise<{ root: string; file: string; plan: Plan }> {
  const [ok, reason] = validateProjectName(options.name);
  if (!ok) throw new CliError(reason.replace(/^project name/, 'app name'));
  const root = await findProjectRoot(io.cwd);
  const file = `app_configs/${options.name}.ini`;
  const exists = await access(path.join(root, file)).then(() => true, () => false);
  if (exists && !options.force) {
    throw new CliError(`${file} already exists; pass --force to replace it (its SECRET_KEY changes, which signs out every session).`);
  }
  const tree = new FileTree();
  tree.write(file, appConfigText(options.name, randomBytes(32).toString('hex')), {
    generator: 'create-app',
    mode: 0o600,
    format: false,
    record: false,
  });
  const appPlan = await plan(tree, root);
  if (!options.dryRun) await commit(appPlan);
  return { root, file, plan: appPlan };
}

/** `fw create app <name>`. Returns the exit code. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const command = 'fw create app';
  const { values, positionals } = parseCommandArgs(command, argv, {
    force: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(`${help}\n`);
    return 0;
  }
  const name = oneName(command, positionals, 'the app to configure');
  const result = await createApp({ name, force: values.force, dryRun: values['dry-run'] }, io);
  if (values['dry-run']) {
    io.stdout.write(formatPlan(result.plan));
    io.stdout.write('Dry run: nothing was written.\n');
  } else {
    io.stdout.write(`Wrote ${result.file} with a fresh SECRET_KEY.\n`);
  }
  return 0;
}
