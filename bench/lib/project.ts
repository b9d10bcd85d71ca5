/**
 * Throwaway fw projects for the kernel servers: a folder under the checkout's `.tmp/bench/`
 * (so it resolves the monorepo's packages) with `fw.json`, `app_configs/bench.ini` and any extra
 * files, removed when the benchmark exits.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { scratch } from './settings.ts';

const made: string[] = [];
process.on('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder under `.tmp/bench/`, removed at exit. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(scratch(), `${prefix}-`));
  made.push(dir);
  return dir;
}

/** Writes files (relative path → content) under `root`, creating folders. */
export function writeFiles(root: string, files: Readonly<Record<string, string | Buffer>>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
}

/** A project named `bench` with the given `fw.json` config (defaults for everything else). */
export function kernelProject(config: Readonly<Record<string, unknown>> = {}, files: Readonly<Record<string, string | Buffer>> = {}): string {
  const root = tempDir('kernel');
  writeFiles(root, {
    'fw.json': JSON.stringify({ name: 'bench', config }, null, 2),
    'app_configs/bench.ini': 'SECRET_KEY = 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n',
    ...files,
  });
  return root;
}
