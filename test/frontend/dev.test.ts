/** Debug mode over HTTP: one shared dev server serves every workspace through /vite-dev. */
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Additive, Fluid } from '@fw/kernel';
import { memoryLogger, start } from '../kernel/helpers.js';
import { cleanupViteProjects, viteProject } from './helpers.js';

let fluid: Fluid;
let base: string;

beforeAll(async () => {
  const root = viteProject({
    config: { DEBUG: true },
    surfaces: [
      { frontend: { type: 'vite', framework: 'none' } },
      { additive: 'shop', frontend: { type: 'vite', framework: 'none', typescript: true } },
    ],
  });
  fluid = new Fluid({ root, env: {}, logger: memoryLogger() });
  fluid.additive(new Additive('shop', { root: path.join(root, 'additives/shop') }));
  base = await start(fluid);
}, 60_000);

afterAll(async () => {
  await fluid?.close();
  cleanupViteProjects();
});

it('serves each surface index rewritten to its own workspace, with its own vite_ns cookie', async () => {
  const app = await fetch(`${base}/`);
  expect(app.headers.get('set-cookie')).toMatch(/^vite_ns=fluid\/frontend;/);
  const appHtml = await app.text();
  expect(appHtml).toContain('src="/vite-dev/fluid/frontend/src/main.js"');
  expect(appHtml).toContain('href="/vite-dev/fluid/frontend/public/favicon.svg"');
  expect(appHtml).not.toContain('@react-refresh');
  const shop = await fetch(`${base}/shop/`);
  expect(shop.headers.get('set-cookie')).toMatch(/^vite_ns=additives\/shop\/frontend;/);
  expect(await shop.text()).toContain('src="/vite-dev/additives/shop/frontend/src/main.ts"');
});

it('one dev server transforms both workspaces through the proxy (TypeScript included)', async () => {
  const js = await fetch(`${base}/vite-dev/fluid/frontend/src/main.js`);
  expect(js.status).toBe(200);
  expect(js.headers.get('content-type')).toMatch(/javascript/);
  const ts = await fetch(`${base}/vite-dev/additives/shop/frontend/src/main.ts`);
  expect(ts.status).toBe(200);
  const code = await ts.text();
  expect(code).not.toMatch(/:\s*HTMLButtonElement\b/); // types stripped
  expect(code).toContain('/vite-dev/');
  const client = await fetch(`${base}/vite-dev/@vite/client`);
  expect(await client.text()).toContain('HMRClient');
});

it('a path outside /vite-dev is not proxied, and non-Vite paths still 404', async () => {
  expect((await fetch(`${base}/vite-devx/@vite/client`)).status).toBe(404);
  expect((await fetch(`${base}/nothing-here`)).status).toBe(404);
});
