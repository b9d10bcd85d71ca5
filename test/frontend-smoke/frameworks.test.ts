/**
 * Build smoke test (slow target: `npx vitest run test/frontend-smoke`): every buildable framework
 * in JS and TS is generated into ONE project (the app plus one Additive per surface), installed
 * with ONE real `npm install` (npm workspaces hoist and share the packages; the npm cache is the
 * user's shared one), then booted in production, which runs `npm run check` and
 * `npm run build --workspaces`, and every index and its script are fetched. Qwik is checked for
 * its clear generation-time refusal (see render.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Additive, Fluid } from '@fw/kernel';
import { nodeCmd } from '@fw/kernel/frontend';
import { FRAMEWORKS, type Framework } from '../../generators/src/frontend/index.js';
import { memoryLogger, start } from '../kernel/helpers.js';
import { viteProject } from '../frontend/helpers.js';

const SURFACES = FRAMEWORKS.filter((f) => f !== 'qwik').flatMap((f) => [
  { name: f === 'none' ? 'vanilla' : f, framework: f as Framework, typescript: false },
  { name: `${f === 'none' ? 'vanilla' : f}-ts`, framework: f as Framework, typescript: true },
]);

let parent: string;
let root: string;
let fluid: Fluid;
let base: string;
const timings: Record<string, number> = {};

beforeAll(async () => {
  parent = mkdtempSync(path.join(tmpdir(), 'fw-smoke-'));
  // The main app takes the first surface; every other one is an Additive.
  const [first, ...rest] = SURFACES;
  root = viteProject({
    under: parent,
    config: { FW_CHECK_FRONTEND: true, FW_BUILD_FRONTEND: true },
    surfaces: [
      { frontend: { type: 'vite', framework: first!.framework, typescript: first!.typescript } },
      ...rest.map((s) => ({ additive: s.name, frontend: { type: 'vite', framework: s.framework, typescript: s.typescript } })),
    ],
  });
  let t = Date.now();
  await nodeCmd(['npm', 'install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], root);
  timings.install = Date.now() - t;
  fluid = new Fluid({ root, env: {}, logger: memoryLogger() });
  for (const s of rest) fluid.additive(new Additive(s.name, { root: path.join(root, 'additives', s.name) }));
  t = Date.now();
  base = await start(fluid); // npm run check + npm run build --workspaces
  timings.checkAndBuild = Date.now() - t;
}, 900_000);

afterAll(async () => {
  await fluid?.close();
  if (parent) rmSync(parent, { recursive: true, force: true });
  console.log('frontend smoke timings (ms):', JSON.stringify(timings));
});

it.each(SURFACES.map((s, i) => [s.name, i === 0 ? '' : `/${s.name}`] as const))('%s: the built index is served and its script loads', async (_name, prefix) => {
  const res = await fetch(`${base}${prefix}/`);
  expect(res.status).toBe(200);
  expect(res.headers.get('set-cookie')).toMatch(/^vite_ns=/);
  const html = await res.text();
  const script = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
  expect(script, html).toMatch(new RegExp(`^${prefix}/frontend/assets/`));
  const js = await fetch(`${base}${script}`);
  expect(js.status).toBe(200);
  expect(js.headers.get('content-type')).toMatch(/javascript/);
  expect((await js.text()).length).toBeGreaterThan(100);
});
