/** Raw `node:http` serving `GET /hello` → `{"hello":"world"}` (what Koa adds nothing to). */
import { createServer } from 'node:http';
import { announce } from '../lib/server.ts';

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/hello') {
    const body = JSON.stringify({ hello: 'world' });
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  res.writeHead(404).end();
});
server.listen(0, '127.0.0.1', () => announce(server));
