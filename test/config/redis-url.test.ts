/**
 * `REDIS_URL` in the environment (Heroku's, Render's, Sidekiq's): the `CACHE_REDIS_URL` of an app
 * with `CACHE_TYPE=redis`, shown in the startup log; set where fw does not use it, a warning
 * says what to set. The same from the project's `.env`, under the real environment. Over a real
 * Redis and a started app.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, type Fluid } from '@fw/kernel';
import { cleanupProjects, makeFluid, memoryLogger, start } from '../kernel/helpers.js';
import { startRedis, type TestRedis } from '../support/redis.js';

let redis: TestRedis;
const fluids: Fluid[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await Promise.all(fluids.map((f) => f.close()));
  await redis?.stop();
  cleanupProjects();
});

function app(config: Record<string, unknown>, env: Record<string, string>, files: Record<string, string> = {}): { fluid: Fluid; lines: string[] } {
  const logger = memoryLogger();
  const fluid = makeFluid({ name: 'shop', config, files }, { env, logger });
  fluids.push(fluid);
  return { fluid, lines: logger.lines };
}

describe('REDIS_URL in the environment', () => {
  it('is CACHE_REDIS_URL when CACHE_TYPE is redis: the started app keeps its cache in that Redis', async () => {
    const { fluid, lines } = app({ CACHE_TYPE: 'redis' }, { REDIS_URL: redis.url });
    fluid.app.post('put', '/put', async () => {
      await fluid.cache.set('greeting', 'hello from REDIS_URL');
      return { ok: true };
    });
    const base = await start(fluid);
    expect((await fetch(`${base}/put`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status).toBe(200);
    expect(await (await fetch(`${base}/readyz`)).json()).toMatchObject({ status: 'ready', checks: { cache: 'ok' } });
    expect(lines).toContain(`info cache: CACHE_REDIS_URL is REDIS_URL from the environment (${redis.url})`);

    // Another process of the app, given the same Redis by fw's own key, reads what the first one wrote.
    const other = app({ CACHE_TYPE: 'redis', CACHE_REDIS_URL: redis.url }, {}).fluid;
    await other.mix();
    expect(await other.cache.get('greeting')).toBe('hello from REDIS_URL');
  });

  it('set where fw does not use it, the startup log says what to set; a value that is no Redis URL is an error naming REDIS_URL', () => {
    const file = app({}, { REDIS_URL: redis.url });
    expect(file.fluid.config.CACHE_TYPE).toBe('file');
    expect(file.lines).toEqual([
      'warn REDIS_URL is set in the environment but not used: CACHE_TYPE is "file". fw keeps the cache, sessions, rate limits and events in Redis ' +
        'only with CACHE_TYPE=redis, and then uses REDIS_URL as CACHE_REDIS_URL: set CACHE_TYPE=redis',
    ]);
    const both = app({ CACHE_TYPE: 'redis' }, { REDIS_URL: 'redis://elsewhere:6379/0', CACHE_REDIS_URL: redis.url });
    expect(both.fluid.config.CACHE_REDIS_URL).toBe(redis.url);
    expect(both.lines).toEqual(['warn REDIS_URL is set in the environment but not used: CACHE_REDIS_URL is set there too']);
    expect(() => app({ CACHE_TYPE: 'redis' }, { REDIS_URL: 'localhost:6379' })).toThrow(ConfigError);
    expect(() => app({ CACHE_TYPE: 'redis' }, { REDIS_URL: 'default:s3/cret@redis.example:6379' })).toThrow(
      'environment: REDIS_URL: got "<redacted>@redis.example:6379"; expected',
    );
    expect(() => app({ CACHE_TYPE: 'redis' }, { REDIS_URL: 'localhost:6379' })).toThrow(
      'environment: REDIS_URL: got "localhost:6379"; expected a redis:// or rediss:// URL (fw uses REDIS_URL as CACHE_REDIS_URL)',
    );
  });
});

describe('REDIS_URL in .env', () => {
  it('is CACHE_REDIS_URL as in the environment: the started app keeps its cache in that Redis, and the log names .env and its line', async () => {
    const dotenv = `# local services\nREDIS_URL=${redis.url}\n`;
    const { fluid, lines } = app({ CACHE_TYPE: 'redis' }, {}, { '.env': dotenv });
    fluid.app.post('put', '/put', async () => {
      await fluid.cache.set('greeting', 'hello from .env');
      return { ok: true };
    });
    const base = await start(fluid);
    expect((await fetch(`${base}/put`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status).toBe(200);
    expect(await (await fetch(`${base}/readyz`)).json()).toMatchObject({ status: 'ready', checks: { cache: 'ok' } });
    expect(lines).toContain(`info cache: CACHE_REDIS_URL is REDIS_URL from .env:2 (${redis.url})`);
    expect(fluid.config).not.toHaveProperty('REDIS_URL');
    const other = app({ CACHE_TYPE: 'redis', CACHE_REDIS_URL: redis.url }, {}).fluid;
    await other.mix();
    expect(await other.cache.get('greeting')).toBe('hello from .env');
  });

  it('the environment wins over it; unused or malformed there, it is said as in the environment, naming .env', () => {
    const files = { '.env': 'REDIS_URL=redis://from-dotenv:6379/0\n' };
    const fromEnv = app({ CACHE_TYPE: 'redis' }, { REDIS_URL: redis.url }, files);
    expect(fromEnv.fluid.config.CACHE_REDIS_URL).toBe(redis.url);
    expect(fromEnv.lines).toEqual([`info cache: CACHE_REDIS_URL is REDIS_URL from the environment (${redis.url})`]);
    const ownKey = app({ CACHE_TYPE: 'redis' }, { CACHE_REDIS_URL: redis.url }, files);
    expect(ownKey.fluid.config.CACHE_REDIS_URL).toBe(redis.url);
    expect(ownKey.lines).toEqual([]);

    const file = app({}, {}, files);
    expect(file.fluid.config.CACHE_TYPE).toBe('file');
    expect(file.lines).toEqual([
      'warn REDIS_URL is set in .env but not used: CACHE_TYPE is "file". fw keeps the cache, sessions, rate limits and events in Redis ' +
        'only with CACHE_TYPE=redis, and then uses REDIS_URL as CACHE_REDIS_URL: set CACHE_TYPE=redis',
    ]);
    const both = app({ CACHE_TYPE: 'redis' }, {}, { '.env': `CACHE_REDIS_URL=${redis.url}\nREDIS_URL=redis://elsewhere:6379/0\n` });
    expect(both.fluid.config.CACHE_REDIS_URL).toBe(redis.url);
    expect(both.lines).toEqual(['warn REDIS_URL is set in .env but not used: CACHE_REDIS_URL is set there too']);
    expect(() => app({ CACHE_TYPE: 'redis' }, {}, { '.env': 'PORT=9000\nREDIS_URL=default:s3/cret@redis.example:6379\n' })).toThrow(
      '.env:2: REDIS_URL: got "<redacted>@redis.example:6379"; expected a redis:// or rediss:// URL (fw uses REDIS_URL as CACHE_REDIS_URL)',
    );
  });
});
