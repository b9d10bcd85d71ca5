/**
 * The JWT key ring when Redis loses fw's keys: processes (three apps here, on one real Redis)
 * re-publish what they know, never sign with a key the store lacks, and a token whose key
 * nobody knows any more is the same clean 401 everywhere.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Fluid } from '@fw/kernel';
import { installAuth, type Auth } from '@fw/kernel/auth';
import { InvalidTokenError } from '@fw/kernel/tokens';
import { testUsers, USERS, type TestUser } from '../auth/helpers.js';
import { cleanupProjects, makeProject, memoryLogger } from '../kernel/helpers.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { waitFor } from './cluster.js';

let redis: TestRedis;
let inspect: Redis;
let root: string;
const fluids: Fluid[] = [];

beforeAll(async () => {
  redis = await startRedis();
  inspect = new Redis(redis.url, { maxRetriesPerRequest: null });
  root = makeProject({ config: { CACHE_TYPE: 'redis', CACHE_REDIS_URL: redis.url, REDIS_TIMEOUT: 1 } });
});
afterAll(async () => {
  await Promise.all(fluids.map((f) => f.close()));
  inspect.disconnect();
  await redis.stop();
  cleanupProjects();
});

/** One "process": an app with auth on the shared Redis, started. */
async function startProcess(): Promise<{ fluid: Fluid; auth: Auth<TestUser> }> {
  const fluid = new Fluid({ root, env: {}, logger: memoryLogger() });
  const auth = installAuth(fluid, { users: testUsers() });
  await fluid.mix();
  fluids.push(fluid);
  return { fluid, auth };
}

const kidOf = (token: string): string => (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid: string }).kid;
const verifies = (auth: Auth<TestUser>, token: string): Promise<boolean> => auth.verifyToken(token).then(() => true, () => false);

it('after FLUSHALL a process signs only with a key the store holds, and tokens minted before verify everywhere again', async () => {
  const [a, b] = await Promise.all([startProcess(), startProcess()]);
  const before = await a.auth.mintToken(USERS.verified!, ['read'], 600);
  await inspect.flushall();
  // Minting puts A's key back first: B, which never saw it, verifies the new token at once.
  const after = await a.auth.mintToken(USERS.verified!, ['read'], 600);
  expect(kidOf(after)).toBe(kidOf(before));
  expect(await inspect.exists(`jwt:${kidOf(after)}`)).toBe(1);
  expect((await b.auth.verifyToken(after)).sub).toBe('3');
  // B's own key (made at its start, lost too) comes back by B's periodic check.
  const fresh = await startProcess();
  const fromB = await b.auth.mintToken(USERS.verified!, [], 600);
  await inspect.flushall();
  await waitFor("B's key back in the store", async () => (await inspect.exists(`jwt:${kidOf(fromB)}`)) === 1, 10_000);
  expect(await verifies(fresh.auth, fromB)).toBe(true);
});

it('Redis restarted without persistence: every process re-publishes its keys as soon as it reconnects', async () => {
  const [a, b, c] = await Promise.all([startProcess(), startProcess(), startProcess()]);
  const tokens = await Promise.all([a, b, c].map((p) => p.auth.mintToken(USERS.verified!, [], 600)));
  await redis.stop();
  redis = await startRedis({ port: redis.port });
  const newcomer = await startProcess();
  // Sooner than the periodic check (5 s): the reconnect itself triggers it.
  await waitFor('every token to verify on a process that never saw it', async () => (await Promise.all(tokens.map((t) => verifies(newcomer.auth, t)))).every(Boolean), 3000);
  for (const p of [a, b, c]) for (const t of tokens) expect(await verifies(p.auth, t)).toBe(true);
});

it('a key no live process knows is lost: the same clean 401 on every process', async () => {
  const gone = await startProcess();
  const token = await gone.auth.mintToken(USERS.verified!, [], 600);
  await gone.fluid.close(); // the only process that knew the key
  await inspect.flushall();
  const [x, y] = await Promise.all([startProcess(), startProcess()]);
  const errors = await Promise.all([x, y].map((p) => p.auth.verifyToken(token).catch((e: unknown) => e)));
  for (const error of errors) {
    expect(error).toBeInstanceOf(InvalidTokenError);
    expect(error).toMatchObject({ status: 401, message: 'Invalid token: unknown kid', headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' } });
  }
});
