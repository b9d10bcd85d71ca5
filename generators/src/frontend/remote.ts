/**
 * The explicit `--remote-template` path: fetch create-vite's templates with degit instead of the
 * installed copy. Only this function touches the network, and only when the flag is given;
 * degit is run through `npx`, so it is not a dependency of create-fw-app.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FrontendGenerationError } from './render.js';

/** Clones `vitejs/vite/packages/create-vite` (at `ref`) into a temp folder; answers the folder holding the `template-*` folders. */
export function degitTemplate(ref = 'main'): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'fw-create-vite-'));
  const run = spawnSync('npx', ['--yes', 'degit', `vitejs/vite/packages/create-vite#${ref}`, dir], { encoding: 'utf8' });
  if (run.status !== 0) throw new FrontendGenerationError(`--remote-template: degit failed (exit ${run.status ?? 'signal'}): ${run.stderr.trim()}`);
  return dir;
}
