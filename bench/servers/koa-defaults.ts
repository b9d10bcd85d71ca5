/**
 * The production defaults assembled by hand, the way issue 17 suggests them: Koa + @koa/router
 * with helmet's defaults (as koa-helmet wraps them), @koa/bodyparser's defaults and pino-http
 * (its default serializers and request ids) writing one JSON line per request to stderr.
 * Serves `GET /hello` → `{"hello":"world"}`.
 */
import bodyParser from '@koa/bodyparser';
import Router from '@koa/router';
import helmet from 'helmet';
import Koa from 'koa';
import pino from 'pino';
import { pinoHttp } from 'pino-http';
import { announce } from '../lib/server.ts';

const headers = helmet();
const log = pinoHttp({ logger: pino(pino.destination(2)) });
const app = new Koa();
app.use(async (ctx, next) => {
  log(ctx.req, ctx.res);
  await new Promise<void>((resolve, reject) => headers(ctx.req, ctx.res, (err?: unknown) => (err ? reject(err) : resolve())));
  await next();
});
app.use(bodyParser());
const router = new Router();
router.get('/hello', (ctx) => {
  ctx.body = { hello: 'world' };
});
app.use(router.routes()).use(router.allowedMethods());
const server = app.listen(0, '127.0.0.1', () => announce(server));
