/** Koa + @koa/router + handlebars (compiled once) serving `GET /page` as HTML. */
import Router from '@koa/router';
import Handlebars from 'handlebars';
import Koa from 'koa';
import { announce } from '../lib/server.ts';
import { PAGE_DATA, PAGE_TEMPLATE } from './page.ts';

const render = Handlebars.create().compile(PAGE_TEMPLATE);
const app = new Koa();
const router = new Router();
router.get('/page', (ctx) => {
  ctx.type = 'html';
  ctx.body = render(PAGE_DATA);
});
app.use(router.routes()).use(router.allowedMethods());
const server = app.listen(0, '127.0.0.1', () => announce(server));
