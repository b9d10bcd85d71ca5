/**
 * End to end for a Vite surface: `create-fw-app --surface vite --framework react --typescript`,
 * install, type-check (the Vite workspace is browser code with its own tsconfig, so the app's
 * `tsc` must leave it to `npm run check`), and the app's own test, which boots it in production:
 * the frontend is checked and built at boot and `/` serves the built index. Needs `npm run build`.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { sh } from '../support/process.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const CREATE_BIN = path.join(REPO, 'generators/dist/bin/create-fw-app.js');

let work = '';
let root = '';

beforeAll(() => {
  for (const file of [CREATE_BIN, path.join(REPO, 'runtime-kernel/dist/index.js')]) {
    if (!existsSync(file)) throw new Error(`missing build output ${file}: run "npm run build" first (npm test does).`);
  }
}, 10_000);

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'fw-e2e-vite-'));
  root = path.join(work, 'vite-app');
  sh(process.execPath, [CREATE_BIN, root, '--surface', 'vite', '--framework', 'react', '--typescript'], work, 30_000);
  sh('npm', ['install', '--no-audit', '--no-fund'], root, 240_000);
  // create-fw-app wrote a development app config; this test runs the production settings.
  sh(process.execPath, [path.join(root, 'node_modules/.bin/fw'), 'create', 'app', 'vite-app', '--force'], root, 30_000);
}, 300_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

test('the app registers no template home page: / belongs to the Vite index', async () => {
  const app = await readFile(path.join(root, 'fluid/app.ts'), 'utf8');
  expect(app).not.toContain("fluid.app.get('home', '/'");
  expect(existsSync(path.join(root, 'fluid/frontend/src/App.tsx'))).toBe(true);
});

test('npx tsc --noEmit is clean (the Vite workspace is left to its own tsconfig)', () => {
  expect(sh('npx', ['tsc', '--noEmit'], root, 120_000).stdout).toBe('');
}, 150_000);

test("the app's own npm test passes: the frontend is built at boot and / serves its index", () => {
  const result = sh('npm', ['test'], root, 180_000);
  expect(result.stdout).toMatch(/1 passed/);
  expect(existsSync(path.join(root, 'fluid/frontend/dist/index.html'))).toBe(true);
}, 200_000);
