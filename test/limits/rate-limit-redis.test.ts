import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { limit } from '@fw/kernel/limits';
import { freePort, startRedis, type TestRedis } from '../support/redis.ts';
import { get, memoryLogger, ok, startApp, type TestApp } from './harness.ts';

let redis: TestRedis;
let inspect: Redis;
const apps: TestApp[] = [];

beforeAll(async () => {
  redis = await startRedis();
  inspect = new Redis(redis.url);
});
afterAll(async () => {
  inspect.disconnect();
  await redis.stop();
});
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

async function redisApp(define: Parameters<typeof startApp>[1], url = redis.url, logger = memoryLogger()) {
  const app = await startApp({ CACHE_TYPE: 'redis', CACHE_REDIS_URL: url }, define, { logger });
  apps.push(app);
  return app;
}

describe('limit() with the Redis store', () => {
  it('counts in Redis and answers 429 with Retry-After and RateLimit-* headers', async () => {
    const app = await redisApp((route) => route('get', '/login', limit('2/minute'), ok));
    expect(app.limiter?.store).toBe('redis');
    const first = await get(`${app.url}/login`);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-remaining')).toBe('1');
    expect((await get(`${app.url}/login`)).status).toBe(200);
    const refused = await get(`${app.url}/login`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    expect(refused.headers.get('ratelimit-limit')).toBe('2');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    const keys = await inspect.keys('fw:rl:2/60s:*');
    expect(keys).toContain('fw:rl:2/60s:route:GET /login:127.0.0.1');
    expect(await inspect.get('fw:rl:2/60s:route:GET /login:127.0.0.1')).toBe('3');
  });

  it('lets exactly N of 200 concurrent requests through', async () => {
    const N = 23;
    const app = await redisApp((route) => route('get', '/burst', limit(`${N}/minute`), ok));
    const statuses = await Promise.all(Array.from({ length: 200 }, () => get(`${app.url}/burst`).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(N);
    expect(statuses.filter((s) => s === 429)).toHaveLength(200 - N);
  });

  it('shares counters between app processes through Redis', async () => {
    const define = (route: Parameters<Parameters<typeof startApp>[1]>[0]) => route('get', '/shared', limit('3/minute'), ok);
    const one = await redisApp(define);
    const two = await redisApp(define);
    expect((await get(`${one.url}/shared`)).status).toBe(200);
    expect((await get(`${two.url}/shared`)).status).toBe(200);
    expect((await get(`${one.url}/shared`)).status).toBe(200);
    expect((await get(`${two.url}/shared`)).status).toBe(429);
  });

  it('applies RATELIMIT_DEFAULT through Redis too', async () => {
    const app = await startApp(
      { CACHE_TYPE: 'redis', CACHE_REDIS_URL: redis.url, RATELIMIT_DEFAULT: '1 per minute' },
      (route) => route('get', '/plain', ok),
    );
    apps.push(app);
    expect((await get(`${app.url}/plain`)).status).toBe(200);
    expect((await get(`${app.url}/plain`)).status).toBe(429);
    expect(await inspect.exists('fw:rl:1/60s:default:GET /plain:127.0.0.1')).toBe(1);
  });
});

describe('Redis outage', () => {
  it('answers 503 while Redis is down, logs it once, and recovers when Redis is back on the same port', async () => {
    const own = await startRedis();
    const logger = memoryLogger();
    const app = await redisApp((route) => route('get', '/x', limit('100/minute'), ok), own.url, logger);
    expect((await get(`${app.url}/x`)).status).toBe(200);

    await own.stop();
    const started = Date.now();
    const down = await get(`${app.url}/x`);
    expect(down.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(JSON.parse(down.text).error).toBe('Rate limiting is unavailable: its store is not answering. Try again shortly.');
    expect(down.headers.get('retry-after')).toBe('1');
    expect((await get(`${app.url}/x`)).status).toBe(503);
    expect(app.faults).toEqual([]);
    expect(logger.lines.filter((l) => l.startsWith('error rate limiter: Redis store unavailable'))).toHaveLength(1);

    const again = await startRedis({ port: own.port });
    try {
      let status = 0;
      for (let i = 0; i < 100 && status !== 200; i++) {
        status = (await get(`${app.url}/x`)).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
      expect(logger.lines).toContain('info rate limiter: Redis store available again ["url"]');
    } finally {
      await app.close();
      await again.stop();
    }
  });

  it('answers 503 (and does not crash) when Redis is unreachable from the start', async () => {
    const port = await freePort();
    const logger = memoryLogger();
    const app = await redisApp((route) => route('get', '/x', limit('5/minute'), ok), `redis://127.0.0.1:${port}/0`, logger);
    const res = await get(`${app.url}/x`);
    expect(res.status).toBe(503);
    expect(logger.lines.some((l) => l.startsWith('error rate limiter: Redis store unavailable'))).toBe(true);
  });
});
