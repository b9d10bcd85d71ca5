import { afterEach, describe, expect, it } from 'vitest';
import { FrameworkException } from '@fw/kernel';
import { createRateLimiter, exempt, limit, parseLimits, rateLimitMark } from '@fw/kernel/limits';
import { baseConfig, get, memoryLogger, ok, startApp, type TestApp } from './harness.ts';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('limit() with the memory store', () => {
  it('counts down RateLimit-* headers and answers 429 with Retry-After past the limit', async () => {
    app = await startApp({}, (route) => route('get', '/login', limit('3/minute'), ok));
    for (const remaining of ['2', '1', '0']) {
      const res = await get(`${app.url}/login`);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('3');
      expect(res.headers.get('ratelimit-remaining')).toBe(remaining);
      const reset = Number(res.headers.get('ratelimit-reset'));
      expect(reset).toBeGreaterThan(0);
      expect(reset).toBeLessThanOrEqual(60);
      expect(res.headers.get('ratelimit-policy')).toBe('3;w=60');
    }
    const refused = await get(`${app.url}/login`);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-limit')).toBe('3');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('ratelimit-reset')).toBe(String(retryAfter));
    expect(JSON.parse(refused.text).error).toMatch(/Too Many Requests: limit of 3\/1 minute exceeded/);
  });

  it('lets exactly N of 200 concurrent requests through', async () => {
    const N = 37;
    app = await startApp({}, (route) => route('get', '/burst', limit(`${N}/minute`), ok));
    const url = `${app.url}/burst`;
    const statuses = await Promise.all(Array.from({ length: 200 }, () => get(url).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(N);
    expect(statuses.filter((s) => s === 429)).toHaveLength(200 - N);
  });

  it('enforces every limit of a multi-limit spec and reports the tightest', async () => {
    app = await startApp({}, (route) => route('get', '/multi', limit('2 per 2 seconds;3/minute'), ok));
    const first = await get(`${app.url}/multi`);
    expect(first.headers.get('ratelimit-policy')).toBe('2;w=2, 3;w=60');
    expect(first.headers.get('ratelimit-limit')).toBe('2');
    expect(first.headers.get('ratelimit-remaining')).toBe('1');
    expect((await get(`${app.url}/multi`)).status).toBe(200);
    const perSecond = await get(`${app.url}/multi`);
    expect(perSecond.status).toBe(429);
    expect(Number(perSecond.headers.get('retry-after'))).toBeLessThanOrEqual(2);
    expect(JSON.parse(perSecond.text).error).toContain('2/2 second');
    await new Promise((r) => setTimeout(r, 2100));
    const third = await get(`${app.url}/multi`);
    expect(third.status).toBe(200); // the per-second window has passed; the refused request was not counted per minute
    // the minute window is now exhausted: refusal names the 3/minute limit and waits longer than a second
    const perMinute = await get(`${app.url}/multi`);
    expect(perMinute.status).toBe(429);
    expect(Number(perMinute.headers.get('retry-after'))).toBeGreaterThan(2);
    expect(JSON.parse(perMinute.text).error).toContain('3/1 minute');
  });

  it('keeps a separate counter per route and per key function', async () => {
    app = await startApp({}, (route) => {
      route('get', '/a', limit('1/minute'), ok);
      route('get', '/b', limit('1/minute'), ok);
      route('get', '/keyed', limit('1/minute', { key: (ctx) => ctx.get('x-api-key') }), ok);
    });
    expect((await get(`${app.url}/a`)).status).toBe(200);
    expect((await get(`${app.url}/b`)).status).toBe(200);
    expect((await get(`${app.url}/a`)).status).toBe(429);
    expect((await get(`${app.url}/keyed`, { 'x-api-key': 'one' })).status).toBe(200);
    expect((await get(`${app.url}/keyed`, { 'x-api-key': 'two' })).status).toBe(200);
    expect((await get(`${app.url}/keyed`, { 'x-api-key': 'one' })).status).toBe(429);
  });

  it('does nothing when RATELIMIT_ENABLED is false', async () => {
    app = await startApp({ RATELIMIT_ENABLED: false, RATELIMIT_DEFAULT: '1/minute' }, (route) => {
      route('get', '/limited', limit('1/minute'), ok);
      route('get', '/plain', ok);
    });
    for (let i = 0; i < 5; i++) {
      const limited = await get(`${app.url}/limited`);
      expect(limited.status).toBe(200);
      expect(limited.headers.get('ratelimit-limit')).toBeNull();
      expect((await get(`${app.url}/plain`)).status).toBe(200);
    }
  });
});

describe('RATELIMIT_DEFAULT (deviation: the reference never applied it)', () => {
  it('applies to a route without its own limit, not to an exempt one, and yields to limit()', async () => {
    app = await startApp({ RATELIMIT_DEFAULT: '2/minute' }, (route) => {
      route('get', '/plain', ok);
      route('get', '/other', ok);
      route('get', '/health', exempt(), ok);
      route('get', '/own', limit('5/minute'), ok);
    });
    const plain = await get(`${app.url}/plain`);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('ratelimit-limit')).toBe('2');
    expect((await get(`${app.url}/plain`)).status).toBe(200);
    expect((await get(`${app.url}/plain`)).status).toBe(429);
    // the default counts per route
    expect((await get(`${app.url}/other`)).status).toBe(200);
    for (let i = 0; i < 6; i++) {
      const health = await get(`${app.url}/health`);
      expect(health.status).toBe(200);
      expect(health.headers.get('ratelimit-limit')).toBeNull();
    }
    for (let i = 0; i < 5; i++) {
      const own = await get(`${app.url}/own`);
      expect(own.status).toBe(200);
      expect(own.headers.get('ratelimit-limit')).toBe('5');
    }
    expect((await get(`${app.url}/own`)).status).toBe(429);
  });

  it('leaves routes unlimited when unset (the reference behaviour)', async () => {
    app = await startApp({}, (route) => route('get', '/plain', ok));
    for (let i = 0; i < 20; i++) {
      const res = await get(`${app.url}/plain`);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
  });

  it('is skipped when a limit() already ran for the request from router-level middleware', async () => {
    app = await startApp({ RATELIMIT_DEFAULT: '1/minute' }, (route, koa) => {
      koa.use(limit('3/minute'));
      route('get', '/plain', ok);
    });
    for (let i = 0; i < 3; i++) expect((await get(`${app.url}/plain`)).status).toBe(200);
    expect((await get(`${app.url}/plain`)).status).toBe(429);
  });
});

describe('definition-time checks', () => {
  it('parses every documented spec form', () => {
    expect(parseLimits('10/minute')).toEqual([{ points: 10, seconds: 60, text: '10/1 minute' }]);
    expect(parseLimits('5 per second')).toEqual([{ points: 5, seconds: 1, text: '5/1 second' }]);
    expect(parseLimits('100/hour')[0]?.seconds).toBe(3600);
    expect(parseLimits('1000/day')[0]?.seconds).toBe(86_400);
    expect(parseLimits('20 per 5 minutes')[0]).toEqual({ points: 20, seconds: 300, text: '20/5 minute' });
    expect(parseLimits('10/minute; 100/hour').map((l) => l.seconds)).toEqual([60, 3600]);
    expect(parseLimits('3 PER HOURS')[0]?.seconds).toBe(3600);
  });

  it.each(['10/fortnight', '0/minute', 'ten/minute', '10', '10/minute;', '-1/second', '10/0 minutes', ''])(
    'limit(%j) throws a FrameworkException naming the spec',
    (spec) => {
      expect(() => limit(spec)).toThrow(FrameworkException);
      expect(() => limit(spec)).toThrow(/limit\(|rate limit/);
      if (spec) expect(() => limit(spec)).toThrow(spec);
    },
  );

  it('rejects a bad RATELIMIT_DEFAULT, PROXY_TRUSTED_HOSTS or CACHE_REDIS_URL by key name', () => {
    const logger = memoryLogger();
    expect(() => createRateLimiter({ config: { ...baseConfig, RATELIMIT_DEFAULT: '5/week' }, logger })).toThrow(
      /RATELIMIT_DEFAULT: invalid rate limit "5\/week"/,
    );
    expect(() =>
      createRateLimiter({ config: { ...baseConfig, PROXY_FIX: true, PROXY_TRUSTED_HOSTS: ['10.0.0.0/99'] }, logger }),
    ).toThrow(/PROXY_TRUSTED_HOSTS: "10.0.0.0\/99"/);
    expect(() => createRateLimiter({ config: { ...baseConfig, CACHE_TYPE: 'redis' }, logger })).toThrow(
      /CACHE_REDIS_URL is required when CACHE_TYPE is "redis"/,
    );
    expect(() =>
      createRateLimiter({ config: { ...baseConfig, CACHE_TYPE: 'redis', CACHE_REDIS_URL: 'http://127.0.0.1:6379' }, logger }),
    ).toThrow(/CACHE_REDIS_URL: expected a redis:\/\/ or rediss:\/\/ URL/);
  });

  it('marks limit() and exempt() so routers can tell them apart', () => {
    expect(rateLimitMark(limit('1/second'))).toBe('limit');
    expect(rateLimitMark(exempt())).toBe('exempt');
    expect(rateLimitMark(ok)).toBeUndefined();
    // marks survive the kind of wrapping the kernel's routers do (Object.assign of own props)
    expect(rateLimitMark(Object.assign(() => undefined, exempt()))).toBe('exempt');
  });

  it('fails loudly when limit() runs without the rate limiter middleware', async () => {
    app = await startApp({}, (route) => route('get', '/x', limit('1/minute'), ok), { install: false });
    const res = await get(`${app.url}/x`);
    expect(res.status).toBe(500);
    expect(app.faults[0]).toBeInstanceOf(FrameworkException);
    expect(app.faults[0]?.message).toMatch(/limit\(\): the rate limiter is not installed/);
  });
});
