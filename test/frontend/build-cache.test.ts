/**
 * A production Vite app's build over real HTTP: what Vite names by content hash (`assets/`) is
 * cached for a year as immutable, the rest of `dist/` is revalidated, and a missing asset is a
 * 404 (never the index).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Additive, type Fluid } from '@fw/kernel';
import { cleanupProjects, makeFluid, start } from '../kernel/helpers.js';

const INDEX = '<html><head><script type="module" src="/frontend/assets/index-B3xq9a.js"></script></head><body>built</body></html>';

let fluid: Fluid;
let base: string;

beforeAll(async () => {
  fluid = makeFluid({
    config: { APP_FRONTEND: { type: 'vite', framework: 'react' }, FW_CHECK_FRONTEND: false, FW_BUILD_FRONTEND: false },
    files: {
      'fluid/frontend/dist/index.html': INDEX,
      'fluid/frontend/dist/assets/index-B3xq9a.js': 'console.log("app")',
      'fluid/frontend/dist/favicon.svg': '<svg/>',
      'additives/shop/manifest.json': JSON.stringify({ name: 'shop', version: '0.1.0', frontend: { type: 'vite', framework: 'vue' } }),
      'additives/shop/frontend/dist/index.html': '<html><head></head><body>shop</body></html>',
      'additives/shop/frontend/dist/assets/index-Zk31q0.css': 'body{}',
    },
  });
  fluid.additive(new Additive('shop', { root: join(fluid.root, 'additives/shop') }));
  base = await start(fluid);
});

afterAll(async () => {
  await fluid.close();
  cleanupProjects();
});

it("the build's hashed assets are cached for a year as immutable, the app's and an Additive's", async () => {
  for (const path of ['/frontend/assets/index-B3xq9a.js', '/shop/frontend/assets/index-Zk31q0.css']) {
    const res = await fetch(base + path);
    expect(res.status, path).toBe(200);
    expect(res.headers.get('cache-control'), path).toBe('max-age=31536000,immutable');
    expect(res.headers.get('etag'), path).toMatch(/^W\//);
  }
});

it("the build's other files keep their names, so they are revalidated", async () => {
  const res = await fetch(`${base}/frontend/favicon.svg`);
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('max-age=0');
});

it('a missing asset is a 404, not the index', async () => {
  for (const path of ['/frontend/assets/index-gone.js', '/shop/frontend/assets/old.css', '/frontend/assets/']) {
    const res = await fetch(base + path, { headers: { accept: 'application/json' } });
    expect(res.status, path).toBe(404);
    expect(await res.text(), path).not.toContain('built');
  }
});

it('the index still answers at the surface root', async () => {
  expect(await (await fetch(`${base}/`)).text()).toContain('index-B3xq9a.js');
});
