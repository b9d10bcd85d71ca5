/**
 * Realtime: (1) broadcast to 1,000 sockets: deliveries per second through fw's `/ws/events`
 * (`events.trigger` → listener queue → SocketManager fan-out) against a raw `ws` send loop to
 * 1,000 sockets of a bare WebSocketServer, in this process; (2) cross-process latency through
 * Redis: an event ping-pong with a second kernel process (fw events over the Redis bus) against
 * a raw ioredis pub/sub ping-pong between the same two processes. Needs `redis-server` on PATH.
 *
 *   npx tsx bench/realtime.ts
 *   # BENCH_SOCKETS=1000 BENCH_MESSAGES=100 BENCH_ROUNDS=3 BENCH_PINGS=1000
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { WebSocket, WebSocketServer } from 'ws';
import { Fluid } from '../runtime-kernel/src/index.ts';
import { createLogger } from '../runtime-kernel/src/core/index.ts';
import { startRedis } from '../test/support/redis.ts';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PINGS = Number(process.env.BENCH_PINGS ?? 1000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

function project(config: Record<string, unknown>): string {
  const root = mkdtempSync(join(tmpdir(), 'fw-bench-realtime-'));
  writeFileSync(join(root, 'fw.json'), JSON.stringify({ name: 'bench', config: { FW_PROCESSING: false, ...config } }));
  mkdirSync(join(root, 'app_configs'));
  writeFileSync(join(root, 'app_configs', 'bench.ini'), 'SECRET_KEY = bench\n');
  return root;
}

/** `count` clients on `url`; each counts the frames it gets. */
async function clients(url: string, count: number, subscribe: boolean): Promise<{ sockets: WebSocket[]; received: () => number }> {
  let received = 0;
  const sockets: WebSocket[] = [];
  for (let i = 0; i < count; i += 100) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(100, count - i) }, async () => {
        const ws = new WebSocket(url);
        await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
        if (subscribe) {
          ws.send('{"id":1,"action":"subscribe","event":"tick"}');
          await new Promise((resolve) => ws.once('message', resolve));
        }
        ws.on('message', () => void received++);
        return ws;
      }),
    );
    sockets.push(...batch);
  }
  return { sockets, received: () => received };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setImmediate(r));
}

// ---- (1) broadcast ----
const root = project({ EVENTS_EVENT_QUEUE_SIZE: MESSAGES * 2, WS_MAX_BUFFERED_BYTES: 64 * 1024 * 1024 });
const fluid = new Fluid({ root, env: {}, logger: createLogger('silent') });
fluid.events.createSignal('tick');
const fwServer = await fluid.listen(0, '127.0.0.1');
const fwClients = await clients(`ws://127.0.0.1:${(fwServer.address() as AddressInfo).port}/ws/events`, SOCKETS, true);

const http = createServer();
const wss = new WebSocketServer({ server: http });
await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
const rawClients = await clients(`ws://127.0.0.1:${(http.address() as AddressInfo).port}`, SOCKETS, false);

const payload = { at: 0, text: 'x'.repeat(64) };
async function fwRound(): Promise<number> {
  const start = fwClients.received();
  const t0 = performance.now();
  for (let m = 0; m < MESSAGES; m++) fluid.events.trigger('tick', { ...payload, at: m });
  await until(() => fwClients.received() - start >= SOCKETS * MESSAGES);
  return (SOCKETS * MESSAGES) / ((performance.now() - t0) / 1000);
}
async function rawRound(): Promise<number> {
  const start = rawClients.received();
  const t0 = performance.now();
  for (let m = 0; m < MESSAGES; m++) {
    const text = JSON.stringify({ event: 'tick', data: { ...payload, at: m } });
    for (const client of wss.clients) client.send(text);
  }
  await until(() => rawClients.received() - start >= SOCKETS * MESSAGES);
  return (SOCKETS * MESSAGES) / ((performance.now() - t0) / 1000);
}
await fwRound(); // warm-up
await rawRound();
const fwRates: number[] = [];
const rawRates: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  if (r % 2 === 0) {
    fwRates.push(await fwRound());
    rawRates.push(await rawRound());
  } else {
    rawRates.push(await rawRound());
    fwRates.push(await fwRound());
  }
}
for (const s of [...fwClients.sockets, ...rawClients.sockets]) s.terminate();
await fluid.close();
await new Promise<void>((r) => wss.close(() => http.close(() => r())));
rmSync(root, { recursive: true, force: true });

// ---- (2) cross-process latency through Redis ----
const redis = await startRedis();
const root2 = project({ EVENTS_REDIS_URL: redis.url });
const near = new Fluid({ root: root2, env: {}, logger: createLogger('silent') });
near.events.createSignal('ping');
let answer: (() => void) | undefined;
near.events.event('pong', () => answer?.());
await near.mix();
const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./realtime-node.ts', import.meta.url)), root2, redis.url], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
await new Promise<void>((resolve) => createInterface({ input: child.stdout! }).once('line', () => resolve()));

async function pingPong(send: (i: number) => void, wait: (done: () => void) => void): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < PINGS + 50; i++) {
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      wait(resolve);
      send(i);
    });
    if (i >= 50) times.push(performance.now() - t0); // the first 50 warm up
  }
  return times;
}
const fwTimes = await pingPong(
  (i) => near.events.trigger('ping', i),
  (done) => (answer = done),
);
const pub = new Redis(redis.url);
const sub = new Redis(redis.url);
let rawAnswer: (() => void) | undefined;
sub.on('message', () => rawAnswer?.());
await sub.subscribe('raw:pong');
const rawTimes = await pingPong(
  (i) => void pub.publish('raw:ping', String(i)),
  (done) => (rawAnswer = done),
);
child.stdin!.end();
await new Promise((r) => child.once('exit', r));
await Promise.all([near.close(), pub.quit(), sub.quit()]);
await redis.stop();
rmSync(root2, { recursive: true, force: true });

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => `${n.toFixed(3)} ms`;
const fwRate = median(fwRates);
const rawRate = median(rawRates);
console.log(`\nBroadcast: ${SOCKETS} sockets × ${MESSAGES} events, median of ${ROUNDS} rounds (deliveries/s)\n`);
console.log('| Sender | deliveries/s | vs raw ws |');
console.log('|---|---:|---:|');
console.log(`| raw ws send loop (baseline) | ${fmt(rawRate)} | 1.00x |`);
console.log(`| fw events.trigger → /ws/events | ${fmt(fwRate)} | ${(fwRate / rawRate).toFixed(2)}x |`);
console.log(`\nCross-process round trip through Redis, ${PINGS} sequential ping-pongs (one way ≈ half)\n`);
console.log('| Path | p50 | p99 |');
console.log('|---|---:|---:|');
console.log(`| raw ioredis pub/sub (baseline) | ${ms(pct(rawTimes, 50))} | ${ms(pct(rawTimes, 99))} |`);
console.log(`| fw events over the Redis bus | ${ms(pct(fwTimes, 50))} | ${ms(pct(fwTimes, 99))} |`);
process.exit(0);
