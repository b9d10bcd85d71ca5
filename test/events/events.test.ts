/**
 * `Events` on its own and on a Fluid: queued vs immediate registration, failed registrations,
 * context isolation of listeners, bounded queues, listener failures.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { FrameworkException, type Fluid } from '@fw/kernel';
import { Events } from '@fw/kernel/events';
import { cleanupProjects, makeFluid, memoryLogger, start } from '../kernel/helpers.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  cleanupProjects();
});

function events(queueSize = 100): Events & { lines: string[] } {
  const logger = memoryLogger();
  const ev = new Events({ logger, queueSize });
  closers.push(() => ev.close());
  return Object.assign(ev, { lines: logger.lines });
}

describe('registration', () => {
  it('queues registrations made before start and wires them at start', async () => {
    const ev = events();
    const got: unknown[] = [];
    const signal = ev.createSignal<{ n: number }>('user.created');
    ev.event('user.created', (p: { n: number }) => void got.push(p));
    expect(ev.hasEvent('user.created')).toBe(false);
    expect(() => signal.trigger({ n: 0 })).toThrow(/events have not started/);
    await ev.start();
    expect(ev.hasEvent('user.created')).toBe(true);
    signal.trigger({ n: 1 });
    ev.trigger('user.created', { n: 2 });
    await ev.idle();
    expect(got).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('registers at once after start, in the function and the decorator form', async () => {
    const ev = events();
    await ev.start();
    const got: string[] = [];
    ev.createSignal('a');
    expect(ev.hasEvent('a')).toBe(true);
    const onB = ev.event('b')((p: string) => void got.push(`b:${p}`)); // creates 'b' too
    expect(typeof onB).toBe('function');
    const onC = (p: string): void => void got.push(`c:${p}`);
    expect(ev.event('c')(onC)).toBe(onC); // the decorator hands the function back unchanged
    ev.event('a', (p: string) => void got.push(`a:${p}`));
    ev.trigger('a', 1);
    ev.trigger('b', 2);
    ev.trigger('c', 3);
    await ev.idle();
    expect(got.sort()).toEqual(['a:1', 'b:2', 'c:3']);
  });

  it('a failed registration leaves nothing behind (before and after start)', async () => {
    const ev = events();
    expect(() => ev.createSignal('')).toThrow(FrameworkException);
    expect(() => ev.event('bad name!', () => undefined)).toThrow(/event name must be 1-128 letters/);
    expect(() => ev.event('x', 'nope' as unknown as () => void)).toThrow("events.event('x'): the listener is not a function");
    await ev.start();
    expect(ev.hasEvent('')).toBe(false);
    expect(ev.hasEvent('bad name!')).toBe(false);
    expect(ev.hasEvent('x')).toBe(false);
    expect(() => ev.event('y', 42 as unknown as () => void)).toThrow(FrameworkException);
    expect(ev.hasEvent('y')).toBe(false);
    expect(() => ev.trigger('y', 1)).toThrow("no event named 'y'");
    expect(() => ev.on('nope', () => undefined)).toThrow(/no event named 'nope'/);
    await ev.close();
    expect(() => ev.createSignal('late')).toThrow(/closed/);
    expect(ev.hasEvent('late')).toBe(false);
  });

  it('without Redis, a payload goes to local listeners as it is (even one JSON cannot carry)', async () => {
    const ev = events();
    await ev.start();
    const got: unknown[] = [];
    ev.event('n', (p) => void got.push(p));
    ev.trigger('n', 5n);
    await ev.idle();
    expect(got).toEqual([5n]);
  });
});

describe('listener context', () => {
  it('listeners never run in the registering or triggering request context', async () => {
    const request = new AsyncLocalStorage<{ requestId: number }>();
    const logger = memoryLogger();
    const fluid: Fluid = makeFluid({}, { logger });
    closers.push(() => fluid.close());
    const seen: unknown[] = [];
    fluid.app.get('register', '/register', () =>
      request.run({ requestId: 1 }, () => {
        fluid.events.event('ping', () => void seen.push(request.getStore() ?? 'no request context'));
        fluid.events.trigger('ping');
        return 'ok';
      }),
    );
    fluid.app.get('trigger', '/trigger', () => request.run({ requestId: 2 }, () => (fluid.events.trigger('ping'), 'ok')));
    const base = await start(fluid);
    expect(await (await fetch(`${base}/register`)).text()).toBe('ok');
    expect(await (await fetch(`${base}/trigger`)).text()).toBe('ok');
    await fluid.events.idle();
    expect(seen).toEqual(['no request context', 'no request context']);
  });
});

describe('bounded queues', () => {
  it('a slow listener loses its oldest events and a warning is logged; others are unaffected', async () => {
    const ev = events(3);
    await ev.start();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow: number[] = [];
    const fast: number[] = [];
    ev.event('tick', async function slowListener(n: number) {
      slow.push(n);
      if (n === 0) await gate;
    });
    ev.event('tick', (n: number) => void fast.push(n));
    ev.trigger('tick', 0);
    await new Promise((r) => setTimeout(r, 10)); // the slow listener now waits inside event 0
    for (let n = 1; n <= 10; n++) {
      ev.trigger('tick', n);
      await new Promise((r) => setImmediate(r)); // the fast listener keeps up
    }
    release();
    await ev.idle();
    expect(fast).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(slow).toEqual([0, 8, 9, 10]);
    expect(ev.lines.filter((l) => l.startsWith('warn'))).toEqual([
      'warn events: a listener fell behind; dropping its oldest events {"event":"tick","listener":"slowListener","queueSize":3}',
      'warn events: a listener caught up after dropping events {"event":"tick","dropped":7}',
    ]);
  });

  it('logs a listener that throws or rejects and keeps delivering; nothing goes unhandled', async () => {
    const ev = events();
    await ev.start();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const got: number[] = [];
      ev.event('e', (n: number) => {
        if (n === 1) throw new Error('sync boom');
        got.push(n);
      });
      ev.event('e', async (n: number) => {
        if (n === 2) throw new Error('async boom');
      });
      for (const n of [1, 2, 3]) ev.trigger('e', n);
      await ev.idle();
      await new Promise((r) => setTimeout(r, 20));
      expect(got).toEqual([2, 3]);
      const errors = ev.lines.filter((l) => l.startsWith('error events: listener failed'));
      expect(errors).toHaveLength(2);
      expect(errors.join('\n')).toContain('sync boom');
      expect(errors.join('\n')).toContain('async boom');
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('on a Fluid', () => {
  it('wires events registered at import at startup, so startup hooks may trigger; close stops them', async () => {
    const fluid = makeFluid({ config: { EVENTS_EVENT_QUEUE_SIZE: 7 } });
    const got: string[] = [];
    fluid.events.createSignal('boot');
    fluid.events.event('boot', (p: string) => void got.push(p));
    fluid.onStartup((f) => f.events.trigger('boot', 'started'));
    expect(fluid.events.queueSize).toBe(7);
    expect(fluid.events.hasEvent('boot')).toBe(false);
    await fluid.mix();
    await fluid.events.idle();
    expect(got).toEqual(['started']);
    await fluid.close();
    expect(fluid.events.hasEvent('boot')).toBe(false);
    expect(() => fluid.events.trigger('boot', 'late')).toThrow(FrameworkException);
  });
});
