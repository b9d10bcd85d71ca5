/**
 * Koa + @koa/router + koa-session with an in-memory store (signed cookie holding the session
 * id): `GET /login` signs the user in, `GET /guarded` answers `guarded` when the session's user
 * is found, else 401.
 */
import Router from '@koa/router';
import Koa from 'koa';
import session from 'koa-session';
import { announce } from '../lib/server.ts';
import { USERS } from './users.ts';

const sessions = new Map<string, unknown>();
const app = new Koa();
app.keys = ['0123456789abcdef0123456789abcdef'];
app.use(
  session(app, {
    store: {
      get: async (key: string) => sessions.get(key),
      set: async (key: string, value: unknown) => void sessions.set(key, value),
      destroy: async (key: string) => void sessions.delete(key),
    },
  }),
);
const router = new Router();
router.get('/login', (ctx) => {
  ctx.session!.userId = 1;
  ctx.body = 'signed in';
});
router.get('/guarded', async (ctx) => {
  const id = ctx.session?.userId as number | undefined;
  if (id === undefined || !(await USERS.findById(String(id)))) ctx.throw(401);
  ctx.body = 'guarded';
});
app.use(router.routes()).use(router.allowedMethods());
const server = app.listen(0, '127.0.0.1', () => announce(server));
