/**
 * The health plugin over real HTTP: liveness, readiness with fw's checks and the app's own,
 * what a caller sees of a failing check (never why), access by token, paths and switching it
 * off, the drain on close({ drain: true }), and bad configs.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, type Fluid } from '@fw/kernel';
import { cleanupProjects, makeFluid, memoryLogger, start } from '../kernel/helpers.js';
import { startRedis } from '../support/redis.js';

const fluids: Fluid[] = [];
afterAll(async () => {
  await Promise.all(fluids.map((f) => f.close()));
  cleanupProjects();
});

function app(config: Record<string, unknown> = {}): { fluid: Fluid; lines: string[] } {
  const logger = memoryLogger();
  const fluid = makeFluid({ config }, { logger });
  fluid.app.get('hello', '/', () => 'hello');
  fluids.push(fluid);
  return { fluid, lines: logger.lines };
}

describe('liveness and readiness', () => {
  it('/healthz is 200 {"status":"ok"}, /readyz 200 with the file cache checked, neither cached', async () => {
    const { fluid } = app();
    const base = await start(fluid);
    const live = await fetch(`${base}/healthz`);
    expect([live.status, live.headers.get('cache-control'), await live.json()]).toEqual([200, 'no-store', { status: 'ok' }]);
    const ready = await fetch(`${base}/readyz`);
    expect([ready.status, ready.headers.get('cache-control'), await ready.json()]).toEqual([200, 'no-store', { status: 'ready', checks: { cache: 'ok' } }]);
  });

  it('a file cache whose CACHE_DIR cannot be made: /readyz 503 naming the cache, and one warning saying why', async () => {
    // fw.json is a file, so no folder can be made under it (as an unwritable var/ under a non-root user).
    const { fluid, lines } = app({ CACHE_DIR: 'fw.json/cache' });
    const base = await start(fluid);
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${base}/readyz`);
      expect([res.status, await res.json()]).toEqual([503, { status: 'unavailable', checks: { cache: 'failed' } }]);
    }
    const warnings = lines.filter((l) => l.startsWith("warn health: check 'cache' fails; readiness answers 503"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('ENOTDIR');
    expect(warnings[0]).toContain('fw.json/cache');
  });

  it('an app check that fails or hangs makes /readyz 503 naming it (not why); readiness() says why; logged once per change', async () => {
    const { fluid, lines } = app({ HEALTH_CHECK_TIMEOUT: 1 });
    let payments = false;
    fluid.health.check('payments', () => {
      if (!payments) throw new Error('payments API refused: 10.0.0.7:443');
    });
    fluid.health.check('queue', () => new Promise(() => undefined));
    const base = await start(fluid);
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${base}/readyz`);
      expect(res.status).toBe(503);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ status: 'unavailable', checks: { cache: 'ok', payments: 'failed', queue: 'timeout' } });
      expect(text).not.toContain('10.0.0.7');
    }
    const details = await fluid.health.readiness();
    expect(details.checks.payments).toMatchObject({ state: 'failed', error: 'payments API refused: 10.0.0.7:443' });
    expect(details.checks.queue).toMatchObject({ state: 'timeout', error: 'no answer within 1 s' });
    expect(lines.filter((l) => l.startsWith("warn health: check 'payments' fails"))).toHaveLength(1);
    payments = true;
    fluid.health.removeCheck('queue');
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect(lines.filter((l) => l.startsWith("info health: check 'payments' passes again"))).toHaveLength(1);
    expect(() => fluid.health.check('payments', () => true)).toThrow("health.check('payments'): a check of that name is already registered");
  });
});

describe('the events bus in readiness', () => {
  it('with CACHE_TYPE=redis, /readyz checks the bus only once the app has an event, as the backends line names it only then', async () => {
    const redis = await startRedis();
    try {
      const { fluid } = app({ CACHE_TYPE: 'redis', CACHE_REDIS_URL: redis.url });
      const base = await start(fluid);
      // No event: no bus connection, and nothing said about one.
      expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: 'ready', checks: { cache: 'ok' } });
      expect(fluid.plugins.get('events')?.backends?.(fluid)).toEqual([]);
      // An event registered after the start joins the bus: checked from then on.
      fluid.events.createSignal('late');
      for (let i = 0; i < 200 && !fluid.health.checks.includes('events'); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: 'ready', checks: { cache: 'ok', events: 'ok' } });
      expect(fluid.plugins.get('events')?.backends?.(fluid)).toMatchObject([{ name: 'events', kind: 'redis bus', scope: 'shared' }]);
      await fluid.close();
    } finally {
      await redis.stop();
    }
  });
});

describe('exposure', () => {
  it('HEALTH_ACCESS=token: only a caller with X-Health-Token sees the routes; others get the app\'s 404', async () => {
    const { fluid } = app({ HEALTH_ACCESS: 'token', HEALTH_TOKEN: 'a-long-enough-health-token' });
    const base = await start(fluid);
    expect((await fetch(`${base}/readyz`)).status).toBe(404);
    expect((await fetch(`${base}/healthz`, { headers: { 'X-Health-Token': 'a-long-enough-health-tokeN' } })).status).toBe(404);
    expect((await fetch(`${base}/readyz`, { headers: { 'X-Health-Token': 'a-long-enough-health-token' } })).status).toBe(200);
  });

  it('HEALTH_ACCESS=loopback answers a loopback peer; paths are configurable; HEALTH_ENABLED=false removes the routes', async () => {
    const loopback = await start(app({ HEALTH_ACCESS: 'loopback', HEALTH_LIVE_PATH: '/ops/live', HEALTH_READY_PATH: '/ops/ready' }).fluid);
    expect((await fetch(`${loopback}/ops/live`)).status).toBe(200);
    expect((await fetch(`${loopback}/ops/ready`)).status).toBe(200);
    expect((await fetch(`${loopback}/healthz`)).status).toBe(404);
    const off = await start(app({ HEALTH_ENABLED: false }).fluid);
    expect((await fetch(`${off}/healthz`)).status).toBe(404);
    expect((await fetch(`${off}/readyz`)).status).toBe(404);
  });

  it('a token mode without a token, or one path for both routes, is an error naming the keys', () => {
    expect(() => makeFluid({ config: { HEALTH_ACCESS: 'token' } })).toThrow(/HEALTH_ACCESS is "token" but HEALTH_TOKEN is not set/);
    // A ConfigError, as every other config mistake: a production start prints it as one line.
    expect(() => makeFluid({ config: { HEALTH_ACCESS: 'token' } })).toThrow(ConfigError);
    expect(() => makeFluid({ config: { HEALTH_READY_PATH: '/healthz' } })).toThrow(ConfigError);
    expect(() => makeFluid({ config: { HEALTH_READY_PATH: '/healthz' } })).toThrow(/HEALTH_LIVE_PATH and HEALTH_READY_PATH are both "\/healthz"/);
  });
});

describe('the drain', () => {
  it('close({ drain: true }) after a readiness probe: readiness 503 "draining", liveness and the app still served for SERVER_DRAIN_DELAY, then closed', async () => {
    const { fluid, lines } = app({ SERVER_DRAIN_DELAY: 1 });
    const base = await start(fluid);
    expect((await fetch(`${base}/readyz`)).status).toBe(200); // a prober is watching
    const closing = fluid.close({ drain: true });
    const ready = await fetch(`${base}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([503, { status: 'draining' }]);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const served = await fetch(`${base}/`);
    expect([served.status, served.headers.get('connection'), await served.text()]).toEqual([200, 'close', 'hello']);
    await closing;
    await expect(fetch(`${base}/`)).rejects.toThrow();
    expect(lines.filter((l) => l.startsWith('info draining: readiness answers 503'))).toHaveLength(1);
  });

  it('a probe still checking when the drain begins answers 503 "draining" like the ones after it', async () => {
    const { fluid } = app({ SERVER_DRAIN_DELAY: 1 });
    let release = (): void => undefined;
    let started = (): void => undefined;
    const checking = new Promise<void>((resolve) => (started = resolve));
    fluid.health.check('slow', () => {
      started();
      return new Promise<boolean>((resolve) => (release = () => resolve(true)));
    });
    const base = await start(fluid);
    const probe = fetch(`${base}/readyz`);
    await checking;
    const closing = fluid.close({ drain: true });
    release();
    const ready = await probe;
    expect([ready.status, await ready.json()]).toEqual([503, { status: 'draining' }]);
    await closing;
  });

  it('nobody probed readiness: close({ drain: true }) does not wait', async () => {
    const { fluid, lines } = app({ SERVER_DRAIN_DELAY: 30 });
    await start(fluid);
    await fluid.close({ drain: true }); // would take 30 s if it waited
    expect(lines.filter((l) => l.includes('draining'))).toEqual([]);
  });
});
