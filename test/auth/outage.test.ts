/** A Redis outage answers 503 (never a crash or an unhandled error event) and recovers. */
import { afterAll, describe, expect, it } from 'vitest';
import { requireUser } from '@fw/kernel/auth';
import { cleanupProjects, makeProject } from '../kernel/helpers.js';
import { startRedis } from '../support/redis.js';
import { authApp, client, USERS } from './helpers.js';

afterAll(() => cleanupProjects());

describe('Redis outage', () => {
  it('503 CACHE_UNAVAILABLE while Redis is down, normal answers once it is back', async () => {
    let redis = await startRedis();
    const port = redis.port;
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    const root = makeProject({ config: { CACHE_TYPE: 'redis', CACHE_REDIS_URL: redis.url } });
    const { fluid } = authApp({}, root);
    fluid.app.get('me', '/me', requireUser, () => ({ ok: true }));
    const c = await client(fluid);
    try {
      await c.signIn(USERS.verified!);
      expect((await c.fetch('/me')).status).toBe(200);

      await redis.stop();
      // Answered, not hung (how fast is bench's business, not a test's).
      const down = await c.fetch('/me', { headers: { Accept: 'application/json' } });
      expect(down.status).toBe(503);
      expect(((await down.json()) as { code: string }).code).toBe('CACHE_UNAVAILABLE');
      const page = await c.fetch('/me', { headers: { Accept: 'text/html' } });
      expect(page.status).toBe(503);

      redis = await startRedis({ port }); // a fresh, empty server on the same port
      const deadline = Date.now() + 10_000;
      let status = 0;
      while (Date.now() < deadline) {
        status = (await c.fetch('/me', { headers: { Accept: 'application/json' } })).status;
        if (status !== 503) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(401); // back, and the session (in the old server) is gone
      await c.signIn(USERS.verified!);
      expect((await c.fetch('/me')).status).toBe(200);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await fluid.close();
      await redis.stop();
    }
  });
});

describe('Redis down at startup', () => {
  it('the app still starts: unguarded routes answer, cache-backed ones 503, and all works once Redis is up', async () => {
    const { freePort } = await import('../support/redis.js');
    const port = await freePort();
    const root = makeProject({ config: { CACHE_TYPE: 'redis', CACHE_REDIS_URL: `redis://127.0.0.1:${port}/0` } });
    const { fluid, auth } = authApp({}, root);
    fluid.app.get('open', '/open', () => ({ ok: true }));
    fluid.app.get('me', '/me', requireUser, () => ({ ok: true }));
    const c = await client(fluid);
    let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
    try {
      // The cache logged the outage; the key made at the first use is a warning, not a second error with a stack.
      const lines = (fluid.logger as unknown as { lines: string[] }).lines;
      expect(lines.filter((l) => l.startsWith('warn auth:'))).toEqual([
        'warn auth: the cache is unavailable at startup; the JWT signing key is made at its first use {"code":"CACHE_UNAVAILABLE"}',
      ]);
      expect(lines.filter((l) => l.startsWith('error auth:'))).toEqual([]);
      expect((await c.fetch('/open')).status).toBe(200);
      const down = await c.fetch(`/login/${USERS.verified!.id}`, { headers: { Accept: 'application/json' } });
      expect(down.status).toBe(503);
      await expect(auth.mintToken(USERS.verified!, ['read'], 60)).rejects.toMatchObject({ status: 503, code: 'CACHE_UNAVAILABLE' });
      redis = await startRedis({ port });
      const deadline = Date.now() + 10_000;
      let status = 0;
      while (Date.now() < deadline && status !== 200) {
        status = (await c.fetch(`/login/${USERS.verified!.id}`)).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
      expect((await c.fetch('/me')).status).toBe(200);
      const token = await auth.mintToken(USERS.verified!, ['read'], 60);
      expect((await auth.verifyToken(token)).sub).toBe('3');
    } finally {
      await fluid.close();
      await redis?.stop();
    }
  });
});
