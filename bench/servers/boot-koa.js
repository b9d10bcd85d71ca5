// @ts-check
/**
 * Boot timing baseline: bare Koa + @koa/router with a home route, listening on
 * 127.0.0.1:argv[2]. Plain JavaScript for the same reason as boot-fw.js.
 */
import Router from '@koa/router';
import Koa from 'koa';

const app = new Koa();
const router = new Router();
router.get('/', (ctx) => {
  ctx.body = 'home';
});
app.use(router.routes()).use(router.allowedMethods());
app.listen(Number(process.argv[2] ?? 0), '127.0.0.1');
