/**
 * A production Vite app's build over real HTTP, one booted app: what Vite names by content hash
 * (`assets/`) is cached for a year as immutable, the rest of `dist/` is revalidated, a missing
 * asset is a 404 (never the index), and the client-side routing recipe of frontend.md serves the
 * index at a router's deep links while assets, the API and Additives answer as before.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Additive, type Fluid, type Handler } from '@fw/kernel';
import { cleanupProjects, makeFluid, start } from '../kernel/helpers.js';

const INDEX = '<html><head><script type="module" src="/frontend/assets/index-B3xq9a.js"></script></head><body>the index</body></html>';

let fluid: Fluid;
let base: string;

beforeAll(async () => {
  fluid = makeFluid({
    config: { APP_FRONTEND: { type: 'vite', framework: 'react' }, FW_CHECK_FRONTEND: false, FW_BUILD_FRONTEND: false },
    files: {
      'fluid/frontend/dist/index.html': INDEX,
      'fluid/frontend/dist/assets/index-B3xq9a.js': 'app()',
      'fluid/frontend/dist/favicon.svg': '<svg/>',
      'fluid/frontend/public/icons.svg': '<svg>icons</svg>',
      'additives/shop/manifest.json': JSON.stringify({ name: 'shop', version: '0.1.0', frontend: { type: 'vite', framework: 'vue' } }),
      'additives/shop/frontend/dist/index.html': '<html><head></head><body>shop</body></html>',
      'additives/shop/frontend/dist/assets/index-Zk31q0.css': 'body{}',
    },
  });
  const shop = new Additive('shop', { root: join(fluid.root, 'additives/shop') });
  shop.app.get('shop.orders', '/orders', () => 'shop orders');
  fluid.additive(shop);
  fluid.api.get('status', '/status', () => ({ ok: true }));
  // The client-side routing recipe, as frontend.md gives it.
  const spa: Handler = (ctx, next) => (ctx.path.includes('.') ? next() : ctx.fluid.frontend.vite(ctx));
  fluid.app.get('spa.about', '/about', spa);
  fluid.app.get('spa.users', '/users{/*rest}', spa);
  base = await start(fluid);
});

afterAll(async () => {
  await fluid.close();
  cleanupProjects();
});

async function get(path: string): Promise<Response> {
  return fetch(base + path, { headers: { accept: 'application/json', cookie: 'vite_ns=fluid/frontend' } });
}

describe('the build', () => {
  it("hashed assets are cached for a year as immutable, the app's and an Additive's", async () => {
    for (const path of ['/frontend/assets/index-B3xq9a.js', '/shop/frontend/assets/index-Zk31q0.css']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('max-age=31536000,immutable');
      expect(res.headers.get('etag'), path).toMatch(/^W\//);
    }
  });

  it('its other files keep their names, so they are revalidated', async () => {
    const res = await get('/frontend/favicon.svg');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('max-age=0');
  });
});

describe('client-side routing', () => {
  it("a reload at a client-side route's path gets the index", async () => {
    for (const path of ['/', '/about', '/users', '/users/42/edit']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toContain('the index');
    }
  });

  it('assets, the API and Additives answer as before', async () => {
    for (const [path, body] of [
      ['/frontend/assets/index-B3xq9a.js', 'app()'],
      ['/icons.svg', '<svg>icons</svg>'],
      ['/api/status', '{"ok":true}'],
      ['/shop/orders', 'shop orders'],
      ['/shop/', 'shop'],
    ] as const) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toContain(body);
    }
  });
});

it('a missing asset, an unknown API or Additive path, and an unlisted path are 404s, never the index', async () => {
  for (const path of ['/nope.js', '/users/42/avatar.png', '/frontend/assets/index-gone.js', '/shop/frontend/assets/old.css', '/frontend/assets/', '/api/nope', '/shop/nope', '/elsewhere']) {
    const res = await get(path);
    expect(res.status, path).toBe(404);
    expect(await res.text(), path).not.toContain('the index');
  }
});
