/** CSRF (missing, tampered, wrong type, cross-origin), session cookies and fixation, over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fluid } from '@fw/kernel';
import Keygrip from 'keygrip';
import { PayloadSigner, deriveKey, session, signOut, requireUser } from '@fw/kernel/auth';
import { cleanupProjects, TEST_SECRET } from '../kernel/helpers.js';
import { authApp, Client, client, USERS } from './helpers.js';

let fluid: Fluid;
let base: string;
beforeAll(async () => {
  ({ fluid } = authApp({
    config: { BASE_URL: 'https://app.example.test' },
    files: { 'fluid/templates/form.html': '<form method="post">{{csrf_field}}</form><meta name="csrf" content="{{csrf_token}}">' },
  }));
  fluid.app.get('form', '/form', (ctx) => ctx.render('form.html'));
  fluid.app.post('submit', '/submit', (ctx) => ({ ok: true, name: (ctx.state.form as URLSearchParams | undefined)?.get('name') ?? null }));
  fluid.app.get('me', '/me', requireUser, (ctx) => ({ id: (ctx.state.user as { id: number }).id }));
  fluid.app.get('cart', '/cart', (ctx) => {
    session(ctx).cart = ['book']; // the app writes to the session: now it is stored
    return { cart: true };
  });
  fluid.app.get('logout', '/logout', (ctx) => {
    signOut(ctx);
    return { out: true };
  });
  // A sign-out that answers with a page holding a form (the signed-out home, a sign-in form).
  fluid.app.post('logout-page', '/logout-page', (ctx) => {
    signOut(ctx);
    return ctx.render('form.html');
  });
  base = (await client(fluid)).base;
});
afterAll(async () => {
  await fluid.close();
  cleanupProjects();
});

async function tokenOf(c: Client): Promise<string> {
  const html = await (await c.fetch('/form')).text();
  const field = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  const meta = /name="csrf" content="([^"]+)"/.exec(html)?.[1];
  expect(field).toBeTruthy();
  expect(meta).toBeTruthy();
  return field!;
}

const post = (c: Client, headers: Record<string, string> = {}, body?: string) =>
  c.fetch('/submit', { method: 'POST', headers: { Accept: 'application/json', ...headers }, body });

async function expectCsrf403(res: Response): Promise<void> {
  expect(res.status).toBe(403);
  expect(((await res.json()) as { code: string }).code).toBe('INVALID_CSRF');
}

describe('CSRF', () => {
  it('safe methods pass without a token', async () => {
    expect((await new Client(base).fetch('/form')).status).toBe(200);
  });

  it('a valid token in X-CSRF-Token passes; a form field passes and the form reaches the handler', async () => {
    const c = new Client(base);
    const token = await tokenOf(c);
    const res = await post(c, { 'X-CSRF-Token': token });
    expect(res.status).toBe(200);
    const form = await post(c, { 'Content-Type': 'application/x-www-form-urlencoded' }, new URLSearchParams({ csrf_token: token, name: 'Ada' }).toString());
    expect(await form.json()).toEqual({ ok: true, name: 'Ada' });
  });

  it('a form whose token comes in X-CSRF-Token (htmx with hx-headers) still reaches the handler as ctx.state.form', async () => {
    const c = new Client(base);
    const token = await tokenOf(c);
    const res = await post(
      c,
      { 'X-CSRF-Token': token, 'Content-Type': 'application/x-www-form-urlencoded' },
      new URLSearchParams({ csrf_token: token, name: 'Ada' }).toString(),
    );
    expect(await res.json()).toEqual({ ok: true, name: 'Ada' });
    const headerOnly = await post(c, { 'X-CSRF-Token': token, 'Content-Type': 'application/x-www-form-urlencoded' }, 'name=Grace');
    expect(await headerOnly.json()).toEqual({ ok: true, name: 'Grace' });
  });

  it('missing token → 403 INVALID_CSRF', async () => {
    const c = new Client(base);
    await tokenOf(c);
    await expectCsrf403(await post(c));
  });

  it('tampered token → 403 INVALID_CSRF', async () => {
    const c = new Client(base);
    const token = await tokenOf(c);
    const [body, mac] = token.split('.');
    const other = JSON.parse(Buffer.from(body!, 'base64url').toString());
    other.sid = 'f'.repeat(32);
    await expectCsrf403(await post(c, { 'X-CSRF-Token': `${Buffer.from(JSON.stringify(other)).toString('base64url')}.${mac}` }));
    // Flip the MAC's first character (all six of its bits count, unlike the last one's).
    await expectCsrf403(await post(c, { 'X-CSRF-Token': `${body}.${mac![0] === 'A' ? 'B' : 'A'}${mac!.slice(1)}` }));
    await expectCsrf403(await post(c, { 'X-CSRF-Token': 'garbage' }));
  });

  it('a validly signed payload of the wrong type → 403 INVALID_CSRF', async () => {
    const c = new Client(base);
    const token = await tokenOf(c);
    const { sid, iat } = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString());
    const signer = new PayloadSigner(TEST_SECRET, 'signed'); // the app's own key
    // sanity: the same signer makes a token the app accepts
    expect((await post(c, { 'X-CSRF-Token': signer.sign({ t: 'csrf', sid, iat }) })).status).toBe(200);
    await expectCsrf403(await post(c, { 'X-CSRF-Token': signer.sign({ t: 'verify-email', sid, iat }) }));
  });

  it("another session's token → 403 INVALID_CSRF", async () => {
    const a = new Client(base);
    const b = new Client(base);
    const tokenA = await tokenOf(a);
    await tokenOf(b);
    await expectCsrf403(await post(b, { 'X-CSRF-Token': tokenA }));
  });

  it('cross-origin Origin or Referer → 403 even with a valid token; same origin and BASE_URL pass', async () => {
    const c = new Client(base);
    const token = await tokenOf(c);
    await expectCsrf403(await post(c, { 'X-CSRF-Token': token, Origin: 'https://evil.example' }));
    await expectCsrf403(await post(c, { 'X-CSRF-Token': token, Origin: 'null' }));
    await expectCsrf403(await post(c, { 'X-CSRF-Token': token, Referer: 'https://evil.example/page' }));
    expect((await post(c, { 'X-CSRF-Token': token, Origin: base })).status).toBe(200);
    expect((await post(c, { 'X-CSRF-Token': token, Origin: 'https://app.example.test' })).status).toBe(200);
    expect((await post(c, { 'X-CSRF-Token': token, Referer: `${base}/form` })).status).toBe(200);
  });

  it('a default port in Host matches an Origin without it', async () => {
    const c = new Client(base);
    const token = await tokenOf(c);
    const { request } = await import('node:http');
    const port = new URL(base).port;
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path: '/submit', method: 'POST', headers: { Host: 'localhost:80', Origin: 'http://localhost', 'X-CSRF-Token': token, Cookie: [...c.jar].map(([k, v]) => `${k}=${v}`).join('; '), Accept: 'application/json' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
  });

  it('X-Forwarded-Proto from an untrusted peer does not change the request origin', async () => {
    const c = new Client(base);
    const token = await tokenOf(c);
    const httpsOrigin = base.replace('http:', 'https:');
    await expectCsrf403(await post(c, { 'X-CSRF-Token': token, Origin: httpsOrigin, 'X-Forwarded-Proto': 'https' }));
  });
});

describe('session cookie', () => {
  it('is signed, HttpOnly, SameSite=Lax, and not Secure over plain HTTP', async () => {
    const res = await fetch(`${base}/login/${USERS.verified!.id}`);
    const cookies = res.headers.getSetCookie();
    const sid = cookies.find((l) => l.startsWith('fw.sid='))!;
    expect(sid).toMatch(/httponly/i);
    expect(sid).toMatch(/samesite=lax/i);
    expect(sid).not.toMatch(/secure/i);
    expect(cookies.some((l) => l.startsWith('fw.sid.sig='))).toBe(true);
  });

  it('a forged (unsigned) cookie is ignored', async () => {
    const c = new Client(base);
    await c.signIn(USERS.verified!);
    c.jar.set('fw.sid.sig', 'AAAA');
    expect((await c.fetch('/me', { headers: { Accept: 'application/json' } })).status).toBe(401);
  });

  it("signs like Koa's keygrip (cookies signed before stay valid); a forged signature of the right length is ignored", async () => {
    const c = new Client(base);
    await c.signIn(USERS.verified!);
    const sid = c.jar.get('fw.sid')!;
    const sig = c.jar.get('fw.sid.sig')!;
    const keygrip = new Keygrip([deriveKey(fluid.auth.secret, 'session').toString('base64url')]);
    expect(sig).toBe(keygrip.sign(`fw.sid=${sid}`));
    expect((await c.fetch('/me', { headers: { Accept: 'application/json' } })).status).toBe(200);
    const forged = sig.slice(0, -1) + (sig.endsWith('A') ? 'B' : 'A');
    for (const [name, value] of [
      ['fw.sid.sig', forged],
      ['fw.sid', sid.slice(0, -1) + (sid.endsWith('A') ? 'B' : 'A')], // another id under the real signature
    ] as const) {
      const attacker = new Client(base);
      attacker.jar.set('fw.sid', sid);
      attacker.jar.set('fw.sid.sig', sig);
      attacker.jar.set(name, value);
      expect((await attacker.fetch('/me', { headers: { Accept: 'application/json' } })).status).toBe(401);
    }
  });

  it('fixation: the session id changes at sign-in and the old id is dead', async () => {
    const c = new Client(base);
    await c.fetch('/cart'); // an anonymous session with data
    const before = c.jar.get('fw.sid');
    const beforeSig = c.jar.get('fw.sid.sig');
    expect(before).toBeTruthy();
    const oldToken = await tokenOf(c);
    await c.signIn(USERS.verified!);
    const after = c.jar.get('fw.sid');
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
    expect((await c.fetch('/me')).status).toBe(200);
    // the planted (pre-sign-in) id does not carry the sign-in
    const attacker = new Client(base);
    attacker.jar.set('fw.sid', before!);
    attacker.jar.set('fw.sid.sig', beforeSig!);
    expect((await attacker.fetch('/me', { headers: { Accept: 'application/json' } })).status).toBe(401);
    // CSRF tokens from before sign-in stop working
    await expectCsrf403(await post(c, { 'X-CSRF-Token': oldToken }));
    expect((await post(c, { 'X-CSRF-Token': await tokenOf(c) })).status).toBe(200);
  });

  it('a page rendered after signOut in the same request carries an anonymous token that then passes', async () => {
    const c = new Client(base);
    await c.signIn(USERS.verified!);
    expect((await c.fetch('/logout-page', { method: 'POST' })).status).toBe(403); // signing out needs a token too
    const out = await c.fetch('/logout-page', { method: 'POST', headers: { 'X-CSRF-Token': await tokenOf(c) } });
    expect(out.status).toBe(200);
    const token = /name="csrf_token" value="([^"]+)"/.exec(await out.text())?.[1];
    expect(token).toBeTruthy();
    expect((await c.fetch('/me', { headers: { Accept: 'application/json' } })).status).toBe(401);
    expect((await post(c, { 'X-CSRF-Token': token! })).status).toBe(200);
  });

  it('signOut clears the session', async () => {
    const c = new Client(base);
    await c.signIn(USERS.verified!);
    const sid = c.jar.get('fw.sid')!;
    const sig = c.jar.get('fw.sid.sig')!;
    await c.fetch('/logout');
    expect((await c.fetch('/me', { headers: { Accept: 'application/json' } })).status).toBe(401);
    const replay = new Client(base);
    replay.jar.set('fw.sid', sid);
    replay.jar.set('fw.sid.sig', sig);
    expect((await replay.fetch('/me', { headers: { Accept: 'application/json' } })).status).toBe(401);
  });
});

describe('Secure behind a trusted proxy', () => {
  it('X-Forwarded-Proto: https from a trusted peer makes the cookie Secure', async () => {
    const { fluid: app } = authApp({ config: { PROXY_FIX: true, PROXY_TRUSTED_HOSTS: ['127.0.0.1'] } });
    const c = await client(app);
    try {
      const res = await c.fetch(`/login/${USERS.verified!.id}`, { headers: { 'X-Forwarded-Proto': 'https' } });
      expect(res.headers.getSetCookie().find((l) => l.startsWith('fw.sid='))).toMatch(/secure/i);
      const plain = await c.fetch(`/login/${USERS.verified!.id}`);
      expect(plain.headers.getSetCookie().find((l) => l.startsWith('fw.sid='))).not.toMatch(/secure/i);
    } finally {
      await app.close();
    }
  });
});
