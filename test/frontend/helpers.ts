/**
 * Temp projects with generated Vite surfaces. They live under the repo's `.tmp/` so a workspace
 * resolves `vite`, `react` and the plugins from the repo's own node_modules (no install, no
 * network); the smoke tests install for real instead.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setupFrontend, type SurfaceEntry } from '../../generators/src/frontend/index.js';
import { TEST_SECRET } from '../kernel/helpers.js';

/** The fw checkout. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const made: string[] = [];

/** Writes `files` under `root`. */
export function writeFiles(root: string, files: ReadonlyMap<string, string | Uint8Array> | Record<string, string>): void {
  const entries = files instanceof Map ? [...files] : Object.entries(files);
  for (const [rel, content] of entries) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** A project (fw.json, ini, package.json) with its frontend set up by `setupFrontend`. */
export function viteProject(options: { name?: string; config?: Record<string, unknown>; surfaces: SurfaceEntry[]; under?: string }): string {
  const parent = options.under ?? path.join(REPO_ROOT, '.tmp');
  mkdirSync(parent, { recursive: true });
  const root = mkdtempSync(path.join(parent, 'fw-frontend-'));
  made.push(root);
  const name = options.name ?? 'demo';
  const app = options.surfaces.find((s) => !s.additive);
  writeFiles(root, {
    'fw.json': JSON.stringify({ name, config: { ...(app ? { APP_FRONTEND: app.frontend } : {}), ...options.config } }, null, 2),
    'app_configs/demo.ini': `SECRET_KEY = ${TEST_SECRET}\n`,
  });
  for (const s of options.surfaces) {
    if (s.additive) writeFiles(root, { [`additives/${s.additive}/manifest.json`]: JSON.stringify({ name: s.additive, version: '0.1.0', frontend: s.frontend }) });
  }
  const files = setupFrontend({ name, surfaces: options.surfaces, packageJson: JSON.stringify({ name, private: true, type: 'module' }) });
  writeFiles(root, files);
  return root;
}

/** Removes every project made so far. */
export function cleanupViteProjects(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
