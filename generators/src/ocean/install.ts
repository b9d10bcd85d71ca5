import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { OceanError } from './errors.js';
import type { ResolvedAdditive } from './resolve.js';
import { differences, listPackages, restoreFiles, restoreSnapshot, takeSnapshot, type ProjectSnapshot } from './snapshot.js';

/** An Additive that `npm install` put into the project. */
export interface InstalledAdditive extends ResolvedAdditive {
  /** Absolute path of `node_modules/<package>` in the project. */
  directory: string;
}

/** Options of {@link installAdditives}. */
export interface InstallAdditivesOptions {
  /** The project to install into (holds package.json). */
  projectRoot: string;
  /** What `resolveInstall` picked. */
  resolved: readonly ResolvedAdditive[];
  /** The npm executable (default `npm` from PATH). */
  npm?: string;
  /** npm registry URL override, passed as `--registry` (e.g. a local test registry). */
  registry?: string;
  /** Extra environment for npm (e.g. `npm_config_cache`). */
  env?: NodeJS.ProcessEnv;
  /**
   * Registers the installed Additives in the project (fw.json `additives` and the
   * `fluid.additive(...)` call in `fluid/app.ts`), through the regeneration engine. Called once,
   * after npm succeeded; if it throws, the install is rolled back.
   */
  register?: (installed: InstalledAdditive[]) => Promise<void>;
  /**
   * More project-relative files `register` may write, restored on rollback besides package.json,
   * the lockfiles, fw.json and fluid/app.ts.
   */
  protect?: readonly string[];
}

/**
 * Installs resolved Additives with `npm install --save-exact <package>@<version>...` and then
 * calls `register`. All or nothing: on ANY failure (npm exits non-zero, an installed version
 * is not the one asked for, or `register` throws) package.json, the lockfiles, fw.json,
 * fluid/app.ts, the `protect` files and node_modules are put back exactly as they were, and an
 * {@link OceanError} explains what failed. Returns the installed Additives.
 */
export async function installAdditives(options: InstallAdditivesOptions): Promise<InstalledAdditive[]> {
  const root = resolve(options.projectRoot);
  if (options.resolved.length === 0) return [];
  const manifest = await readFile(join(root, 'package.json')).catch(() => null);
  if (manifest === null) throw new OceanError(`no package.json in ${root}: fw ocean install runs in a project`);

  const specs = options.resolved.map((r) => r.spec);
  const snapshot = await takeSnapshot(root, options.protect ?? []);
  try {
    await runNpm(options, root, ['install', '--save-exact', ...specs]);
    const installed = await checkInstalled(root, options.resolved);
    if (options.register !== undefined) {
      try {
        await options.register(installed);
      } catch (error) {
        throw new OceanError(`registering ${installed.map((i) => i.id).join(', ')} failed: ${messageOf(error)}`);
      }
    }
    return installed;
  } catch (error) {
    const reason = messageOf(error);
    try {
      await rollback(options, snapshot);
    } catch (rollbackError) {
      throw new OceanError(`fw ocean install ${specs.join(' ')} failed.\n${reason}\n${messageOf(rollbackError)}`);
    }
    throw new OceanError(`fw ocean install ${specs.join(' ')} failed; the project was left as it was.\n${reason}`);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function checkInstalled(root: string, resolved: readonly ResolvedAdditive[]): Promise<InstalledAdditive[]> {
  const installed: InstalledAdditive[] = [];
  for (const r of resolved) {
    const directory = join(root, 'node_modules', r.package);
    let version: unknown;
    try {
      version = (JSON.parse(await readFile(join(directory, 'package.json'), 'utf8')) as { version?: unknown }).version;
    } catch (error) {
      throw new OceanError(`npm reported success but ${r.package} is not in node_modules: ${messageOf(error)}`);
    }
    if (version !== r.version) {
      throw new OceanError(`npm installed ${r.package}@${String(version)}, not the resolved ${r.version}`);
    }
    installed.push({ ...r, directory });
  }
  return installed;
}

async function rollback(options: InstallAdditivesOptions, snapshot: ProjectSnapshot): Promise<void> {
  let changed = await restoreSnapshot(snapshot);
  if (changed.length > 0) {
    // npm replaced packages that were there before (e.g. hoisted a newer shared dependency):
    // reinstall the recorded tree from the restored package.json and lockfile, saving nothing.
    // The hidden lockfile goes first, or npm would trust it and believe the tree is intact.
    await rm(join(snapshot.root, 'node_modules/.package-lock.json'), { force: true });
    const reinstall = await runNpm(options, snapshot.root, ['install', '--no-save', '--prefer-offline']).then(
      () => '',
      (error: unknown) => ` (${(error as Error).message})`,
    );
    await restoreFiles(snapshot);
    changed = differences(snapshot, await listPackages(snapshot.root));
    if (changed.length > 0) {
      throw new OceanError(
        `the install failed AND node_modules could not be fully restored${reinstall}; these packages differ: ` +
          `${changed.join(', ')}. package.json and the lockfile are restored: run npm install to resync node_modules.`,
      );
    }
  }
}

/** Runs npm in the project with the registry override; rejects with npm's output on failure. */
function runNpm(options: InstallAdditivesOptions, cwd: string, args: string[]): Promise<void> {
  const npm = options.npm ?? 'npm';
  const full = [...args, '--no-audit', '--no-fund', ...(options.registry === undefined ? [] : ['--registry', options.registry])];
  return new Promise((done, fail) => {
    const child = spawn(npm, full, { cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', (error) => fail(new OceanError(`cannot run ${npm}: ${error.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) return done();
      const tail = output
        .split('\n')
        .filter((l) => l.trim() !== '' && !l.includes('Unknown user config'))
        .slice(-15)
        .join('\n');
      fail(new OceanError(`${npm} ${args.join(' ')} exited with ${signal ?? `code ${code}`}:\n${tail}`));
    });
  });
}
