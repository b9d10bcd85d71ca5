import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CommandIO } from '../cli/io.js';
import { writeFileAtomic } from '../engine/atomic.js';
import type { InstalledAdditive } from '../ocean/install.js';
import { findProjectRoot } from '../project.js';
import { editAdditives, loadConfig, writeConfig } from '../project/config.js';
import { withProjectLock } from '../project/lock.js';
import { APP_FILE } from '../project/registrations.js';

/**
 * The `register` hook of `fw ocean install`: each installed Additive is registered in
 * `fluid/app.ts` by the `registerAdditive` codemod with its npm package as the import path
 * (`import blog from '@fw/additive-blog'` + `fluid.additive(blog)`), and its id is appended to
 * `fw.json` `additives`. Both files are written atomically; if anything throws, the ocean library
 * restores them byte for byte. `fw generate` recognises such Additives by their package import
 * and generates nothing for them.
 */
export async function registerInstalled(projectRoot: string, installed: readonly InstalledAdditive[]): Promise<void> {
  const { registerAdditive } = await import('../codemods/index.js');
  const appPath = path.join(projectRoot, APP_FILE);
  const before = await readFile(appPath, 'utf8');
  let text = before;
  for (const a of installed) text = (await registerAdditive({ path: APP_FILE, text }, a.id, { importPath: a.package })).text;
  const loaded = await loadConfig(projectRoot);
  const ids = installed.map((a) => a.id);
  const config = editAdditives(loaded.text, (list) => [...list, ...ids.filter((id) => !list.includes(id))]);
  if (config !== loaded.text) await writeConfig(projectRoot, config);
  if (text !== before) await writeFileAtomic(appPath, Buffer.from(text, 'utf8'), 0o644, APP_FILE);
}

/** `fw ocean install ...`: the ocean library's command with {@link registerInstalled}, under the project lock. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const { oceanInstallCommand } = await import('../ocean/cli.js');
  const command = oceanInstallCommand(registerInstalled);
  if (argv.includes('--help') || argv.includes('-h')) return command(argv, io);
  const root = await findProjectRoot(io.cwd);
  return withProjectLock(root, 'fw ocean install', () => command(argv, io));
}
