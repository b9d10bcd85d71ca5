/**
 * The Redis bus between two `Events` (each its own node id and connections) on a real
 * redis-server: fan-out, own messages skipped, JSON-only payloads, outage and recovery.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { FrameworkException } from '@fw/kernel';
import { Events, RedisBus } from '@fw/kernel/events';
import { memoryLogger } from '../kernel/helpers.js';
import { startRedis, type TestRedis } from '../support/redis.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function node(url: string, channel = 'fw:events:test'): Promise<{ events: Events; lines: string[]; got: unknown[] }> {
  const logger = memoryLogger();
  const bus = new RedisBus({ url, key: 'EVENTS_REDIS_URL', channel, logger, startTimeoutMs: 3000 });
  const events = new Events({ logger, queueSize: 100, bus });
  closers.push(() => events.close());
  const got: unknown[] = [];
  events.createSignal('news');
  events.event('news', (p) => void got.push(p));
  await events.start();
  return { events, lines: logger.lines, got };
}

async function redis(port?: number): Promise<TestRedis> {
  const r = await startRedis(port ? { port } : {});
  closers.unshift(() => r.stop());
  return r;
}

const settle = (ms = 150) => new Promise((r) => setTimeout(r, ms));

describe('Redis bus', () => {
  it('delivers an event to every process exactly once; a process skips its own message', async () => {
    const r = await redis();
    const a = await node(r.url);
    const b = await node(r.url);
    const other = await node(r.url, 'fw:events:another-app');
    a.events.trigger('news', { from: 'a' });
    b.events.trigger('news', { from: 'b' });
    await expect.poll(() => a.got.length + b.got.length).toBe(4);
    await settle();
    expect(a.got).toEqual(expect.arrayContaining([{ from: 'a' }, { from: 'b' }]));
    expect(b.got).toEqual(expect.arrayContaining([{ from: 'a' }, { from: 'b' }]));
    expect(a.got).toHaveLength(2);
    expect(b.got).toHaveLength(2);
    expect(other.got).toEqual([]); // another app's channel
  });

  it('refuses a payload JSON cannot carry, before delivering it anywhere', async () => {
    const r = await redis();
    const a = await node(r.url);
    expect(() => a.events.trigger('news', { big: 1n })).toThrow(FrameworkException);
    expect(() => a.events.trigger('news', { big: 1n })).toThrow('cannot be sent to other processes as JSON');
    await settle();
    expect(a.got).toEqual([]);
  });

  it('keeps delivering locally through an outage, logs it once, and fans out again after Redis returns', async () => {
    const r = await redis();
    const a = await node(r.url);
    const b = await node(r.url);
    await r.stop();
    await expect.poll(() => a.lines.some((l) => l.startsWith('error events: Redis bus unavailable'))).toBe(true);
    a.events.trigger('news', 1);
    a.events.trigger('news', 2);
    await a.events.idle();
    expect(a.got).toEqual([1, 2]);
    await settle(300);
    expect(a.lines.filter((l) => l.startsWith('error events: Redis bus unavailable'))).toHaveLength(1);
    expect(b.got).toEqual([]);

    await redis(r.port); // same port: both processes reconnect and resubscribe
    await expect.poll(() => a.lines.some((l) => l.startsWith('info events: Redis bus available again')), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => b.lines.some((l) => l.startsWith('info events: Redis bus available again')), { timeout: 10_000 }).toBe(true);
    await expect
      .poll(
        async () => {
          a.events.trigger('news', 'again');
          await settle(100);
          return b.got.includes('again');
        },
        { timeout: 10_000 },
      )
      .toBe(true);
  });

  it('opens no Redis connection for an app without events; the first event registered after start joins', async () => {
    const r = await redis();
    const a = await node(r.url);
    const logger = memoryLogger();
    const late = new Events({ logger, queueSize: 10, bus: new RedisBus({ url: r.url, key: 'EVENTS_REDIS_URL', channel: 'fw:events:test', logger }) });
    closers.push(() => late.close());
    await late.start();
    const inspect = new Redis(r.url);
    closers.push(async () => void inspect.disconnect());
    const count = async () => ((await inspect.client('LIST')) as string).trim().split('\n').length;
    expect(await count()).toBe(3); // a's two connections and the inspector
    const got: unknown[] = [];
    late.event('news', (p) => void got.push(p));
    await expect.poll(count).toBe(5);
    await expect
      .poll(async () => {
        a.events.trigger('news', 'hi');
        await settle(50);
        return got.includes('hi');
      })
      .toBe(true);
    late.trigger('news', 'back');
    await expect.poll(() => a.got.includes('back')).toBe(true);
    expect(logger.lines.filter((l) => l.startsWith('error'))).toEqual([]);
  });

  it('names the key of a bad Redis URL', () => {
    const logger = memoryLogger();
    expect(() => new RedisBus({ url: 'http://x', key: 'EVENTS_REDIS_URL', channel: 'c', logger })).toThrow(
      'EVENTS_REDIS_URL: expected a redis:// or rediss:// URL, got "http:"',
    );
  });
});
