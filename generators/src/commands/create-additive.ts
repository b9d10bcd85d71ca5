import { access } from 'node:fs/promises';
import path from 'node:path';
import { validateAdditiveName } from '@fw/schemas';
import { additiveDir, appIconHref, renderAdditive } from '../additive/render.js';
import { oneName, negatable, parseCommandArgs } from '../cli/args.js';
import { CliError } from '../cli/errors.js';
import type { CommandIO } from '../cli/io.js';
import { report } from '../cli/report.js';
import { INSTALL_HELP, INSTALL_OPTIONS } from '../cli/install.js';
import { packageVersion } from '../package-info.js';
import { projectCaches } from '../cli/caches.js';
import { runPipeline } from '../pipeline/run.js';
import type { Tree } from '../pipeline/tree.js';
import { findProjectRoot } from '../project.js';
import type { Cache } from '../pipeline/cache.js';
import { editAdditives } from '../project/config-edit.js';
import { CONFIG_FILE, loadConfig, validateConfigText, type LoadedConfig } from '../project/config.js';
import { additiveGeneratorId } from '../project/generators.js';
import { registerAdditives, registrationLines, validateManifest, type Registrations } from '../project/regenerate.js';
import { APP_FILE, externalAdditives } from '../project/registrations.js';

/** Usage text of `fw create additive`. */
export const help = `Usage: fw create additive <name> [options]

Creates the Additive <name> in additives/<name>/: manifest.json, index.ts (the Additive), typed
api.ts (/api/<name>/status) and app.ts (its page at /<name>/), the page's template and
stylesheet, and <name>.test.ts. Adds <name> to fw.json "additives" and registers it in
fluid/app.ts. Refuses, writing nothing, when its routes, the paths it is mounted at or its
templates clash with the app's or another Additive's.

<name>: lowercase letters, digits, "-" and "_", starting with a letter; not fluid, api, ws,
static, frontend, vite-dev, additives, node_modules or a JavaScript reserved word.

Options:
  --force      create it even when its routes or templates clash with existing ones
  --dry-run    print what would be written and write nothing
  --json       print the result as JSON
${INSTALL_HELP}
  -h, --help   show this help

Example:
  npx fw create additive blog`;

/** Renders the Additive, the `fw.json` entry and the registration into the tree; refuses on a clash unless `force`. */
async function render(tree: Tree, loaded: LoadedConfig, name: string, force: boolean, cache: Cache): Promise<Registrations> {
  const { config } = loaded;
  const text = editAdditives(loaded.text, (list) => [...list, name]);
  await validateConfigText(text, cache);
  tree.write(CONFIG_FILE, text, { record: false, first: true, reason: `"${name}" added to "additives"` });
  await renderAdditive(tree, name, config.name, appIconHref(config.config.APP_FRONTEND ?? loaded.defaults.APP_FRONTEND));
  const manifest = `${additiveDir(name)}/manifest.json`;
  const manifestText = await tree.readText(manifest);
  if (manifestText === undefined) {
    // The record remembers files fw wrote there that you deleted, and a deleted file stays deleted.
    throw new CliError(
      `fw create additive: ${additiveDir(name)}/ was created before and its files deleted by hand, and fw keeps what you delete deleted. Run "fw destroy additive ${name} --force" to forget it, then create it again.`,
    );
  }
  await validateManifest(name, manifestText, cache);
  const external = externalAdditives(await tree.readText(APP_FILE), config.additives);
  const others = config.additives.filter((n) => !external.has(n));
  if (!force) {
    const { additiveProposal, checkCollisions, describeCollisions } = await import('../codemods/index.js');
    const proposal = await additiveProposal(tree, name);
    const clashes = await checkCollisions(tree, proposal, others);
    if (clashes.length > 0) throw new CliError(describeCollisions(proposal, clashes));
  }
  return registerAdditives(tree, [name], []);
}

/** `fw create additive <name>`: gather the name and fw.json → render the Additive → pipeline. Returns the exit code. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const command = 'fw create additive';
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
  const name = oneName(command, positionals, 'the additive to create');
  const [ok, reason] = validateAdditiveName(name);
  if (!ok) throw new CliError(reason);
  const root = await findProjectRoot(io.cwd);
  const loaded = await loadConfig(root);
  if (loaded.config.additives.includes(name)) throw new CliError(`additive "${name}" already exists: fw.json "additives" lists it`);
  if (await access(path.join(root, additiveDir(name))).then(() => true, () => false)) {
    throw new CliError(`${additiveDir(name)} already exists; choose another name or remove that folder first`);
  }
  const dryRun = values['dry-run'] === true;
  const generator = additiveGeneratorId(name);
  const { formatter, cache } = projectCaches(root, packageVersion(), io.env);
  const result = await runPipeline({
    root,
    command,
    dryRun,
    tree: { formatter, cache, owns: (g) => g === generator, generatorId: generator },
    render: (tree) => render(tree, loaded, name, values.force === true, cache),
  });
  return report(io, result, {
    dryRun,
    json: values.json === true,
    install: negatable(command, 'install', values.install, values['no-install']),
    lines: registrationLines(result.rendered),
    failed: result.rendered.note !== undefined,
    extra: { registrations: result.rendered },
    done: `Created additive "${name}" in ${additiveDir(name)}/; it serves /${name}/ and /api/${name}/status.`,
  });
}
