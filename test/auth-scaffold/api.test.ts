/**
 * The auth scaffold on a Vite React app: the JSON API under /api/auth through the generated typed
 * client (fluid/frontend/src/auth-client.ts), over real HTTP with a cookie-keeping fetch and real
 * mail: sign up, verify, sign in, two-factor with a TOTP code, forgot/reset, and the CSRF header.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boot, Client, linkIn, migrate, scaffoldProject, type RunningApp, type ScaffoldProject } from './app.js';

/** The generated client module's shape (imported at run time from the project). */
interface AuthClientModule {
  createAuthClient(options: { baseUrl: string; fetch: typeof fetch }): {
    session(): Promise<{ user: { email: string; emailVerified: boolean; twoFactor: boolean } | null }>;
    signUp(input: { email: string; password: string }): Promise<void>;
    signIn(input: { email: string; password: string }): Promise<{ user: { email: string } } | { twoFactorRequired: true }>;
    twoFactor(input: { code: string } | { recovery: string }): Promise<{ user: { email: string } }>;
    signOut(): Promise<void>;
    forgotPassword(input: { email: string }): Promise<void>;
    resetPassword(input: { token: string; password: string }): Promise<void>;
  };
  AuthApiError: new (...args: never[]) => Error & { status: number };
}

let project: ScaffoldProject;
let app: RunningApp;
let clientModule: AuthClientModule;

beforeAll(async () => {
  project = await scaffoldProject(['--surface', 'vite', '--framework', 'react', '--typescript']);
  await migrate(project.root);
  // Debug (the Vite dev server behind /vite-dev): the JSON API is under test, not a production build.
  app = await boot(project.root, { DEBUG: 'true', FW_CHECK_FRONTEND: 'false', FW_BUILD_FRONTEND: 'false' });
  clientModule = (await import(pathToFileURL(path.join(project.root, 'fluid/frontend/src/auth-client.ts')).href)) as AuthClientModule;
});
afterAll(async () => {
  await app?.close();
  await project?.remove();
});

/** A fetch keeping cookies like a browser tab (through the test client's jar). */
function browserFetch(): typeof fetch {
  const jar = new Client(app.url);
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    return jar.request(init.method ?? 'GET', url.pathname + url.search, {
      headers,
      ...(typeof init.body === 'string' ? { json: JSON.parse(init.body) as unknown } : {}),
    });
  }) as typeof fetch;
}

const PASSWORD = 'correct horse battery';

describe('the JSON API through the typed client', () => {
  it('is generated for the Vite surface', async () => {
    const index = await readFile(path.join(project.root, 'fluid/auth/index.ts'), 'utf8');
    expect(index).toContain('registerAuthApi(kit);');
  });

  it('signs up, verifies by mail, signs in and out', async () => {
    const auth = clientModule.createAuthClient({ baseUrl: app.url, fetch: browserFetch() });
    const email = 'ivy@example.test';
    await auth.signUp({ email, password: PASSWORD });
    const link = new URL(linkIn((await app.inbox.next(email)).text));
    expect((await new Client(app.url).page(link.pathname + link.search)).status).toBe(302);
    const signedIn = await auth.signIn({ email, password: PASSWORD });
    expect(signedIn).toMatchObject({ user: { email } });
    expect((await auth.session()).user).toMatchObject({ email, emailVerified: true, twoFactor: false });
    await auth.signOut();
    expect((await auth.session()).user).toBeNull();
  });

  it('refuses a wrong password with the generic message and a POST without the CSRF header', async () => {
    const auth = clientModule.createAuthClient({ baseUrl: app.url, fetch: browserFetch() });
    const error = await auth.signIn({ email: 'nobody@example.test', password: 'wrong password' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(clientModule.AuthApiError);
    expect(error).toMatchObject({ status: 422, message: 'The email address or password is not right.' });
    const raw = await fetch(`${app.url}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'x@example.test', password: PASSWORD }) });
    expect(raw.status).toBe(403);
  });

  it('signs in with a TOTP code after a password, and resets a password by mail', async () => {
    const email = 'jay@example.test';
    const page = new Client(app.url);
    await page.page('/sign-up');
    await page.post('/sign-up', { email, password: PASSWORD });
    const link = new URL(linkIn((await app.inbox.next(email)).text));
    await page.page(link.pathname + link.search);
    await page.page('/sign-in');
    await page.post('/sign-in', { email, password: PASSWORD });
    const enrol = await page.page('/account/two-factor');
    const secret = /id="totp-secret">([A-Z2-7]+)</.exec(enrol.html)![1]!;
    expect((await page.post('/account/two-factor', { code: await generate({ secret }) })).status).toBe(200);

    const auth = clientModule.createAuthClient({ baseUrl: app.url, fetch: browserFetch() });
    expect(await auth.signIn({ email, password: PASSWORD })).toMatchObject({ twoFactorRequired: true });
    expect((await auth.session()).user).toBeNull();
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    expect(await auth.twoFactor({ code })).toMatchObject({ user: { email } });
    expect((await auth.session()).user).toMatchObject({ email, twoFactor: true });

    const other = clientModule.createAuthClient({ baseUrl: app.url, fetch: browserFetch() });
    await other.forgotPassword({ email });
    const token = new URL(linkIn((await app.inbox.next(email)).text)).searchParams.get('token')!;
    await other.resetPassword({ token, password: 'a brand new password' });
    // The reset ended every session, the one that signed in with the code too.
    expect((await auth.session()).user).toBeNull();
    const again = await other.resetPassword({ token, password: 'another new password' }).catch((e: unknown) => e);
    expect(again).toMatchObject({ status: 422 });
  });
});
