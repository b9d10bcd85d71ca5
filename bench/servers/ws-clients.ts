/**
 * The websocket clients of bench/realtime.ts, in their own process: opens argv[3] sockets to the
 * URL argv[2] (subscribing each to `tick` when argv[4] is `subscribe`), prints `ready`, then for
 * each `expect <n>` line on stdin prints `received <n>` once n frames have arrived since the
 * start (a running total, so frames that overtake the command still count), and
 * `sample <frame>` for the first frame.
 */
import { WebSocket } from 'ws';
import { onCommand } from './broadcast.ts';

const [url = '', count = '1000', mode = ''] = process.argv.slice(2);
let received = 0;
let goal = Infinity;
let sampled = false;
const onFrame = (data: unknown): void => {
  if (!sampled) {
    sampled = true;
    process.stdout.write(`sample ${String(data)}\n`);
  }
  if (++received >= goal) {
    goal = Infinity;
    process.stdout.write(`received ${received}\n`);
  }
};

async function open(): Promise<WebSocket> {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  if (mode === 'subscribe') {
    ws.send(JSON.stringify({ id: 1, action: 'subscribe', event: 'tick' }));
    await new Promise((resolve) => ws.once('message', resolve)); // the subscription's answer
  }
  ws.on('message', onFrame);
  return ws;
}

const sockets: WebSocket[] = [];
for (let i = 0; i < Number(count); i += 100) sockets.push(...(await Promise.all(Array.from({ length: Math.min(100, Number(count) - i) }, open))));
process.stdout.write('ready\n');
onCommand(/^expect (\d+)$/, (m) => {
  goal = Number(m[1]);
  if (received >= goal) {
    goal = Infinity;
    process.stdout.write(`received ${received}\n`);
  }
});
process.stdin.on('end', () => {
  for (const ws of sockets) ws.terminate();
  process.exit(0);
});
