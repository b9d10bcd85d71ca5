import { access } from 'node:fs/promises';
import path from 'node:path';
import { CliError } from './cli/errors.js';

/** The project config file that marks a project root. */
export const PROJECT_CONFIG_FILE = 'fw.json';

/**
 * The nearest directory at or above `from` that holds `fw.json`. Throws a {@link CliError}
 * naming `from` when there is none (the command was run outside an fw project).
 */
export async function findProjectRoot(from: string): Promise<string> {
  let dir = path.resolve(from);
  for (;;) {
    const found = await access(path.join(dir, PROJECT_CONFIG_FILE)).then(() => true, () => false);
    if (found) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new CliError(`no ${PROJECT_CONFIG_FILE} found in ${path.resolve(from)} or any parent: run this inside an fw project.`);
    dir = parent;
  }
}
