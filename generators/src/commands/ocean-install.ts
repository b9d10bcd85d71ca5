import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CommandIO } from '../cli/io.js';
import type { InstalledAdditive } from '../ocean/install.js';
import { withProjectLock } from '../pipeline/lock.js';
import { apply } from '../pipeline/apply.js';
import { Tree } from '../pipeline/tree.js';
import { findProjectRoot } from '../project.js';
import { packageVersion } from '../package-info.js';
import { Cache } from '../pipeline/cache.js';
import { formatConfig } from '../pipeline/format.js';
import { editAdditives } from '../project/config-edit.js';
import { CONFIG_FILE, loadConfig, validateConfigText } from '../project/config.js';
import { APP_FILE } from '../project/registrations.js';

/**
 * The `register` hook of `fw ocean install`, through the pipeline: each installed Additive is
 * registered in `fluid/app.ts` by the `registerAdditive` codemod with its npm package as the import
 * path (`import blog from '@fw/additive-blog'` + `fluid.additive(blog)`), and its id is appended
 * to `fw.json` `additives` (first, in place). If anything throws, the ocean library restores both
 * files byte for byte. `fw generate` recognises such Additives by their package import and
 * generates nothing for them.
 */
export async function registerInstalled(projectRoot: string, installed: readonly InstalledAdditive[]): Promise<void> {
  const { registerAdditive } = await import('../codemods/index.js');
  const cache = Cache.load(projectRoot, formatConfig(projectRoot, packageVersion()), process.env.FW_CACHE !== 'off');
  const tree = new Tree(projectRoot, { owns: () => false, generatorId: 'fw ocean install', cache });
  let text = await readFile(path.join(projectRoot, APP_FILE), 'utf8');
  for (const a of installed) text = (await registerAdditive({ path: APP_FILE, text }, a.id, { importPath: a.package })).text;
  tree.write(APP_FILE, text, { reason: 'installed Additives registered' });
  const loaded = await loadConfig(projectRoot);
  const ids = installed.map((a) => a.id);
  const config = editAdditives(loaded.text, (list) => [...list, ...ids.filter((id) => !list.includes(id))]);
  await validateConfigText(config, cache);
  tree.write(CONFIG_FILE, config, { record: false, first: true });
  await apply(await tree.plan());
}

/** `fw ocean install ...`: the ocean library's command with {@link registerInstalled}, under the project lock. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const { OCEAN_INSTALL_USAGE, parseOceanInstallArgs } = await import('../ocean/args.js');
  // Help and bad arguments need no project.
  if (parseOceanInstallArgs(argv).help) {
    io.stdout.write(`${OCEAN_INSTALL_USAGE}\n`);
    return 0;
  }
  const { oceanInstallCommand } = await import('../ocean/cli.js');
  const command = oceanInstallCommand(registerInstalled);
  const root = await findProjectRoot(io.cwd);
  return withProjectLock(root, 'fw ocean install', () => command(argv, io));
}
