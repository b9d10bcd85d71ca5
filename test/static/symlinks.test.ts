/**
 * Symlinks inside a served static root: the app's `/static` (`fluid/static/`), a Vite build's
 * `/frontend` (`fluid/frontend/dist/`) and the production catch-all (`/linked.ini` looked up in
 * `dist/`). A link was followed wherever it led: `dist/linked.ini` → `app_configs/demo.ini` served
 * the SECRET_KEY. Now a link is served only when its real path stays inside the root it is served
 * from. A real production app over HTTP, real symlinks.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fluid } from '@fw/kernel';
import { cleanupProjects, makeFluid, start } from '../kernel/helpers.js';

let fluid: Fluid;
let base: string;
let outside: string;

beforeAll(async () => {
  outside = mkdtempSync(join(tmpdir(), 'fw-outside-'));
  writeFileSync(join(outside, 'secret.txt'), 'outside the project');
  fluid = makeFluid({
    config: { APP_FRONTEND: { type: 'vite', framework: 'react' }, FW_CHECK_FRONTEND: false, FW_BUILD_FRONTEND: false },
    files: {
      'fluid/static/inside.txt': 'inside static',
      'fluid/frontend/dist/index.html': '<html><head></head><body>the index</body></html>',
      'fluid/frontend/dist/inside.txt': 'inside dist',
      'fluid/frontend/dist/nested/deeper.txt': 'deeper in dist',
    },
  });
  const root = fluid.root;
  for (const dir of ['fluid/static', 'fluid/frontend/dist']) {
    symlinkSync('inside.txt', join(root, dir, 'same-root.txt'));
    symlinkSync(join(root, 'app_configs/demo.ini'), join(root, dir, 'linked.ini'));
    symlinkSync(join(outside, 'secret.txt'), join(root, dir, 'outside.txt'));
  }
  // A link to a folder of the same root, and one from dist/ to fluid/static/ (inside the project, not the root).
  symlinkSync('nested', join(root, 'fluid/frontend/dist/alias'));
  symlinkSync(join(root, 'fluid/static'), join(root, 'fluid/frontend/dist/static-alias'));
  base = await start(fluid);
});

afterAll(async () => {
  await fluid?.close();
  cleanupProjects();
  rmSync(outside, { recursive: true, force: true });
});

const get = (path: string) => fetch(base + path, { headers: { cookie: 'vite_ns=fluid/frontend' } });

describe('a symlink in a served static root', () => {
  it.each([
    ['/static/same-root.txt', 'inside static'],
    ['/frontend/same-root.txt', 'inside dist'],
    ['/frontend/alias/deeper.txt', 'deeper in dist'],
    ['/same-root.txt', 'inside dist'],
  ])('%s, to a file of the same root: 200', async (path, body) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(body);
  });

  it.each([
    '/static/linked.ini',
    '/frontend/linked.ini',
    '/linked.ini',
    '/frontend/static-alias/inside.txt',
    '/static/outside.txt',
    '/frontend/outside.txt',
    '/outside.txt',
  ])('%s, leading out of the root (into the project or out of it): 404', async (path) => {
    const res = await get(path);
    const text = await res.text();
    expect(res.status).toBe(404);
    expect(text).not.toContain('SECRET_KEY');
    expect(text).not.toContain('outside the project');
  });
});
