import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { PathRefusedError } from './paths.js';

/** Resolves `target` through symlinks; the part that does not exist yet is appended as is. */
async function resolveExisting(target: string): Promise<string> {
  let existing = target;
  const rest: string[] = [];
  for (;;) {
    try {
      await lstat(existing);
      break;
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) break;
      rest.unshift(path.basename(existing));
      existing = parent;
    }
  }
  let real: string;
  try {
    real = await realpath(existing);
  } catch {
    // lstat saw it but realpath cannot follow it: a dangling symlink.
    throw new PathRefusedError(existing, 'it is a symlink whose target does not exist');
  }
  return path.join(real, ...rest);
}

/** The project root with symlinks resolved (the root itself may not exist yet). */
export function resolveRoot(projectRoot: string): Promise<string> {
  return resolveExisting(path.resolve(projectRoot));
}

/**
 * Refuses `relativePath` if, once symlinks already on disk are followed, it lands outside the
 * project root (e.g. `fluid` is a symlink to `/etc`). `realRoot` comes from {@link resolveRoot}.
 */
export async function assertInsideRoot(realRoot: string, projectRoot: string, relativePath: string): Promise<void> {
  const resolved = await resolveExisting(path.join(path.resolve(projectRoot), relativePath));
  const fromRoot = path.relative(realRoot, resolved);
  if (fromRoot === '' || fromRoot === '..' || fromRoot.startsWith(`..${path.sep}`) || path.isAbsolute(fromRoot)) {
    throw new PathRefusedError(relativePath, `a symlink makes it resolve to ${resolved}, outside the project root ${realRoot}`);
  }
}
