/** requirementOrGrant / requirementAndGrant, mintToken and bearer answers over HTTP. */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fluid } from '@fw/kernel';
import { EmailVerifiedGate, require2fa, requireUser, requirementAndGrant, requirementOrGrant, type Auth } from '@fw/kernel/auth';
import { cleanupProjects } from '../kernel/helpers.js';
import { authApp, Client, client, USERS, type TestUser } from './helpers.js';

let fluid: Fluid;
let auth: Auth<TestUser>;
let base: string;
beforeAll(async () => {
  ({ fluid, auth } = authApp());
  const who = (ctx: { state: Record<string, unknown> }) => ({
    user: (ctx.state.user as TestUser).id,
    via: ctx.state.bearer ? 'token' : 'session',
    ...(ctx.state.form instanceof URLSearchParams ? { name: ctx.state.form.get('name') } : {}),
  });
  fluid.api.get('read', '/read', requirementOrGrant(EmailVerifiedGate, 'posts:read', 'posts:all'), who);
  fluid.api.get('both', '/both', requirementAndGrant(EmailVerifiedGate, 'posts:read', 'posts:write'), who);
  fluid.api.get('twofa', '/twofa', requirementOrGrant(require2fa, 'posts:read'), who);
  fluid.api.post('write', '/write', requirementOrGrant(requireUser, 'posts:write'), who);
  base = (await client(fluid)).base;
});
afterAll(async () => {
  await fluid.close();
  cleanupProjects();
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('requirementOrGrant', () => {
  it('the session chain passes first', async () => {
    const c = new Client(base);
    await c.signIn(USERS.verified!);
    expect(await (await c.fetch('/api/read')).json()).toEqual({ user: 3, via: 'session' });
  });

  it('falls back to a token holding any of the grants', async () => {
    const token = await auth.mintToken(USERS.verified!, ['posts:all'], 600);
    const res = await fetch(`${base}/api/read`, { headers: bearer(token) });
    expect(await res.json()).toEqual({ user: 3, via: 'token' });
  });

  it('no token: the session error stands; a token without the grant: 403 MISSING_GRANT; a bad token: 401 INVALID_TOKEN', async () => {
    const none = await fetch(`${base}/api/read`);
    expect([none.status, ((await none.json()) as { code: string }).code]).toEqual([401, 'NOT_AUTHENTICATED']);
    const other = await fetch(`${base}/api/read`, { headers: bearer(await auth.mintToken(USERS.verified!, ['comments:read'], 600)) });
    expect([other.status, ((await other.json()) as { code: string }).code]).toEqual([403, 'MISSING_GRANT']);
    const bad = await fetch(`${base}/api/read`, { headers: bearer('a.b.c') });
    expect([bad.status, ((await bad.json()) as { code: string }).code]).toEqual([401, 'INVALID_TOKEN']);
  });

  it('the token path checks only grants: an unverified session holding a valid token passes', async () => {
    const c = new Client(base);
    await c.signIn(USERS.unverified!);
    const refused = await c.fetch('/api/read');
    expect(((await refused.json()) as { code: string }).code).toBe('EMAIL_NOT_VERIFIED');
    const token = await auth.mintToken(USERS.verified!, ['posts:read'], 600);
    expect((await c.fetch('/api/read', { headers: bearer(token) })).status).toBe(200);
  });

  it('a grant bypasses 2FA', async () => {
    const token = await auth.mintToken(USERS.verified!, ['posts:read'], 600);
    expect((await fetch(`${base}/api/twofa`)).status).toBe(401);
    expect(await (await fetch(`${base}/api/twofa`, { headers: bearer(token) })).json()).toEqual({ user: 3, via: 'token' });
  });

  it('a grant bypasses CSRF; a bad token does not', async () => {
    const token = await auth.mintToken(USERS.verified!, ['posts:write'], 600);
    const ok = await fetch(`${base}/api/write`, { method: 'POST', headers: bearer(token) });
    expect(ok.status).toBe(200);
    const form = await fetch(`${base}/api/write`, {
      method: 'POST',
      headers: { ...bearer(token), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'name=Ada',
    });
    expect(await form.json()).toEqual({ user: 3, via: 'token', name: 'Ada' }); // the form reaches the handler as ctx.state.form
    const forged = await fetch(`${base}/api/write`, { method: 'POST', headers: bearer(token.slice(0, -3) + 'AAA') });
    expect([forged.status, ((await forged.json()) as { code: string }).code]).toEqual([403, 'INVALID_CSRF']);
  });
});

describe('requirementAndGrant', () => {
  it('the token must hold every grant', async () => {
    const one = await auth.mintToken(USERS.verified!, ['posts:read'], 600);
    const both = await auth.mintToken(USERS.verified!, ['posts:read', 'posts:write'], 600);
    expect((await fetch(`${base}/api/both`, { headers: bearer(one) })).status).toBe(403);
    expect((await fetch(`${base}/api/both`, { headers: bearer(both) })).status).toBe(200);
  });
});

describe('mintToken and sub', () => {
  it('mints only for verified principals', async () => {
    await expect(auth.mintToken(USERS.unverified!, ['posts:read'], 60)).rejects.toMatchObject({ status: 401, code: 'EMAIL_NOT_VERIFIED' });
    await expect(auth.mintToken(USERS.noEmail!, ['posts:read'], 60)).rejects.toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
  });

  it('a validly signed token whose sub is a uuid or an e-mail answers 401, never 500', async () => {
    const { kid, key } = await auth.tokens.keys.current();
    for (const sub of ['8c1f2a6e-4b7d-4c1e-9f3a-2d5b6c7e8f90', 'alice@example.test']) {
      const token = await new SignJWT({ grants: ['posts:read'] }).setProtectedHeader({ alg: 'HS256', kid }).setSubject(sub).setIssuedAt().setExpirationTime('5m').sign(key);
      const res = await fetch(`${base}/api/read`, { headers: bearer(token) });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { code: string }).code).toBe('INVALID_TOKEN');
    }
  });
});
