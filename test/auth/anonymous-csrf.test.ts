/**
 * Sessions are stored only once something is written to them: anonymous visitors who render a
 * CSRF token get a signed binding cookie, not a server session, on a real Redis; their forms
 * still post. A signed-in user's tokens stay bound to their session.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fluid } from '@fw/kernel';
import { session } from '@fw/kernel/auth';
import { cleanupProjects, start } from '../kernel/helpers.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { authApp, Client, USERS } from './helpers.js';

let redis: TestRedis;
let db: Redis;
let fluid: Fluid;
let base: string;

beforeAll(async () => {
  redis = await startRedis();
  db = new Redis(redis.url, { lazyConnect: true });
  await db.connect();
  ({ fluid } = authApp({
    config: { CACHE_TYPE: 'redis', CACHE_REDIS_URL: redis.url },
    files: { 'fluid/templates/form.html': '<form method="post" action="/submit">{{csrf_field}}<input name="name"></form><meta name="csrf" content="{{csrf_token}}">' },
  }));
  fluid.app.get('form', '/form', (ctx) => ctx.render('form.html'));
  fluid.app.post('submit', '/submit', (ctx) => ({ name: (ctx.state.form as URLSearchParams).get('name') }));
  fluid.app.get('cart', '/cart', (ctx) => {
    session(ctx).cart = 1;
    return { cart: 1 };
  });
  base = await start(fluid);
});
afterAll(async () => {
  await fluid?.close();
  db?.disconnect();
  await redis?.stop();
  cleanupProjects();
});

const sessions = (): Promise<string[]> => db.keys('*sess:*');

async function render(c: Client): Promise<{ field: string; meta: string }> {
  const html = await (await c.fetch('/form')).text();
  return { field: /name="csrf_token" value="([^"]+)"/.exec(html)![1]!, meta: /name="csrf" content="([^"]+)"/.exec(html)![1]! };
}

const submit = (c: Client, token: string, name = 'Ada') =>
  c.fetch('/submit', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json', Origin: base },
    body: new URLSearchParams({ csrf_token: token, name }).toString(),
  });

describe('anonymous visitors', () => {
  it('N form renders leave the session store empty, and every form still posts', async () => {
    const clients = Array.from({ length: 25 }, () => new Client(base));
    const tokens = await Promise.all(clients.map(async (c) => (await render(c)).field));
    expect(await sessions()).toEqual([]);
    for (const c of clients) {
      expect(c.jar.has('fw.sid'), 'no session cookie').toBe(false);
      expect(c.jar.get('fw.csrf')).toMatch(/^[0-9a-f]{32}$/);
    }
    const answers = await Promise.all(clients.map((c, i) => submit(c, tokens[i]!, `n${i}`)));
    expect(answers.map((r) => r.status)).toEqual(clients.map(() => 200));
    expect(await Promise.all(answers.map((r) => r.json()))).toEqual(clients.map((_, i) => ({ name: `n${i}` })));
    expect(await sessions()).toEqual([]);
  });

  it('the binding cookie is signed, HttpOnly and SameSite=Lax; one render sets it once', async () => {
    const res = await fetch(`${base}/form`);
    const cookies = res.headers.getSetCookie();
    expect(cookies.filter((l) => l.startsWith('fw.csrf='))).toHaveLength(1); // the field and the meta share it
    expect(cookies.find((l) => l.startsWith('fw.csrf='))).toMatch(/httponly/i);
    expect(cookies.find((l) => l.startsWith('fw.csrf='))).toMatch(/samesite=lax/i);
    expect(cookies.some((l) => l.startsWith('fw.csrf.sig='))).toBe(true);
  });

  it("another visitor's token, a forged cookie or no cookie at all → 403", async () => {
    const a = new Client(base);
    const b = new Client(base);
    const tokenA = (await render(a)).field;
    await render(b);
    expect((await submit(b, tokenA)).status).toBe(403);
    // b plants a's cookie value without a's signature: ignored, so a's token does not pass
    const forger = new Client(base);
    forger.jar.set('fw.csrf', a.jar.get('fw.csrf')!);
    forger.jar.set('fw.csrf.sig', 'forged');
    expect((await submit(forger, tokenA)).status).toBe(403);
    const bare = new Client(base);
    expect((await submit(bare, tokenA)).status).toBe(403);
    expect((await submit(a, tokenA)).status).toBe(200);
  });

  it('a session is stored as soon as the app writes to it', async () => {
    const c = new Client(base);
    await c.fetch('/cart');
    expect(c.jar.has('fw.sid')).toBe(true);
    expect(await sessions()).toHaveLength(1);
    await db.del(await sessions());
  });
});

describe('signed-in users', () => {
  it('get tokens bound to their session: a pre-sign-in (cookie-bound) token stops working, even with the cookie', async () => {
    const c = new Client(base);
    const before = (await render(c)).field;
    expect((await submit(c, before)).status).toBe(200);
    await c.signIn(USERS.verified!);
    expect(c.jar.has('fw.csrf'), 'the anonymous binding cookie is still sent').toBe(true);
    expect((await submit(c, before)).status).toBe(403);
    const after = (await render(c)).field;
    expect((await submit(c, after)).status).toBe(200);
    expect(await sessions()).toHaveLength(1);
    // the signed-in token is no good for anyone else, not even with the victim's binding cookie
    const other = new Client(base);
    other.jar.set('fw.csrf', c.jar.get('fw.csrf')!);
    other.jar.set('fw.csrf.sig', c.jar.get('fw.csrf.sig')!);
    expect((await submit(other, after)).status).toBe(403);
    // and an anonymous (cookie-bound) token made by someone else cannot ride on the session
    const anon = new Client(base);
    const foreign = (await render(anon)).field;
    c.jar.set('fw.csrf', anon.jar.get('fw.csrf')!);
    c.jar.set('fw.csrf.sig', anon.jar.get('fw.csrf.sig')!);
    expect((await submit(c, foreign)).status).toBe(403);
  });
});
