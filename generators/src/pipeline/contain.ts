import { lstatSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import { PathRefusedError } from './paths.js';

/**
 * Resolves `target` through the symlinks that exist on disk; the part that does not exist yet is
 * appended as it is. A dangling symlink is refused (it could be created pointing anywhere).
 */
function resolveExisting(target: string): string {
  let existing = target;
  const rest: string[] = [];
  for (;;) {
    try {
      lstatSync(existing);
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
    real = realpathSync(existing);
  } catch {
    throw new PathRefusedError(existing, 'it is a symlink whose target does not exist');
  }
  return path.join(real, ...rest);
}

/**
 * Keeps every path of a run inside the project root once the symlinks already on disk are
 * followed (`fluid` a symlink to `/etc` must not let a generator write `/etc/app.ts`). A folder is
 * resolved once per instance; the file itself is `lstat`ed on every check, so a file replaced by a
 * symlink is caught. The pipeline checks every path when it plans (a dry run reports a refusal
 * too) and again, with a fresh instance, right before each write.
 */
export class Containment {
  readonly root: string;
  readonly #realRoot: string;
  readonly #folders = new Map<string, string>();

  constructor(root: string) {
    this.root = path.resolve(root);
    this.#realRoot = resolveExisting(this.root);
  }

  /**
   * Throws {@link PathRefusedError} when `relative` (a normalised project path) leaves the root.
   * Returns the `lstat` of what is at the path (`undefined`: nothing), so a caller reads it once.
   */
  check(relative: string): Stats | undefined {
    let resolved = path.join(this.checkFolder(relative), path.posix.basename(relative));
    const stats = lstatSync(resolved, { throwIfNoEntry: false });
    if (stats?.isSymbolicLink()) resolved = resolveExisting(resolved);
    this.#inside(relative, resolved, false);
    return stats;
  }

  /**
   * The folder half of {@link check}: throws when the folder of `relative` resolves outside the
   * root, or when one of its folders is a file on disk (the message names both); returns its
   * real path. A caller that opens the file without following a symlink
   * (`O_NOFOLLOW`) needs no more.
   */
  checkFolder(relative: string): string {
    const realFolder = this.#realFolder(path.posix.dirname(relative), relative);
    this.#inside(relative, realFolder, true);
    return realFolder;
  }

  /**
   * The real path of a project folder, from its parent's: a folder that is not a symlink is its
   * parent's real path plus its name (one `lstat`); a symlink, or a folder that does not exist,
   * is resolved in full.
   */
  #realFolder(folder: string, relative: string): string {
    if (folder === '.') return this.#realRoot;
    let real = this.#folders.get(folder);
    if (real !== undefined) return real;
    const parent = this.#realFolder(path.posix.dirname(folder), relative);
    const candidate = path.join(parent, path.posix.basename(folder));
    const stats = lstatSync(candidate, { throwIfNoEntry: false });
    if (stats?.isFile()) throw new Error(`Cannot write ${relative}: ${folder} is a file, not a folder; move or rename it, then run again`);
    real = stats?.isDirectory() ? candidate : resolveExisting(path.join(this.root, folder));
    this.#folders.set(folder, real);
    return real;
  }

  #inside(relative: string, resolved: string, folder: boolean): void {
    const fromRoot = path.relative(this.#realRoot, resolved);
    if ((fromRoot === '' && !folder) || fromRoot === '..' || fromRoot.startsWith(`..${path.sep}`) || path.isAbsolute(fromRoot)) {
      throw new PathRefusedError(relative, `a symlink makes it resolve to ${resolved}, outside the project root ${this.#realRoot}`);
    }
  }
}
