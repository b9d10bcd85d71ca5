import type { CommandIO } from '../cli/io.js';
import { findProjectRoot } from '../project.js';
import { oceanInstall, oceanSearch } from './commands.js';
import type { InstalledAdditive } from './install.js';

/** A `fw` command module entry point: argv after the command words → exit code. */
export type OceanCommandRun = (argv: string[], io: CommandIO) => Promise<number>;

/**
 * `fw ocean search [term]` in the CLI's command shape. Runs inside or outside a project: inside,
 * the nearest fw.json's `config.FW_OCEAN_URL` applies. Errors are thrown (`OceanError`), exit 1.
 */
export const runOceanSearch: OceanCommandRun = async (argv, io) => {
  const projectRoot = await findProjectRoot(io.cwd).catch(() => io.cwd);
  await oceanSearch(argv, { projectRoot, env: io.env, print: (text) => io.stdout.write(text) });
  return 0;
};

/**
 * Builds `fw ocean install` in the CLI's command shape. `register(projectRoot, installed)`
 * records the Additives in the project (fw.json `additives` + `fluid.additive(...)` through the
 * regeneration engine); `protect` lists other project-relative files it writes, restored if the
 * install fails. Must run inside a project (nearest fw.json).
 */
export function oceanInstallCommand(
  register: (projectRoot: string, installed: InstalledAdditive[]) => Promise<void>,
  protect: readonly string[] = [],
): OceanCommandRun {
  return async (argv, io) => {
    const projectRoot = await findProjectRoot(io.cwd);
    await oceanInstall(argv, {
      projectRoot,
      env: io.env,
      print: (text) => io.stdout.write(text),
      register: (installed) => register(projectRoot, installed),
      protect,
    });
    return 0;
  };
}
