import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { run } from '../../generators/src/commands/index.js';
import { listFiles, tempDir, testIO } from './helpers.js';

/** Runs `fw <argv>` in-process in `cwd`; returns the exit code and what it printed (errors become code 1 + message). */
export async function fw(cwd: string, ...argv: string[]): Promise<{ code: number; out: string; error?: string }> {
  const io = testIO(cwd);
  try {
    const code = await run(argv, io);
    return { code, out: io.out() };
  } catch (error) {
    return { code: 1, out: io.out(), error: error instanceof Error ? error.message : String(error) };
  }
}

/** Runs `fw <argv>` in-process and fails the test, with what it said, unless it exits 0; answers its output. */
export async function ok(root: string, ...argv: string[]): Promise<string> {
  const run = await fw(root, ...argv);
  expect(run.error, `fw ${argv.join(' ')}`).toBeUndefined();
  expect(run.code, `fw ${argv.join(' ')}:\n${run.out}`).toBe(0);
  return run.out;
}

/** A fresh project made by `fw create project <name> --yes` in a temp folder; returns its root. */
export async function newProject(name = 'demo', ...flags: string[]): Promise<string> {
  const cwd = await tempDir('fw-proj-');
  const made = await fw(cwd, 'create', 'project', name, '--yes', ...flags);
  if (made.code !== 0) throw new Error(`create project failed: ${made.error ?? made.out}`);
  return path.join(cwd, name);
}

/** Every file (record and store included) with its bytes and mtime: compare two to prove nothing was written. */
export async function snapshot(root: string): Promise<Map<string, { bytes: Buffer; mtime: number; mode: number }>> {
  const out = new Map<string, { bytes: Buffer; mtime: number; mode: number }>();
  for (const file of await listFiles(root)) {
    const abs = path.join(root, file);
    const s = await stat(abs);
    out.set(file, { bytes: await readFile(abs), mtime: s.mtimeMs, mode: s.mode });
  }
  return out;
}

/** Edits `fw.json` as JSON. */
export async function editConfig(root: string, edit: (json: Record<string, unknown> & { additives: string[]; config: Record<string, unknown> }) => void): Promise<void> {
  const file = path.join(root, 'fw.json');
  const json = JSON.parse(await readFile(file, 'utf8'));
  edit(json);
  await writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
}

/** Reads a project file as text. */
export function read(root: string, file: string): Promise<string> {
  return readFile(path.join(root, file), 'utf8');
}

/**
 * Installs this checkout's `@fw/kernel` (built) into a project as npm would link it: `fw migrate`
 * reads the binds with the project's own kernel, which a project made by `newProject` lacks.
 */
export async function linkKernel(root: string): Promise<void> {
  await linkFromCheckout(root, ['@fw/kernel']);
}

/**
 * Links packages of this checkout into a project's `node_modules` (what `npm install` would put
 * there): `@fw/kernel` is the checkout's runtime-kernel (built), any other name the checkout's
 * installed copy.
 */
export async function linkFromCheckout(root: string, names: readonly string[]): Promise<void> {
  const checkout = fileURLToPath(new URL('../..', import.meta.url));
  for (const name of names) {
    const link = path.join(root, 'node_modules', name);
    await mkdir(path.dirname(link), { recursive: true });
    await symlink(path.join(checkout, name === '@fw/kernel' ? 'runtime-kernel' : path.join('node_modules', name)), link, 'dir');
  }
}
