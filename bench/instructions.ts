/**
 * Issue 17's production defaults counted in instructions per request (valgrind's callgrind; see
 * lib/callgrind.ts), the hello JSON route of bench/scale.ts:
 * - the stack before the defaults against itself in another process: the check that the count
 *   repeats (it should read 1.00×);
 * - all the defaults, the security headers alone and the request log alone against the stack
 *   before them, and the defaults against bare Koa + @koa/router;
 * - the floor of the headers: bare Koa with the same headers (read off fw's server, set from
 *   memory in one middleware) against bare Koa;
 * - the defaults against the same assembled by hand (helmet, @koa/bodyparser, pino-http).
 *
 * What it adds to bench/scale.ts: the figures are the same from run to run on a noisy host, and
 * each default's share is visible. It counts the user-space instructions of the server's main
 * thread (no kernel work, no cache misses, no helper threads: lib/callgrind.ts), so its ratios
 * are larger than the CPU-time ratios of bench/scale.ts, where both sides share the kernel's part
 * of each request.
 *
 *   npm run bench -- instructions   # BENCH_ROUNDS=3 batches × BENCH_REQUESTS=3000, after 12,000 warm-up requests
 */
import { join } from 'node:path';
import { countPerRequest, requireCallgrind, startCounted, type BatchCount, type CountedServer } from './lib/callgrind.ts';
import { get } from './lib/http-compare.ts';
import { kernelProject } from './lib/project.ts';
import { pairedRow, report } from './lib/report.ts';
import { startServer, stopAll } from './lib/server.ts';
import { BENCH_DIR, knob, QUICK, rounds } from './lib/settings.ts';

const BATCHES = rounds(3);
const REQUESTS = knob('BENCH_REQUESTS', 3000, 300);
const WARMUP = QUICK ? 500 : 12_000;
const OFF = { SECURITY_HEADERS: false, BODY_PARSER: false, HEALTH_ENABLED: false, FW_LOG_REQUESTS: false };

requireCallgrind();
const headersOnly = kernelProject({ ...OFF, SECURITY_HEADERS: true });
/** The security headers fw sends on the hello route's JSON (the inert list: docs/security.md), read off a running server. */
const jsonHeaders = await (async (): Promise<Record<string, string>> => {
  const fw = await startServer(join(BENCH_DIR, 'servers', 'fw-serve.ts'), [headersOnly, '1'], { name: 'fw: security headers only (uncounted)' });
  try {
    const own = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);
    const sent = Object.entries((await get(fw.url('/hello'))).headers).filter(([name]) => !own.has(name));
    return Object.fromEntries(sent.map(([name, value]) => [name, String(value)]));
  } finally {
    await fw.stop();
  }
})();
const sides = {
  previous: ['fw-serve.ts', [kernelProject(OFF), '1'], 'fw: all four off'],
  previousAgain: ['fw-serve.ts', [kernelProject(OFF), '1'], 'fw: all four off, another process'],
  defaults: ['fw-serve.ts', [kernelProject(), '1'], 'fw: headers + parser + health + request log'],
  headers: ['fw-serve.ts', [headersOnly, '1'], 'fw: security headers only'],
  log: ['fw-serve.ts', [kernelProject({ ...OFF, FW_LOG_REQUESTS: true }), '1'], 'fw: request log only'],
  koa: ['koa-hello.ts', [], 'bare Koa + @koa/router'],
  koaHeaders: ['koa-hello.ts', [JSON.stringify(jsonHeaders)], 'bare Koa + the same headers'],
  handmade: ['koa-defaults.ts', [], 'Koa + helmet + @koa/bodyparser + pino-http'],
} as const satisfies Record<string, readonly [string, readonly string[], string]>;
type Side = keyof typeof sides;

const started: CountedServer[] = [];
try {
  const counts = {} as Record<Side, BatchCount[]>;
  // Two at a time (one per core): a count does not depend on what else runs.
  const queue = Object.keys(sides) as Side[];
  const worker = async (): Promise<void> => {
    for (let side = queue.shift(); side !== undefined; side = queue.shift()) {
      const [script, args, label] = sides[side];
      const counted = await startCounted(join(BENCH_DIR, 'servers', script), args, label);
      started.push(counted);
      counts[side] = await countPerRequest(counted, { path: '/hello', warmup: WARMUP, requests: REQUESTS, batches: BATCHES });
      await counted.server.stop();
    }
  };
  await Promise.all([worker(), worker()]);

  const row = (name: string, fw: Side, baseline: Side, extra: { target?: string; note?: string } = {}, thread: keyof BatchCount = 'main') =>
    pairedRow({
      bench: 'instructions',
      name,
      unit: thread === 'main' ? 'instructions/request' : 'instructions/request, all threads',
      per: 'request',
      fw: { label: sides[fw][2], samples: counts[fw].map((c) => ({ value: c[thread] })) },
      baseline: { label: sides[baseline][2], samples: counts[baseline].map((c) => ({ value: c[thread] })) },
      ...extra,
    });
  report(
    'Instructions per request (callgrind): production defaults',
    `${BATCHES} batches × ${REQUESTS} requests per side after ${WARMUP} warm-up requests, 10 keep-alive connections; user-space instructions of the server's main thread (valgrind --tool=callgrind), the same from run to run; ratio = per-batch, median (min–max)`,
    [
      row('hello JSON, the stack before the defaults vs itself in another process', 'previous', 'previousAgain', { note: 'the repeatability check: should read 1.00×' }),
      row('hello JSON, the production defaults vs the stack before them', 'defaults', 'previous', { target: '≤ 1.10× (issue 17, for CPU time)' }),
      row(
        'hello JSON, the production defaults vs the stack before them, all threads',
        'defaults',
        'previous',
        { note: "V8's helper threads (GC, optimizing compiler) included: they work in bursts, so batches differ several-fold" },
        'all',
      ),
      row('hello JSON, the security headers alone vs the stack before them', 'headers', 'previous', { note: 'five headers on a JSON response, each through Node\'s setHeader' }),
      row('hello JSON, the request log alone vs the stack before them', 'log', 'previous', { note: 'a UUID, x-request-id and one JSON line per request' }),
      row('hello JSON, the production defaults vs bare Koa', 'defaults', 'koa'),
      row('hello JSON, bare Koa with the same headers vs without', 'koaHeaders', 'koa', { note: 'the floor: the headers set from memory in one middleware' }),
      row('hello JSON, the production defaults vs the same assembled by hand', 'defaults', 'handmade', { note: "helmet's, @koa/bodyparser's and pino-http's defaults (bench/servers/koa-defaults.ts)" }),
    ],
  );
} finally {
  await stopAll(started.map((c) => c.server));
}
