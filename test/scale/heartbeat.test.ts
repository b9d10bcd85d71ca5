/**
 * The websocket heartbeat: 1,000 real `ws` clients that never answer pings are dropped, while a
 * client that answers stays connected.
 */
import type { AddressInfo } from 'node:net';
import { WebSocket } from 'ws';
import { afterAll, expect, it } from 'vitest';
import { cleanupProjects, makeFluid, memoryLogger } from '../kernel/helpers.js';
import { waitFor } from './cluster.js';

const logger = memoryLogger();
const fluid = makeFluid({ config: { WS_PING_INTERVAL: 1 } }, { logger });
fluid.ws.route('echo', '/echo', (socket) => socket.on('message', (m) => socket.send(String(m))));
afterAll(async () => {
  await fluid.close();
  cleanupProjects();
});

function open(url: string, autoPong: boolean): Promise<{ ws: WebSocket; closed: () => boolean }> {
  const ws = new WebSocket(url, { autoPong });
  let closed = false;
  ws.on('close', () => (closed = true));
  ws.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, closed: () => closed }));
    ws.once('unexpected-response', () => reject(new Error('upgrade refused')));
  });
}

it('1,000 sockets that stop answering pings are dropped; one that answers stays', async () => {
  const server = await fluid.listen(0, '127.0.0.1');
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws/echo`;
  const alive = await open(url, true);
  const dead = await Promise.all(Array.from({ length: 1000 }, () => open(url, false)));
  try {
    // A ping every second; a socket without a pong by the next round is terminated.
    await waitFor('the silent sockets to be dropped', () => dead.every((c) => c.closed()), 30_000);
    expect(alive.closed()).toBe(false);
    const echo = new Promise<string>((resolve) => alive.ws.once('message', (m) => resolve(String(m))));
    alive.ws.send('still here');
    expect(await echo).toBe('still here');
    expect(logger.lines.some((l) => /^info websockets: dropped \d+ that did not answer a ping within 1 s$/.test(l))).toBe(true);
  } finally {
    alive.ws.terminate();
    for (const c of dead) c.ws.terminate();
  }
});
