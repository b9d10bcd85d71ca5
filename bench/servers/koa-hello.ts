/**
 * Bare Koa + @koa/router serving `GET /hello` → `{"hello":"world"}`. With argv[2], a JSON object
 * of headers, every response also carries those (set from memory, the cheapest way Koa can).
 */
import Router from '@koa/router';
import Koa from 'koa';
import { announce } from '../lib/server.ts';

const headers = Object.entries(JSON.parse(process.argv[2] ?? '{}') as Record<string, string>);
const app = new Koa();
if (headers.length > 0) {
  app.use((ctx, next) => {
    for (const [name, value] of headers) ctx.res.setHeader(name, value);
    return next();
  });
}
const router = new Router();
router.get('/hello', (ctx) => {
  ctx.body = { hello: 'world' };
});
app.use(router.routes()).use(router.allowedMethods());
const server = app.listen(0, '127.0.0.1', () => announce(server));
