/** Every guard against every user state, through real HTTP. */
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fluid } from '@fw/kernel';
import { EmailVerifiedGate, require2fa, requireAdmin, requirePermission, requireRole, requireUser, type Guard } from '@fw/kernel/auth';
import { cleanupProjects } from '../kernel/helpers.js';
import { authApp, Client, client, USERS } from './helpers.js';

const GUARDS: Record<string, Guard> = {
  requireUser,
  EmailVerifiedGate,
  require2fa,
  requireAdmin,
  requireEditor: requireRole('editor'),
  requirePublish: requirePermission('publish'),
};

const OK = 200;
const ANON = [401, 'NOT_AUTHENTICATED'] as const;
const UNVERIFIED = [401, 'EMAIL_NOT_VERIFIED'] as const;
const NO_2FA = [401, 'TWO_FACTOR_REQUIRED'] as const;
const NOT_ADMIN = [403, 'NOT_ADMIN'] as const;
const NO_ROLE = [403, 'MISSING_ROLE'] as const;
const NO_PERM = [403, 'MISSING_PERMISSION'] as const;
type Expect = typeof OK | readonly [number, string];

//                  requireUser EmailVerifiedGate require2fa requireAdmin requireEditor requirePublish
const TABLE: Record<string, Expect[]> = {
  anonymous: [ANON, ANON, ANON, ANON, ANON, ANON],
  unverified: [OK, UNVERIFIED, UNVERIFIED, UNVERIFIED, UNVERIFIED, UNVERIFIED],
  noEmail: [OK, UNVERIFIED, UNVERIFIED, UNVERIFIED, UNVERIFIED, UNVERIFIED],
  unverifiedAdmin: [OK, UNVERIFIED, UNVERIFIED, UNVERIFIED, UNVERIFIED, UNVERIFIED],
  verified: [OK, OK, NO_2FA, NOT_ADMIN, NO_ROLE, NO_PERM],
  twofa: [OK, OK, OK, NOT_ADMIN, NO_ROLE, NO_PERM],
  admin: [OK, OK, NO_2FA, OK, NO_ROLE, NO_PERM],
  role: [OK, OK, NO_2FA, NOT_ADMIN, OK, NO_PERM],
  permission: [OK, OK, NO_2FA, NOT_ADMIN, NO_ROLE, OK],
};

let fluid: Fluid;
let base: string;
beforeAll(async () => {
  ({ fluid } = authApp());
  for (const [name, g] of Object.entries(GUARDS)) {
    fluid.app.get(name, `/g/${name}`, g, (ctx) => ({ ok: true, user: (ctx.state.user as { id: number }).id }));
    fluid.api.get(`api-${name}`, `/g/${name}`, g, () => ({ ok: true }));
  }
  base = (await client(fluid)).base;
});
afterAll(async () => {
  await fluid.close();
  cleanupProjects();
});

describe.each(Object.entries(TABLE))('%s', (state, expected) => {
  it.each(Object.keys(GUARDS).map((g, i) => [g, expected[i]!] as const))('%s → %j', async (guardName, want) => {
    const c = new Client(base);
    if (state !== 'anonymous') await c.signIn(USERS[state]!);
    for (const path of [`/g/${guardName}`, `/api/g/${guardName}`]) {
      const res = await c.fetch(path, { headers: { Accept: 'application/json' } });
      const body = (await res.json()) as { code?: string; ok?: boolean };
      if (want === OK) {
        expect(res.status, path).toBe(200);
        expect(body.ok).toBe(true);
      } else {
        expect(res.status, path).toBe(want[0]);
        expect(body.code, path).toBe(want[1]);
      }
    }
  });
});

describe('error bodies', () => {
  it('HTML callers get the styled page with the status', async () => {
    const c = new Client(base);
    await c.signIn(USERS.unverified!);
    const res = await c.fetch('/g/requireAdmin', { headers: { Accept: 'text/html' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(await res.text()).toMatch(/<html/i);
  });

  it('a guard used as a route handler runs the next handler only when it passes', async () => {
    const c = new Client(base);
    await c.signIn(USERS.admin!);
    const res = await c.fetch('/g/requireAdmin');
    expect(await res.json()).toEqual({ ok: true, user: USERS.admin!.id });
  });
});

describe('sign-in redirect', () => {
  it('anonymous HTML GETs go to signInUrl with a safe ?redirect=', async () => {
    const { fluid: app } = authApp({}, undefined, { signInUrl: '/signin' });
    app.app.get('secret', '/secret', requireUser, () => 'secret');
    const c = await client(app);
    try {
      const res = await c.fetch('/secret?x=1', { headers: { Accept: 'text/html' } });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/signin?redirect=%2Fsecret%3Fx%3D1');
      const json = await c.fetch('/secret', { headers: { Accept: 'application/json' } });
      expect(json.status).toBe(401);
    } finally {
      await app.close();
    }
  });
});

describe('guards outside a fw app', () => {
  it('a guard on a plain Koa app and @koa/router Router fails with a TypeError naming it and what is missing', async () => {
    const errors: unknown[] = [];
    const koa = new Koa();
    koa.use(async (ctx, next) => {
      try {
        await next();
      } catch (err) {
        errors.push(err);
        ctx.status = 500;
      }
    });
    const router = new Router();
    router.get('/admin', requireRole('editor'), (ctx) => {
      ctx.body = 'never';
    });
    koa.use(router.routes());
    const server = koa.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/admin`);
      expect(res.status).toBe(500);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toBeInstanceOf(TypeError);
      expect((errors[0] as Error).message).toMatch(/^requireRole\(editor\) needs a fw app: this request's context has no `fluid`/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
