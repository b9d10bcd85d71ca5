/**
 * @fw/additive-health (runtime-kernel/additives/health), registered in a real Fluid and asked
 * over real HTTP: the status page and its JSON over the kernel's readiness checks, who may see
 * them, and its manifest.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import health from '../../runtime-kernel/additives/health/src/index.js';
import { baseUrl, cleanupProjects, makeFluid } from '../kernel/helpers.js';

const fluid = makeFluid({ name: 'health-app', config: { HEALTH_CHECK_TIMEOUT: 1 } });
fluid.additive(health);
let failing = true;
fluid.health.check('payments', () => {
  if (failing) throw new Error('payments API refused the connection');
});
let base = '';

beforeAll(async () => {
  base = baseUrl(await fluid.listen(0, '127.0.0.1'));
});

afterAll(async () => {
  await fluid.close();
  cleanupProjects();
});

test('GET /api/health: every readiness check with its state and error, the backends and the process, never cached', async () => {
  const response = await fetch(`${base}/api/health`);
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toMatchObject({
    app: 'health-app',
    status: 'unavailable',
    checks: [
      { name: 'cache', state: 'ok', ms: expect.any(Number) },
      { name: 'payments', state: 'failed', error: 'payments API refused the connection' },
    ],
    backends: [{ name: 'cache', kind: 'file', scope: 'host' }],
    process: { pid: process.pid, node: process.version },
  });
  expect(fluid.urlFor('health.status')).toBe('/api/health');
});

test('GET /health/: the page names each check and why it fails, its style nonced for the CSP; ready once the check passes', async () => {
  const page = await fetch(`${base}/health/`);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('<title>health-app: unavailable</title>');
  // Its inline style carries the nonce of the response's CSP, so browsers apply it.
  const nonce = /<style nonce="([^"]+)">/.exec(html)?.[1];
  expect(nonce).toBeTruthy();
  expect(page.headers.get('content-security-policy')).toContain(`'nonce-${nonce}'`);
  expect(html).toMatch(/<td>payments<\/td><td class="state bad">failed<\/td><td>\d+ ms<\/td><td>payments API refused the connection<\/td>/);
  failing = false;
  expect(await (await fetch(`${base}/health/`)).text()).toContain('<title>health-app: ready</title>');
});

test('by default only a loopback caller sees it, not one a local reverse proxy forwarded', async () => {
  expect((await fetch(`${base}/api/health`)).status).toBe(200);
  for (const header of ['X-Forwarded-For', 'Forwarded', 'X-Real-IP']) {
    const forwarded = await fetch(`${base}/api/health`, { headers: { [header]: header === 'Forwarded' ? 'for=203.0.113.7' : '203.0.113.7' } });
    expect(forwarded.status).toBe(404);
    expect((await fetch(`${base}/health/`, { headers: { [header]: '203.0.113.7' } })).status).toBe(404);
  }
});

test('with HEALTH_ACCESS=token only a caller with the token sees it', async () => {
  const guarded = makeFluid({ config: { HEALTH_ACCESS: 'token', HEALTH_TOKEN: 'a-long-enough-health-token' } });
  guarded.additive(health);
  const url = baseUrl(await guarded.listen(0, '127.0.0.1'));
  try {
    expect((await fetch(`${url}/api/health`)).status).toBe(404);
    expect((await fetch(`${url}/health/`)).status).toBe(404);
    expect((await fetch(`${url}/api/health`, { headers: { 'X-Health-Token': 'a-long-enough-health-token' } })).status).toBe(200);
  } finally {
    await guarded.close();
  }
});

test('its manifest names it and declares no frontend; the package exports it as default and ships its template', () => {
  const manifest = JSON.parse(readFileSync(new URL('../../runtime-kernel/additives/health/manifest.json', import.meta.url), 'utf8')) as Record<string, unknown>;
  expect(manifest).toMatchObject({ name: 'health', frontend: { type: 'none' } });
  expect(health.name).toBe('health');
  const pkg = JSON.parse(readFileSync(new URL('../../runtime-kernel/additives/health/package.json', import.meta.url), 'utf8')) as { files: string[] };
  expect(pkg.files).toContain('templates');
});
