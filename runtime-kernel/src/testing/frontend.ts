/**
 * `buildFrontend()`: the vitest `globalSetup` of an app with a Vite surface. It checks and builds
 * every frontend workspace once, before any test file boots the app, as a production boot with
 * `FW_CHECK_FRONTEND` and `FW_BUILD_FRONTEND` would (a leaky `public/` refused first).
 *
 * Why not let each boot build: vitest runs test files in parallel processes, and a `vite build`
 * empties `dist/` before writing it, so one file's build removed the index another file's app was
 * serving (an intermittent ENOENT on `dist/index.html`, more likely the more cores).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createLogger } from '../core/logger.js';
import { checkAndBuild } from '../frontend/prod.js';

/** Checks and builds the Vite workspaces of `root`'s `package.json` (default the current folder); a failure throws with the command's output. */
export async function buildFrontend(root: string = process.cwd()): Promise<void> {
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { workspaces?: unknown };
  const workspaces = Array.isArray(pkg.workspaces) ? pkg.workspaces.filter((w): w is string => typeof w === 'string') : [];
  if (workspaces.length === 0) return;
  // One readable line per step on the test run's output, whatever FW_LOG_LEVEL the tests use.
  const logger = createLogger({ level: 'info', format: 'text', write: (line) => process.stdout.write(`${line}\n`) });
  await checkAndBuild(root, { check: true, build: true }, logger, workspaces);
}
