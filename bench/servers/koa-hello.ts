/** Bare Koa + @koa/router serving `GET /hello` → `{"hello":"world"}`. */
import Router from '@koa/router';
import Koa from 'koa';
import { announce } from '../lib/server.ts';

const app = new Koa();
const router = new Router();
router.get('/hello', (ctx) => {
  ctx.body = { hello: 'world' };
});
app.use(router.routes()).use(router.allowedMethods());
const server = app.listen(0, '127.0.0.1', () => announce(server));
