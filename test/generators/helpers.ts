import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import type { CommandIO } from '../../generators/src/cli/io.js';

/** The repository root. */
export const REPO = fileURLToPath(new URL('../..', import.meta.url));

const made: string[] = [];

/** A fresh temp directory, removed after the test. */
export async function tempDir(prefix = 'fw-gen-'): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Command IO for in-process runs: no TTY, output captured. */
export function testIO(cwd: string): CommandIO & { out: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let text = '';
  stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  stderr.on('data', () => undefined);
  return { cwd, stdin: new PassThrough(), stdout, stderr, env: { ...process.env }, out: () => text };
}

/** Every file under `dir`, as sorted POSIX paths relative to it. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() || e.isSymbolicLink())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}
