import { lstat, mkdir, readdir, readFile, readlink, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Project files an install may change — npm's manifests and lockfiles, and what registration
 * writes (`fw.json`, `fluid/app.ts`) — restored byte for byte on rollback.
 */
export const PROTECTED_FILES: readonly string[] = [
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'node_modules/.package-lock.json',
  'fw.json',
  'fluid/app.ts',
];

/**
 * What a project looked like before an install: the bytes of {@link PROTECTED_FILES} (`null`
 * when absent), and every package directory under `node_modules` (nested ones too) with its
 * version, plus the `node_modules/.bin` entries.
 */
export interface ProjectSnapshot {
  root: string;
  files: Map<string, Buffer | null>;
  nodeModules: boolean;
  packages: Map<string, string>;
  bins: Map<string, string>;
}

/** Takes a {@link ProjectSnapshot} of `root`, protecting {@link PROTECTED_FILES} and `extra` (project-relative). */
export async function takeSnapshot(root: string, extra: readonly string[] = []): Promise<ProjectSnapshot> {
  const files = new Map<string, Buffer | null>();
  for (const file of [...PROTECTED_FILES, ...extra]) files.set(file, await readOptional(join(root, file)));
  const nodeModules = await exists(join(root, 'node_modules'));
  return { root, files, nodeModules, packages: await listPackages(root), bins: await listBins(root) };
}

/**
 * Puts the project back as the snapshot found it: restores the protected files, deletes
 * package directories and `.bin` entries that were added (or all of `node_modules` when there
 * was none). Returns the package paths that still differ from the snapshot (a package that
 * was replaced by another version, or removed), which the caller must reinstall.
 */
export async function restoreSnapshot(snapshot: ProjectSnapshot): Promise<string[]> {
  const { root } = snapshot;
  await restoreFiles(snapshot);
  if (!snapshot.nodeModules) {
    await rm(join(root, 'node_modules'), { recursive: true, force: true });
    return [];
  }
  const now = await listPackages(root);
  const added = [...now.keys()].filter((p) => !snapshot.packages.has(p)).sort((a, b) => a.length - b.length);
  for (const path of added) {
    await rm(join(root, path), { recursive: true, force: true });
    await removeIfEmpty(dirname(join(root, path)), join(root, 'node_modules'));
  }
  for (const [name, target] of await listBins(root)) {
    if (snapshot.bins.get(name) !== target) await rm(join(root, 'node_modules/.bin', name), { force: true });
  }
  return differences(snapshot, await listPackages(root));
}

/** Rewrites (or deletes) the protected files exactly as they were in the snapshot. */
export async function restoreFiles(snapshot: ProjectSnapshot): Promise<void> {
  for (const [file, bytes] of snapshot.files) {
    const path = join(snapshot.root, file);
    if (bytes === null) await rm(path, { force: true });
    else if (!(await readOptional(path))?.equals(bytes)) {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, bytes);
    }
  }
}

/** Package paths whose presence or version differs between the snapshot and `now`. */
export function differences(snapshot: ProjectSnapshot, now: Map<string, string>): string[] {
  const out = new Set<string>();
  for (const [path, version] of snapshot.packages) if (now.get(path) !== version) out.add(path);
  for (const path of now.keys()) if (!snapshot.packages.has(path)) out.add(path);
  return [...out].sort();
}

/** Every package directory under `root/node_modules`, nested ones included, → its version. */
export async function listPackages(root: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const walk = async (modules: string): Promise<void> => {
    for (const entry of await readdirOptional(join(root, modules))) {
      if (entry.startsWith('.')) continue;
      if (entry.startsWith('@')) {
        for (const scoped of await readdirOptional(join(root, modules, entry))) {
          await visit(`${modules}/${entry}/${scoped}`);
        }
      } else {
        await visit(`${modules}/${entry}`);
      }
    }
  };
  const visit = async (path: string): Promise<void> => {
    const full = join(root, path);
    const stat = await lstat(full);
    if (stat.isSymbolicLink()) {
      found.set(path, `link:${await readlink(full)}`);
      return;
    }
    const manifest = await readOptional(join(full, 'package.json'));
    let version = '(no package.json)';
    if (manifest !== null) {
      try {
        version = String((JSON.parse(manifest.toString('utf8')) as { version?: unknown }).version);
      } catch {
        version = '(unreadable package.json)';
      }
    }
    found.set(path, version);
    await walk(`${path}/node_modules`);
  };
  await walk('node_modules');
  return found;
}

async function listBins(root: string): Promise<Map<string, string>> {
  const bins = new Map<string, string>();
  for (const name of await readdirOptional(join(root, 'node_modules/.bin'))) {
    const path = join(root, 'node_modules/.bin', name);
    const stat = await lstat(path);
    bins.set(name, stat.isSymbolicLink() ? await readlink(path) : `file:${stat.size}`);
  }
  return bins;
}

async function removeIfEmpty(dir: string, stop: string): Promise<void> {
  if (dir === stop || !dir.startsWith(stop)) return;
  if ((await readdirOptional(dir)).length === 0) await rmdir(dir).catch(() => undefined);
}

async function readOptional(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function readdirOptional(path: string): Promise<string[]> {
  try {
    return (await readdir(path)).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}
