import { negatable, parseOptionsOnly } from '../cli/args.js';
import type { CommandIO } from '../cli/io.js';
import { report } from '../cli/report.js';
import { INSTALL_HELP, INSTALL_OPTIONS } from '../cli/install.js';
import { packageVersion } from '../package-info.js';
import { projectCaches } from '../cli/caches.js';
import { runPipeline } from '../pipeline/run.js';
import { findProjectRoot } from '../project.js';
import { isMakeGenerator } from '../project/generators.js';
import { registrationLines, renderWholeProject, writeWarnings } from '../project/regenerate.js';

/** Usage text of `fw generate`. */
export const help = `Usage: fw generate [options]

Re-renders every generated file from the current fw.json and merges it with your edits
(three-way: what fw generated last time, your file, the new render). Untouched files update,
edited files merge, overlapping changes get conflict markers and exit status 1. Nothing of
yours is overwritten. See: npx fw docs regeneration

Options:
  --dry-run    classify every file and print unified diffs; write nothing
  --json       print the result as JSON (with --dry-run: including the diffs)
${INSTALL_HELP}
  -h, --help   show this help

Examples:
  npx fw generate --dry-run
  npx fw generate`;

/** `fw generate [--dry-run] [--json]`: gather fw.json → render the whole project → pipeline. Returns the exit code. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const command = 'fw generate';
  const values = parseOptionsOnly(command, argv, {
    'dry-run': { type: 'boolean' },
    json: { type: 'boolean' },
    ...INSTALL_OPTIONS,
  }, { text: help, write: (text) => io.stdout.write(text) });
  if (!values) return 0;
  const root = await findProjectRoot(io.cwd);
  const dryRun = values['dry-run'] === true;
  const { formatter, cache } = projectCaches(root, packageVersion(), io.env);
  const result = await runPipeline({
    root,
    command,
    dryRun,
    // The files `fw make` wrote are yours once written: regenerating leaves them as they are.
    tree: { formatter, cache, owns: 'all', leaves: isMakeGenerator, generatorId: command },
    render: (tree) => renderWholeProject(tree, { cache, env: io.env }),
  });
  const registrations = result.rendered;
  const code = await report(io, result, {
    dryRun,
    json: values.json === true,
    install: negatable(command, 'install', values.install, values['no-install']),
    lines: registrationLines(registrations),
    failed: registrations.note !== undefined,
    extra: { registrations, seeds: result.plan.items.filter((i) => i.action === 'seed').map((i) => i.path) },
  });
  writeWarnings(io, registrations);
  return code;
}
