/**
 * A token minted before a restart still verifies after it with the `file` and `redis` caches
 * (a new Fluid on the same project rotates in a new key and keeps the old one). With `memory`
 * it does not (the reference's behaviour without Redis).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirementOrGrant, requireUser } from '@fw/kernel/auth';
import { cleanupProjects, makeProject } from '../kernel/helpers.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { authApp, client, USERS } from './helpers.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
  cleanupProjects();
});

async function boot(root: string) {
  const app = authApp({}, root);
  app.fluid.api.get('read', '/read', requirementOrGrant(requireUser, 'read'), () => ({ ok: true }));
  const c = await client(app.fluid);
  return { ...app, c };
}

describe.each([
  ['file', () => ({ CACHE_TYPE: 'file' }), true],
  ['redis', () => ({ CACHE_TYPE: 'redis', CACHE_REDIS_URL: redis.url }), true],
  ['memory', () => ({ CACHE_TYPE: 'memory' }), false],
] as const)('%s cache', (_name, config, survives) => {
  it(survives ? 'keeps tokens and sessions across a restart' : 'forgets tokens on restart', async () => {
    const root = makeProject({ config: config() });
    const first = await boot(root);
    const token = await first.auth.mintToken(USERS.verified!, ['read'], 600);
    await first.c.signIn(USERS.verified!);
    const cookies = new Map(first.c.jar);
    const oldKid = (await first.auth.tokens.keys.current()).kid;
    expect((await first.c.fetch('/api/read', { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    await first.fluid.close();

    const second = await boot(root);
    try {
      const newKid = (await second.auth.tokens.keys.current()).kid;
      expect(newKid).not.toBe(oldKid); // rotated at startup
      const res = await second.c.fetch('/api/read', { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).toBe(survives ? 200 : 401);
      for (const [k, v] of cookies) second.c.jar.set(k, v);
      expect((await second.c.fetch('/api/read')).status).toBe(survives ? 200 : 401);
      if (survives) expect((await second.auth.cache.keys('jwt:')).sort()).toEqual([`jwt:${oldKid}`, `jwt:${newKid}`].sort());
    } finally {
      await second.fluid.close();
    }
  });
});
