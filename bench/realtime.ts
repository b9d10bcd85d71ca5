/**
 * Realtime: an event broadcast to 1,000 websockets through the kernel (`events.trigger` →
 * listener queue → SocketManager → every subscribed socket of `/ws/events`, default queue and
 * buffer limits) against a raw `ws` server sending the same frames in a loop. Each server runs
 * in its own process and the 1,000 clients in another; a round is one burst of events, timed
 * from the command to the server until the clients have counted every frame.
 *
 * And the round trip between two processes through a local redis-server (needs it on PATH): an
 * event ping-pong over the kernel's Redis bus against a raw ioredis pub/sub ping-pong, batches of
 * sequential pings interleaved; the far process is bench/servers/events-echo.ts.
 *
 *   npm run bench -- realtime    # BENCH_ROUNDS=5 BENCH_BURSTS=4 BENCH_SOCKETS=1000 BENCH_EVENTS=50 BENCH_PINGS=200
 */
import { join } from 'node:path';
import { Fluid } from '@fw/kernel';
import { Redis } from 'ioredis';
import { freePort } from './lib/port.ts';
import { interleave } from './lib/interleave.ts';
import { nodeScript } from './lib/node.ts';
import { cpuMicros } from './lib/procfs.ts';
import { kernelProject } from './lib/project.ts';
import { pairedRow, report, type Row, type Sample } from './lib/report.ts';
import { median } from './lib/stats.ts';
import { startProcess, startServer, stopAll, type RunningServer } from './lib/server.ts';
import { BENCH_DIR, knob, rounds } from './lib/settings.ts';

const ROUNDS = rounds(5);
const SOCKETS = knob('BENCH_SOCKETS', 1000, 1000);
// Below the default per-listener queue (EVENTS_EVENT_QUEUE_SIZE 100), so no event is dropped.
const EVENTS = knob('BENCH_EVENTS', 50, 50);
const DELIVERIES = SOCKETS * EVENTS;
// Bursts per measured run: a run long enough for /proc's 10 ms CPU ticks to be precise.
const BURSTS = knob('BENCH_BURSTS', 4, 1);

interface Side {
  server: RunningServer;
  clients: RunningServer;
  sample: Promise<RegExpExecArray>;
  /** Frames sent to the clients so far (the clients count a running total). */
  sent: number;
}

async function side(script: string, args: string[], path: string, subscribe: boolean, name: string): Promise<Side> {
  const server = await startServer(join(BENCH_DIR, 'servers', script), args, { name });
  const [node, argv] = nodeScript(join(BENCH_DIR, 'servers', 'ws-clients.ts'), [`ws://127.0.0.1:${server.port}${path}`, String(SOCKETS), subscribe ? 'subscribe' : '']);
  // The clients drive the server, as a load generator does: on the other core (lib/cpu.ts).
  const clients = await startProcess(node, argv, { name: `${name} clients`, ready: /^ready$/, pin: 'load' });
  return { server, clients, sample: clients.waitFor(/^sample (.*)$/), sent: 0 };
}

/** One run of `bursts` bursts, each waited for: deliveries per second, and the server's CPU per delivery. */
async function burst(s: Side, bursts = BURSTS): Promise<Sample> {
  const cpu = cpuMicros(s.server.pid);
  let ms = 0;
  for (let b = 0; b < bursts; b++) {
    const done = s.clients.waitFor(/^received \d+$/, 60_000);
    s.sent += DELIVERIES;
    s.clients.send(`expect ${s.sent}`);
    const started = performance.now();
    s.server.send(`broadcast ${EVENTS}`);
    await done;
    ms += performance.now() - started;
  }
  return { value: (DELIVERIES * bursts) / (ms / 1000), cpu: (cpuMicros(s.server.pid) - cpu) / (DELIVERIES * bursts) };
}

const PINGS = knob('BENCH_PINGS', 200, 20);

/** Ping-pong through Redis between this process and a far one: fw's event bus against raw pub/sub. */
async function redisRoundTrip(started: RunningServer[]): Promise<Row> {
  const port = await freePort();
  const redis = await startProcess('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    name: 'redis-server',
    ready: /Ready to accept connections/,
    pin: false, // the round trip crosses three processes: none is pinned
  }).catch((error: unknown) => {
    throw new Error(`redis-server could not start (apt-get install redis-server): ${error instanceof Error ? error.message : String(error)}`);
  });
  started.push(redis);
  const url = `redis://127.0.0.1:${port}/0`;
  const root = kernelProject({ EVENTS_REDIS_URL: url });
  const [node, argv] = nodeScript(join(BENCH_DIR, 'servers', 'events-echo.ts'), [root, url]);
  const far = await startProcess(node, argv, { name: 'events echo', ready: /^ready$/, pin: false });
  started.push(far);
  const near = new Fluid({ root, env: {} });
  near.events.createSignal('ping');
  let answer: (() => void) | undefined;
  near.events.event('pong', () => answer?.());
  await near.mix();
  const pub = new Redis(url);
  const sub = new Redis(url);
  let rawAnswer: (() => void) | undefined;
  sub.on('message', () => rawAnswer?.());
  await sub.subscribe('raw:pong');
  const sides = {
    fw: (i: number, done: () => void) => ((answer = done), near.events.trigger('ping', i)),
    raw: (i: number, done: () => void) => ((rawAnswer = done), void pub.publish('raw:ping', String(i))),
  };
  const batch = async (ping: (i: number, done: () => void) => void, count = PINGS): Promise<Sample> => {
    const cpu = cpuMicros(far.pid);
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const t = performance.now();
      await new Promise<void>((resolve) => ping(i, resolve));
      times.push(performance.now() - t);
    }
    return { value: median(times), cpu: (cpuMicros(far.pid) - cpu) / count };
  };
  for (const ping of Object.values(sides)) await batch(ping, 50); // warm-up
  const runs = await interleave(['fw', 'raw'] as const, ROUNDS, (k) => batch(sides[k]));
  await Promise.all([near.close(), pub.quit(), sub.quit()]);
  return pairedRow({
    bench: 'realtime',
    name: 'event round trip between two processes through Redis',
    unit: 'ms',
    per: 'round trip (far process)',
    fw: { label: 'fw events over the Redis bus', samples: runs.fw },
    baseline: { label: 'raw ioredis pub/sub', samples: runs.raw },
    note: `Median of ${PINGS} sequential ping-pongs per run; one way is about half.`,
  });
}

const started: RunningServer[] = [];
try {
  const fw = await side('fw-ws.ts', [kernelProject()], '/ws/events', true, 'fw /ws/events');
  started.push(fw.server, fw.clients);
  const raw = await side('ws-raw.ts', [], '/', false, 'raw ws');
  started.push(raw.server, raw.clients);
  const sides = { fw, raw };
  for (const s of Object.values(sides)) await burst(s, 1); // warm-up
  const [fwFrame, rawFrame] = await Promise.all([fw.sample, raw.sample]);
  if (fwFrame[1] !== rawFrame[1]) throw new Error(`the servers send different frames:\nfw:  ${fwFrame[1]}\nraw: ${rawFrame[1]}`);
  const runs = await interleave(['fw', 'raw'] as const, ROUNDS, (k) => burst(sides[k]));
  await stopAll(started.splice(0));
  const roundTrip = await redisRoundTrip(started);
  report(
    'Realtime: broadcast',
    `${ROUNDS} interleaved rounds of ${BURSTS} bursts of ${EVENTS} events to ${SOCKETS} sockets (${DELIVERIES.toLocaleString('en-US')} frames a burst); servers and clients in separate processes; CPU = the server process's per delivered frame (the far process's per round trip)`,
    [
      pairedRow({
        bench: 'realtime',
        name: `ws broadcast to ${SOCKETS} sockets`,
        unit: 'frames/s',
        per: 'frame',
        fw: { label: 'fw events.trigger → /ws/events', samples: runs.fw },
        baseline: { label: 'raw ws send loop', samples: runs.raw },
        target: '≥ 0.95×',
      }),
      roundTrip,
    ],
  );
} finally {
  await stopAll(started);
}
