/**
 * A bare `ws` WebSocketServer: each `broadcast <n>` line on stdin sends n frames shaped like the
 * kernel's (`{"event":"tick","data":…}`) to every connected socket in a plain loop.
 */
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';
import { announce } from '../lib/server.ts';
import { onBroadcast, tickData } from './broadcast.ts';

const server = createServer();
const wss = new WebSocketServer({ server });
server.listen(0, '127.0.0.1', () => announce(server));
onBroadcast((count) => {
  for (let n = 0; n < count; n++) {
    const text = JSON.stringify({ event: 'tick', data: tickData(n) });
    for (const client of wss.clients) client.send(text);
  }
});
