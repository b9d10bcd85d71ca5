import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { validateAdditiveName } from '@fw/schemas';
import { additiveDir } from '../additive/render.js';
import { oneName, negatable, parseCommandArgs } from '../cli/args.js';
import { CliError } from '../cli/errors.js';
import type { CommandIO } from '../cli/io.js';
import { report } from '../cli/report.js';
import { INSTALL_HELP, INSTALL_OPTIONS } from '../cli/install.js';
import { packageVersion } from '../package-info.js';
import type { Plan } from '../pipeline/plan.js';
import type { Tree } from '../pipeline/tree.js';
import { projectCaches } from '../cli/caches.js';
import { readRecord } from '../pipeline/record.js';
import { runPipeline } from '../pipeline/run.js';
import { findProjectRoot } from '../project.js';
import { editAdditives } from '../project/config-edit.js';
import { CONFIG_FILE, loadConfig, validateConfigText } from '../project/config.js';
import { additiveGeneratorId } from '../project/generators.js';
import { registerAdditives, registrationLines, type Registrations } from '../project/regenerate.js';
import { APP_FILE, externalAdditivePackage } from '../project/registrations.js';

/** Usage text of `fw destroy additive`. */
export const help = `Usage: fw destroy additive <name> [options]

Removes the files fw generated for the Additive <name>, its entry in fw.json "additives" and
its registration in fluid/app.ts. Refuses, changing nothing, when you edited one of those files.
Files in additives/<name>/ that fw never generated are kept. For an Additive installed with
fw ocean install, it removes the fw.json entry and the registration, and names the npm uninstall
that removes its package.

Options:
  --force      remove edited files too (your edits are lost)
  --dry-run    print what would be removed and change nothing
  --json       print the result as JSON
${INSTALL_HELP}
  -h, --help   show this help

Example:
  npx fw destroy additive blog`;

/** The files under `dir` (project-relative), sorted. */
async function filesIn(root: string, dir: string): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => !e.isDirectory())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** Refuses (before anything is written) when the user edited a file the destroy would remove. */
function refuseEdited(name: string, plan: Plan): void {
  const refused = plan.items.filter((i) => i.action === 'keep-edited').map((i) => i.path);
  if (refused.length === 0) return;
  throw new CliError(
    `you edited ${refused.length} file(s) of additive "${name}", so nothing was removed: ${refused.join(', ')}. ` +
      'Pass --force to remove them anyway (your edits are lost), or keep what you need elsewhere first.',
  );
}

/** `fw destroy additive <name> [--force]`: gather the record and fw.json → removals and edits → pipeline. Returns the exit code. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const command = 'fw destroy additive';
  const { values, positionals } = parseCommandArgs(command, argv, {
    force: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    json: { type: 'boolean' },
    ...INSTALL_OPTIONS,
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(`${help}\n`);
    return 0;
  }
  const name = oneName(command, positionals, 'the additive to remove');
  const [ok, reason] = validateAdditiveName(name);
  if (!ok) throw new CliError(reason);
  const root = await findProjectRoot(io.cwd);
  const loaded = await loadConfig(root);
  const generator = additiveGeneratorId(name);
  const recorded = Object.values((await readRecord(root))?.files ?? {}).some((e) => e.generator === generator);
  const listed = loaded.config.additives.includes(name);
  // An Additive `fw ocean install` put in: its registration imports the package, and npm owns its files.
  const appText = await readFile(path.join(root, APP_FILE), 'utf8').catch(() => undefined);
  const installed = recorded ? undefined : externalAdditivePackage(appText, name);
  if (!recorded && !listed && installed === undefined) {
    throw new CliError(`no additive "${name}": fw.json "additives" does not list it, fw generated no files for it and ${APP_FILE} registers no package for it`);
  }
  const dryRun = values['dry-run'] === true;
  const dir = additiveDir(name);
  const { formatter, cache } = projectCaches(root, packageVersion(), io.env);
  const result = await runPipeline({
    root,
    command,
    dryRun,
    tree: { formatter, cache, owns: (g) => g === generator, generatorId: generator, removeEdited: values.force === true },
    render: async (tree) => {
      if (listed) {
        const text = editAdditives(loaded.text, (list) => list.filter((n) => n !== name));
        await validateConfigText(text, cache);
        tree.write(CONFIG_FILE, text, { record: false, first: true, reason: `"${name}" removed from "additives"` });
      }
      return installed === undefined ? registerAdditives(tree, [], [name]) : unregisterInstalled(tree, name, installed);
    },
    check: (plan) => refuseEdited(name, plan),
  });
  const removed = new Set(result.plan.items.filter((i) => i.remove).map((i) => i.path));
  const kept = (await filesIn(root, dir)).filter((f) => !removed.has(f));
  return report(io, result, {
    dryRun,
    json: values.json === true,
    install: negatable(command, 'install', values.install, values['no-install']),
    diffs: false,
    lines:
      registrationLines(result.rendered) +
      (kept.length > 0 ? `Kept files fw did not generate: ${kept.join(', ')}\n` : '') +
      (installed === undefined ? '' : `Its package stays installed: run "npm uninstall ${installed}" to remove it.\n`),
    extra: { registrations: result.rendered, kept },
    done: `Destroyed additive "${name}".`,
  });
}

/** Removes the registration of the installed Additive `name` (the import of `pkg` and its `fluid.additive(...)`) from `fluid/app.ts`. */
async function unregisterInstalled(tree: Tree, name: string, pkg: string): Promise<Registrations> {
  const text = await tree.readText(APP_FILE);
  if (text === undefined) return { added: [], removed: [] };
  const { unregisterAdditive } = await import('../codemods/index.js');
  const edit = await unregisterAdditive({ path: APP_FILE, text }, name, { importPath: pkg });
  if (!edit.changed) return { added: [], removed: [] };
  tree.write(APP_FILE, edit.text, { reason: 'Additive registrations updated' });
  return { added: [], removed: [name] };
}
