/**
 * @fw/additive-health (runtime-kernel/additives/health), registered in a real Fluid and asked over real HTTP:
 * liveness, readiness with passing, failing, throwing and hanging checks, and its manifest.
 */
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import health, { addReadinessCheck, CHECK_TIMEOUT_MS, removeReadinessCheck } from '../../runtime-kernel/additives/health/src/index.js';
import { baseUrl, cleanupProjects, makeFluid } from '../kernel/helpers.js';

const fluid = makeFluid({ name: 'health-app' });
fluid.additive(health);
let base = '';

beforeAll(async () => {
  base = baseUrl(await fluid.listen(0, '127.0.0.1'));
});

afterAll(async () => {
  await fluid.close();
  cleanupProjects();
});

afterEach(() => {
  for (const name of ['database', 'cache', 'queue']) removeReadinessCheck(name);
});

test('GET /api/health answers 200 {"status":"ok"}, never cached', async () => {
  const response = await fetch(`${base}/api/health`);
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(await response.json()).toEqual({ status: 'ok' });
  expect(fluid.urlFor('health.live')).toBe('/api/health');
});

test('GET /api/health/ready is 200 with every check ok (none registered counts as ready)', async () => {
  expect(await (await fetch(`${base}/api/health/ready`)).json()).toEqual({ status: 'ready', checks: {} });
  addReadinessCheck('database', async () => 'pong');
  const response = await fetch(`${base}/api/health/ready`);
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(await response.json()).toEqual({ status: 'ready', checks: { database: 'ok' } });
});

test('a failing, a throwing and a hanging check each make it 503, naming the check and why', async () => {
  addReadinessCheck('database', async () => {
    throw new Error('connection refused');
  });
  addReadinessCheck('cache', () => {
    throw new Error('ECONNRESET');
  });
  addReadinessCheck('queue', () => new Promise(() => {}));
  const response = await fetch(`${base}/api/health/ready`);
  expect(response.status).toBe(503);
  expect(await response.json()).toEqual({
    status: 'unavailable',
    checks: { database: 'connection refused', cache: 'ECONNRESET', queue: `no answer within ${CHECK_TIMEOUT_MS} ms` },
  });
});

test('a check name is unique and not empty', () => {
  addReadinessCheck('database', () => true);
  expect(() => addReadinessCheck('database', () => true)).toThrow(/"database" is already registered/);
  expect(() => addReadinessCheck(' ', () => true)).toThrow(/must not be empty/);
  expect(removeReadinessCheck('database')).toBe(true);
  expect(removeReadinessCheck('database')).toBe(false);
});

test('its manifest names it and declares no frontend; the package exports it as default', () => {
  const manifest = JSON.parse(readFileSync(new URL('../../runtime-kernel/additives/health/manifest.json', import.meta.url), 'utf8')) as Record<string, unknown>;
  expect(manifest).toMatchObject({ name: 'health', frontend: { type: 'none' } });
  expect(health.name).toBe('health');
});
