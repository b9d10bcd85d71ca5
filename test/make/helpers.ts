/** What the `fw make` tests share: a project per file, in-process runs, and the dry-run check. */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { applyPatch } from 'diff';
import { expect } from 'vitest';
import { fw, ok } from '../generators/project-helpers.js';

export { ok };

export { fw, read } from '../generators/project-helpers.js';

/** The bytes of every project file (`.fw/` included, the installed `node_modules/` not). */
export async function snapshot(root: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    const file = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (entry.isFile() && !file.startsWith('node_modules/')) out.set(file, await readFile(path.join(root, file)));
  }
  return out;
}

/** A project made by `fw create project <name> --yes [flags]` in a fresh folder; `remove()` deletes it (call it in afterAll). */
export async function project(flags: string[] = []): Promise<{ root: string; remove: () => Promise<void> }> {
  const work = await mkdtemp(path.join(tmpdir(), 'fw-make-'));
  const made = await fw(work, 'create', 'project', 'app', '--yes', ...flags);
  if (made.code !== 0) throw new Error(`create project failed: ${made.error ?? made.out}`);
  return { root: path.join(work, 'app'), remove: () => rm(work, { recursive: true, force: true }) };
}


interface PlannedFile {
  path: string;
  action: string;
  diff?: string;
}

/**
 * `fw <argv> --dry-run --json` writes nothing (not even `.fw/`), then the real run reports the same
 * files and actions, and every printed diff, applied to the file as it was, gives the file as the
 * real run left it; no other file changes. Returns the planned files.
 */
export async function dryRunThenRun(root: string, ...argv: string[]): Promise<PlannedFile[]> {
  const before = await snapshot(root);
  const dry = await fw(root, ...argv, '--dry-run', '--json');
  expect(dry.error, `${argv.join(' ')} --dry-run`).toBeUndefined();
  const planned = (JSON.parse(dry.out) as { files: PlannedFile[] }).files;
  expect(await snapshot(root), `${argv.join(' ')} --dry-run wrote something`).toEqual(before);

  const real = await fw(root, ...argv, '--json');
  expect(real.error, argv.join(' ')).toBeUndefined();
  const done = (JSON.parse(real.out) as { files: PlannedFile[] }).files;
  const shape = (files: PlannedFile[]) => files.map((f) => `${f.action} ${f.path}`);
  expect(shape(done), `${argv.join(' ')}: the real run did what the dry run planned`).toEqual(shape(planned));

  const after = await snapshot(root);
  const changed = [...new Set([...before.keys(), ...after.keys()])].filter((f) => !f.startsWith('.fw/') && !before.get(f)?.equals(after.get(f) ?? Buffer.alloc(0)));
  expect(changed.sort(), `${argv.join(' ')}: the files that changed are those the dry run showed`).toEqual(planned.filter((f) => f.diff).map((f) => f.path).sort());
  for (const file of planned.filter((f) => f.diff)) {
    const patched = applyPatch(before.get(file.path)?.toString('utf8') ?? '', file.diff!);
    expect(patched, `${file.path}: the printed diff gives what was written`).toBe(after.get(file.path)?.toString('utf8'));
  }
  return planned;
}
