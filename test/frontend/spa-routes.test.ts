/**
 * Deep links of a client-side router (React Router, vue-router, ...) in production: the recipe
 * of frontend.md "Client-side routing" serves the index for the router's paths, while assets,
 * the API and Additives keep answering as before, and a missing asset is still a 404.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Additive, type Fluid, type Handler } from '@fw/kernel';
import { cleanupProjects, makeFluid, start } from '../kernel/helpers.js';

let fluid: Fluid;
let base: string;

beforeAll(async () => {
  fluid = makeFluid({
    config: { APP_FRONTEND: { type: 'vite', framework: 'react' }, FW_CHECK_FRONTEND: false, FW_BUILD_FRONTEND: false },
    files: {
      'fluid/frontend/dist/index.html': '<html><head></head><body>the index</body></html>',
      'fluid/frontend/dist/assets/index-B3xq9a.js': 'app()',
      'fluid/frontend/public/icons.svg': '<svg>icons</svg>',
      'additives/shop/manifest.json': JSON.stringify({ name: 'shop', version: '0.1.0', frontend: { type: 'none' } }),
    },
  });
  const shop = new Additive('shop', { root: join(fluid.root, 'additives/shop') });
  shop.app.get('shop.index', '/', () => 'shop page');
  fluid.additive(shop);
  fluid.api.get('status', '/status', () => ({ ok: true }));
  // The recipe, as frontend.md gives it.
  const spa: Handler = (ctx, next) => (ctx.path.includes('.') ? next() : ctx.fluid.frontend.vite(ctx));
  fluid.app.get('spa.about', '/about', spa);
  fluid.app.get('spa.users', '/users{/*rest}', spa);
  base = await start(fluid);
});

afterAll(async () => {
  await fluid.close();
  cleanupProjects();
});

async function get(path: string, cookie = true): Promise<[number, string]> {
  const res = await fetch(base + path, { headers: { accept: 'application/json', ...(cookie ? { cookie: 'vite_ns=fluid/frontend' } : {}) } });
  return [res.status, await res.text()];
}

it("a reload at a client-side route's path gets the index", async () => {
  for (const path of ['/about', '/users', '/users/42/edit', '/']) expect(await get(path), path).toEqual([200, expect.stringContaining('the index')]);
});

it('assets, the API and Additives answer as before', async () => {
  expect(await get('/frontend/assets/index-B3xq9a.js')).toEqual([200, 'app()']);
  expect(await get('/icons.svg')).toEqual([200, '<svg>icons</svg>']);
  expect(await get('/api/status')).toEqual([200, '{"ok":true}']);
  expect(await get('/shop/')).toEqual([200, 'shop page']);
});

it('a missing asset and an unknown API path are 404s, not the index', async () => {
  for (const path of ['/nope.js', '/users/42/avatar.png', '/frontend/assets/index-gone.js', '/api/nope', '/shop/nope', '/elsewhere']) {
    const [status, body] = await get(path);
    expect(status, path).toBe(404);
    expect(body, path).not.toContain('the index');
  }
});
