/**
 * `@fw/kernel/testing`: the client an app's tests use. On an app with auth it keeps the session
 * across requests (cookie jar), sends a CSRF token on unsafe methods (so a POST passes, and
 * without the token it is refused as in a browser), follows sign-in and sign-out, and its close
 * runs the app's shutdown hooks. On an app without auth it adds no route at all.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { currentUser, session, signOut } from '@fw/kernel/auth';
import { testClient, TEST_CSRF_PATH } from '@fw/kernel/testing';
import { authApp, USERS } from '../auth/helpers.js';
import { cleanupProjects, makeFluid } from '../kernel/helpers.js';

afterAll(() => cleanupProjects());

describe('an app with auth', () => {
  const { fluid } = authApp();
  let shutdowns = 0;
  fluid.onShutdown(() => shutdowns++);
  const userId = async (ctx: Parameters<typeof currentUser>[0]) => ((await currentUser(ctx)) as { id: number } | undefined)?.id ?? null;
  fluid.app.get('whoami', '/whoami', async (ctx) => ({ user: await userId(ctx) }));
  fluid.app.post('note', '/notes', async (ctx) => ({ saved: true, by: await userId(ctx) }));
  fluid.app.post('logout', '/logout', async (ctx) => {
    await signOut(ctx);
    return { signedOut: true };
  });
  fluid.app.get('visits', '/visits', (ctx) => {
    const visits = session(ctx) as { visits?: number };
    visits.visits = (visits.visits ?? 0) + 1;
    return { visits: visits.visits };
  });
  const client = testClient(fluid);

  afterAll(async () => {
    await client.close();
    expect(shutdowns).toBe(1);
  });

  it('keeps the session between requests (the cookie jar)', async () => {
    expect((await client.get('/visits')).json()).toEqual({ visits: 1 });
    expect((await client.get('/visits')).json()).toEqual({ visits: 2 });
    expect(client.cookies.size).toBeGreaterThan(0);
    client.clearCookies();
    expect((await client.get('/visits')).json()).toEqual({ visits: 1 });
  });

  it('sends a CSRF token on unsafe methods, so a POST passes; without it the app refuses as it would a browser', async () => {
    const res = await client.post('/notes', { json: { text: 'hi' } });
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toEqual({ saved: true, by: null });
    const refused = await client.post('/notes', { json: { text: 'hi' }, csrf: false });
    expect(refused.status).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'INVALID_CSRF' });
  });

  it('follows a sign-in and a sign-out (a new session gets a fresh token)', async () => {
    expect((await client.get(`/login/${USERS.verified!.id}`)).status).toBe(200);
    expect((await client.get('/whoami')).json()).toEqual({ user: USERS.verified!.id });
    const note = await client.post('/notes', { form: { text: 'signed in' } });
    expect(note.status, note.text).toBe(200);
    expect(note.json()).toEqual({ saved: true, by: USERS.verified!.id });
    expect((await client.post('/logout')).status).toBe(200);
    expect((await client.get('/whoami')).json()).toEqual({ user: null });
    expect((await client.post('/notes', { json: {} })).status).toBe(200);
  });

  it('refuses to be made once the app has started', () => {
    expect(() => testClient(fluid)).toThrow(/make the client before the app starts/);
  });
});

describe('an app without auth', () => {
  const fluid = makeFluid();
  fluid.app.get('home', '/', () => '<h1>hello</h1>');
  fluid.app.post('echo', '/echo', () => ({ ok: true }));
  const client = testClient(fluid);
  afterAll(() => client.close());

  it('serves the app, posts without any token, and adds no CSRF route', async () => {
    const home = await client.get('/');
    expect(home.status).toBe(200);
    expect(home.text).toBe('<h1>hello</h1>');
    expect(home.headers.get('content-type')).toMatch(/text\/html/);
    expect((await client.post('/echo', { json: {} })).json()).toEqual({ ok: true });
    expect((await client.get(TEST_CSRF_PATH)).status).toBe(404);
    await expect(client.get('/').then((r) => r.json())).rejects.toThrow(/GET \/ answered 200 with a body that is not JSON/);
  });
});

describe('start()', () => {
  const fluid = makeFluid();
  let started = 0;
  fluid.onStartup(() => void started++);
  fluid.app.get('home', '/', () => 'up');
  const client = testClient(fluid);
  afterAll(() => client.close());

  it('boots the app and its server before any request (so a beforeAll pays for a slow boot), once', async () => {
    expect(client.origin).toBe('');
    await client.start();
    expect(fluid.mixed).toBe(true);
    expect(started).toBe(1);
    expect(client.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await client.start();
    expect((await client.get('/')).text).toBe('up');
    expect(started).toBe(1);
  });
});
