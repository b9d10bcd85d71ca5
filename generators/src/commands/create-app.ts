import { access } from 'node:fs/promises';
import path from 'node:path';
import { validateProjectName } from '@fw/schemas';
import { oneName, parseCommandArgs } from '../cli/args.js';
import { CliError } from '../cli/errors.js';
import type { CommandIO } from '../cli/io.js';
import { report } from '../cli/report.js';
import { runPipeline, type PipelineResult } from '../pipeline/run.js';
import { findProjectRoot } from '../project.js';
import { appConfigPath, writeAppConfig } from '../project/app-config.js';

/** Usage text of `fw create app`. */
export const help = `Usage: fw create app <name> [options]

Writes app_configs/<name>.ini with a fresh SECRET_KEY (64 hex characters). DEBUG is left unset:
it is on under "npm run dev" (fw dev sets FW_ENV=development) and off under "npm start".
The kernel reads it when FW_APP=<name>; the default app is the project's own name.

Options:
  --force      replace an existing app_configs/<name>.ini (and its SECRET_KEY)
  --dry-run    print what would be written and write nothing
  --json       print the result as JSON
  -h, --help   show this help

Example:
  npx fw create app my-app`;

/** Options of {@link createApp}. */
export interface CreateAppOptions {
  name: string;
  force?: boolean;
  dryRun?: boolean;
}

/**
 * Writes `app_configs/<name>.ini` through the pipeline (UTF-8, atomic, mode 0600, not kept in the
 * generation record because it holds a secret). Refuses to replace an existing file unless `force`.
 */
export async function createApp(options: CreateAppOptions, io: CommandIO): Promise<PipelineResult<string> & { root: string; file: string }> {
  const [ok, reason] = validateProjectName(options.name);
  if (!ok) throw new CliError(reason.replace(/^project name/, 'app name'));
  const root = await findProjectRoot(io.cwd);
  const file = appConfigPath(options.name);
  if (!options.force && (await access(path.join(root, file)).then(() => true, () => false))) {
    throw new CliError(`${file} already exists; pass --force to replace it (its SECRET_KEY changes, which signs out every session).`);
  }
  const result = await runPipeline({
    root,
    command: 'fw create app',
    dryRun: options.dryRun === true,
    tree: { generatorId: 'create-app' },
    render: async (tree) => writeAppConfig(tree, options.name),
  });
  return { ...result, root, file };
}

/** `fw create app <name>`. Returns the exit code. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const command = 'fw create app';
  const { values, positionals } = parseCommandArgs(command, argv, {
    force: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(`${help}\n`);
    return 0;
  }
  const name = oneName(command, positionals, 'the app to configure');
  const dryRun = values['dry-run'] === true;
  const result = await createApp({ name, force: values.force, dryRun }, io);
  if (!dryRun && values.json !== true) {
    io.stdout.write(`Wrote ${result.file} with a fresh SECRET_KEY.\n`);
    return 0;
  }
  return report(io, result, { dryRun, json: values.json === true, diffs: false });
}
