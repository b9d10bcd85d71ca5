/**
 * Two kernel processes (spawned with tsx) sharing a real redis-server: an event triggered in one
 * reaches the `/ws/events` subscribers of both, each exactly once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupProjects, makeProject } from '../kernel/helpers.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { connect, type TestClient } from '../sockets/client.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/node.ts', import.meta.url));
const children: ChildProcess[] = [];
const clients: TestClient[] = [];
let redis: TestRedis | undefined;
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  for (const child of children.splice(0)) {
    child.stdin?.end();
    await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
  }
  await redis?.stop();
  cleanupProjects();
});

interface Kernel {
  url: string;
  trigger(payload: unknown): Promise<void>;
}

async function kernel(root: string): Promise<Kernel> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, root], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async (): Promise<Record<string, unknown>> => {
    const line = await Promise.race([
      lines.next(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`kernel process did not answer; stderr: ${stderr}`)), 20_000)),
    ]);
    if (line.done) throw new Error(`kernel process exited; stderr: ${stderr}`);
    return JSON.parse(line.value) as Record<string, unknown>;
  };
  const { url } = (await next()) as { url: string };
  return {
    url,
    async trigger(payload) {
      child.stdin!.write(`${JSON.stringify({ trigger: payload })}\n`);
      expect(await next()).toEqual({ triggered: true });
    },
  };
}

async function subscriber(k: Kernel): Promise<TestClient> {
  const c = await connect(`${k.url}/ws/events`);
  clients.push(c);
  expect(await c.request({ action: 'subscribe', event: 'news' })).toMatchObject({ ok: true, data: true });
  return c;
}

describe('events across processes', () => {
  it('an event triggered in A reaches subscribers on A and B, each exactly once', async () => {
    redis = await startRedis();
    const root = makeProject({ config: { CACHE_TYPE: 'redis', CACHE_REDIS_URL: redis.url } });
    const [a, b] = await Promise.all([kernel(root), kernel(root)]);
    const onA = await subscriber(a);
    const onB1 = await subscriber(b);
    const onB2 = await subscriber(b);
    await a.trigger({ n: 1, from: 'a' });
    await b.trigger({ n: 2, from: 'b' });
    for (const c of [onA, onB1, onB2]) await c.waitForEvents(2, 10_000);
    await new Promise((r) => setTimeout(r, 300)); // room for a duplicate to show up
    for (const c of [onA, onB1, onB2]) {
      expect(c.events).toHaveLength(2);
      expect(c.events).toEqual(
        expect.arrayContaining([
          { event: 'news', data: { n: 1, from: 'a' } },
          { event: 'news', data: { n: 2, from: 'b' } },
        ]),
      );
    }
  });

  it('EVENTS_REDIS_URL alone turns the bus on (file cache)', async () => {
    redis = await startRedis();
    const root = makeProject({ config: { EVENTS_REDIS_URL: redis.url } });
    const [a, b] = await Promise.all([kernel(root), kernel(root)]);
    const onB = await subscriber(b);
    await a.trigger('hello');
    expect(await onB.waitForEvents(1, 10_000)).toEqual([{ event: 'news', data: 'hello' }]);
  });
});
