/**
 * Production (the reference's `prod.startup_hook`): before the app serves, run
 * `npm run check` and `npm run build` over every frontend workspace from the project root,
 * gated by `FW_CHECK_FRONTEND` and `FW_BUILD_FRONTEND`. A failing command stops the boot with
 * the command's own output (a `NodeError`), never a blank page.
 */
import { lstat, readdir, readlink } from 'node:fs/promises';
import { join, posix, relative, resolve, sep } from 'node:path';
import type { Logger } from '../core/errors.js';
import { importOptional } from '../core/optional.js';
import { FrontendException } from './errors.js';
import { nodeCmd } from './node.js';

/** The config files `vite build` looks for in a workspace (Vite's own list). */
const WORKSPACE_VITE_CONFIGS = ['vite.config.js', 'vite.config.mjs', 'vite.config.ts', 'vite.config.cjs', 'vite.config.mts', 'vite.config.cts'];

/**
 * The folder `vite build` in `workspace` copies into `dist/`, relative to `projectRoot`
 * (POSIX separators), or `undefined` when its config says `publicDir: false`. Without a
 * `vite.config` it is `<workspace>/public` (Vite's default, and Vite is not loaded); with one,
 * Vite's own `resolveConfig` for a production build answers (`publicDir: 'static-files'`).
 */
async function publicDirOf(projectRoot: string, workspace: string): Promise<string | undefined> {
  const dir = resolve(projectRoot, workspace);
  const fallback = posix.join(workspace, 'public');
  const configs = await Promise.all(WORKSPACE_VITE_CONFIGS.map((name) => lstat(join(dir, name)).then(() => true, () => false)));
  if (!configs.includes(true)) return fallback;
  const vite = await importOptional<typeof import('vite')>('vite', { root: projectRoot, feature: `the production build of ${workspace} (its vite.config)` });
  let resolved: string;
  try {
    resolved = (await vite.resolveConfig({ root: dir, logLevel: 'silent' }, 'build', 'production', 'production')).publicDir;
  } catch (err) {
    throw new FrontendException(`${workspace}: cannot read its vite.config to find its publicDir: ${err instanceof Error ? err.message : String(err)}`);
  }
  // Vite resolves `publicDir: false` (and '') to ''.
  if (resolved === '') return undefined;
  return relative(projectRoot, resolved).split(sep).join('/');
}

/**
 * Refuses a production build whose public folders would leak (issue 17 §2): Vite's build copies
 * a workspace's `publicDir` (`<workspace>/public/` unless its vite.config names another, or
 * `false`) into `dist/` with its dotfiles (`public/.env` becomes `dist/.env`) and with the
 * *targets* of symlinks (a link to `/etc/passwd` becomes a file in `dist/`; `public/` itself
 * linked to `app_configs/` would copy every ini). Throws `FrontendException` naming the first
 * such file (relative to `projectRoot`); `workspaces` are folders relative to it
 * (`fluid/frontend`). Both build paths call it: the kernel's production boot and `fw build`.
 */
export async function checkPublicDirs(projectRoot: string, workspaces: readonly string[]): Promise<void> {
  const walk = async (rel: string, name: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(join(projectRoot, rel), { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const entry of entries) {
      const child = posix.join(rel, entry.name);
      const stats = await lstat(join(projectRoot, child));
      if (stats.isSymbolicLink()) {
        const target = await readlink(join(projectRoot, child)).catch(() => '?');
        throw new FrontendException(
          `${child} is a symlink (to ${target}): Vite's build would copy its target into dist/. Replace it with the file itself, or remove it.`,
        );
      }
      if (entry.name.startsWith('.')) {
        throw new FrontendException(`${child} is a dotfile in ${name}/: Vite's build would copy it into dist/ and serve it. Move it out of ${name}/.`);
      }
      if (stats.isDirectory()) await walk(child, name);
    }
  };
  for (const workspace of workspaces) {
    const dir = await publicDirOf(projectRoot, workspace);
    if (dir === undefined) continue; // publicDir: false, nothing is copied
    const name = posix.basename(dir);
    // The folder itself as a link (to app_configs/, say) would have Vite copy the whole target.
    const self = await lstat(join(projectRoot, dir)).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    if (self?.isSymbolicLink()) {
      const target = await readlink(join(projectRoot, dir)).catch(() => '?');
      throw new FrontendException(
        `${dir} is a symlink (to ${target}): Vite's build would copy everything in its target into dist/. Make ${name}/ a folder of its own.`,
      );
    }
    await walk(dir, name);
  }
}

/** Which production steps run. */
export interface ProductionSteps {
  /** Run `npm run check` in every frontend workspace. */
  check: boolean;
  /** Run `npm run build` in every frontend workspace. */
  build: boolean;
}

/** Runs the gated check and build in `projectRoot` (refusing leaky `public/` folders of `workspaces` first). */
export async function checkAndBuild(projectRoot: string, steps: ProductionSteps, logger: Logger, workspaces: readonly string[] = []): Promise<void> {
  if (steps.check) {
    const started = Date.now();
    await nodeCmd(['npm', 'run', 'check', '--workspaces', '--if-present'], projectRoot);
    logger.info('frontend checked', { ms: Date.now() - started });
  }
  if (steps.build) {
    await checkPublicDirs(projectRoot, workspaces);
    const started = Date.now();
    await nodeCmd(['npm', 'run', 'build', '--workspaces', '--if-present'], projectRoot);
    logger.info('frontend built', { ms: Date.now() - started });
  }
}
