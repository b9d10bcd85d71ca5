/** fastify (default options, no logger) serving `GET /hello` → `{"hello":"world"}`. */
import Fastify from 'fastify';
import type { Server } from 'node:http';
import { announce } from '../lib/server.ts';

const app = Fastify();
app.get('/hello', async () => ({ hello: 'world' }));
await app.listen({ port: 0, host: '127.0.0.1' });
announce(app.server as Server);
