/**
 * Koa + koa-static serving the folder argv[2] at `/` (default options); any other request gets
 * the file argv[3] as an HTML 404 page when given (the same bytes as the kernel's styled page,
 * served from memory), else Koa's plain 404.
 */
import { readFileSync } from 'node:fs';
import Koa from 'koa';
import serve from 'koa-static';
import { announce } from '../lib/server.ts';

const [dir = '.', notFoundPage] = process.argv.slice(2);
const page = notFoundPage ? readFileSync(notFoundPage) : undefined;
const app = new Koa();
app.silent = true; // a load generator drops its connections when a run ends; Koa would log each aborted stream
app.use(serve(dir));
if (page) {
  app.use((ctx) => {
    ctx.status = 404;
    ctx.type = 'html';
    ctx.body = page;
  });
}
const server = app.listen(0, '127.0.0.1', () => announce(server));
