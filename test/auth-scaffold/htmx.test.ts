/**
 * The auth scaffold on an htmx app, end to end: `fw create auth` on a new project, the Prisma
 * migration (SQLite), the app booted with a real SMTP server. Headless Chromium signs up, follows
 * the verification mail, meets a verified-only page before and after, enrols TOTP from the QR
 * page's key, signs out and in with a code and with a recovery code. Over HTTP: reset, remember-me
 * and the attack cases (tokens, TOTP replay, brute force, enumeration, CSRF, open redirects).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { generate } from 'otplib';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { REPO_ROOT } from '../support/prisma.js';
import { boot, Client, linkIn, migrate, scaffoldProject, type RunningApp, type ScaffoldProject } from './app.js';

let project: ScaffoldProject;
let app: RunningApp;
let browser: BrowserContext;

const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  project = await scaffoldProject();
  await migrate(project.root);
  [app, browser] = await Promise.all([boot(project.root), launchBrowser()]);
});
afterAll(async () => {
  await Promise.all([app?.close(), browser?.close()]);
  await project?.remove();
});

/** Signs up `email` over HTTP and follows the verification link; returns a fresh client. */
async function verifiedUser(email: string, password = PASSWORD): Promise<Client> {
  const client = new Client(app.url);
  await client.page('/sign-up');
  expect((await client.post('/sign-up', { email, password })).status).toBe(200);
  const mail = await app.inbox.next(email);
  const verified = await client.page(new URL(linkIn(mail.text)).pathname + new URL(linkIn(mail.text)).search);
  expect(verified.location).toBe('/sign-in?notice=verified');
  return client;
}

async function signIn(client: Client, email: string, password = PASSWORD, extra: Record<string, string> = {}) {
  await client.page('/sign-in');
  return client.post('/sign-in', { email, password, ...extra });
}

/** With FW_DOC_SCREENSHOTS=1, saves the page as docs/images/<name>.png (docs/auth-scaffold.md shows them). */
async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.FW_DOC_SCREENSHOTS !== '1') return;
  await page.setViewportSize({ width: 800, height: 600 });
  await page.screenshot({ path: path.join(REPO_ROOT, 'docs/images', `${name}.png`) });
}

async function submit(page: Page, fields: Record<string, string>, button: string): Promise<void> {
  for (const [name, value] of Object.entries(fields)) await page.fill(`input[name="${name}"]`, value);
  await Promise.all([page.waitForNavigation(), page.click(`button:has-text("${button}")`)]);
}

describe('the generated files', () => {
  it('type-check under the project tsconfig and install the scaffold in fluid/app.ts', async () => {
    const appFile = await readFile(path.join(project.root, 'fluid/app.ts'), 'utf8');
    expect(appFile).toContain("import { installAuthScaffold } from './auth/index.js';");
    expect(appFile).toContain('installAuthScaffold(fluid);');
    const pkg = JSON.parse(await readFile(path.join(project.root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies).toMatchObject({ '@node-rs/argon2': '2.2.1', otplib: '13.5.0', qrcode: '1.5.4', '@prisma/adapter-libsql': '7.10.0' });
    const schema = await readFile(path.join(project.root, 'prisma/main/schema.prisma'), 'utf8');
    expect(schema).toContain('model AuthToken');
    expect(schema).not.toContain('model Session');
  });
});

describe('Chromium: sign up, verify, two-factor', () => {
  const email = 'ann@example.test';
  let secret = '';
  let recovery: string[] = [];

  it('signs up, gets the mail, follows its link and signs in; the verified-only page refuses, then allows', async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/sign-up`);
    await screenshot(page, 'auth-sign-up');
    await submit(page, { email, password: PASSWORD }, 'Create account');
    expect(await page.textContent('h1')).toBe('Check your inbox');
    const mail = await app.inbox.next(email);
    expect(mail.subject).toBe('Confirm your email address');
    expect(mail.html).toContain('Confirm my address');

    // Before verification: sign in works (requireUser), the verified-only page does not.
    await page.goto(`${app.url}/sign-in`);
    await submit(page, { email, password: PASSWORD }, 'Sign in');
    const refused = await page.goto(`${app.url}/account/two-factor`);
    expect(refused!.status()).toBe(401);
    expect(await page.content()).toContain('E-mail address not verified');
    await screenshot(page, 'auth-not-verified');

    await page.goto(linkIn(mail.text));
    expect(new URL(page.url()).pathname).toBe('/account');
    expect(await page.textContent('.notice')).toBe('Your address is verified.');
    const allowed = await page.goto(`${app.url}/account/two-factor`);
    expect(allowed!.status()).toBe(200);
    expect(await page.getAttribute('img[alt^="QR code"]', 'src')).toMatch(/^data:image\/png;base64,/);
    secret = (await page.textContent('#totp-secret'))!;
    await screenshot(page, 'auth-two-factor-enrol');

    // Enrol: a wrong code is refused, the right one turns 2FA on and shows recovery codes once.
    await submit(page, { code: '000000' }, 'Turn on');
    expect(await page.textContent('.error')).toBe('That code is not right.');
    secret = (await page.textContent('#totp-secret'))!;
    await submit(page, { code: await generate({ secret }) }, 'Turn on');
    recovery = await page.locator('.recovery-codes code').allTextContents();
    expect(recovery).toHaveLength(10);
    await screenshot(page, 'auth-recovery-codes');
    await page.close();
  });

  it('signs out, then in with a TOTP code; the same code is refused a second time', async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/account`);
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Sign out")')]);
    await page.goto(`${app.url}/account`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');

    await submit(page, { email, password: PASSWORD }, 'Sign in');
    expect(new URL(page.url()).pathname).toBe('/sign-in/two-factor');
    await screenshot(page, 'auth-two-factor-challenge');
    // The next time step's code: the enrolment used this step's (one step of drift is accepted).
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    await submit(page, { code }, 'Sign in');
    expect(new URL(page.url()).pathname).toBe('/account');

    // Replay: another browser, right password, the same code.
    const client = new Client(app.url);
    expect((await signIn(client, email)).location).toBe('/sign-in/two-factor');
    await client.page('/sign-in/two-factor');
    const replay = await client.post('/sign-in/two-factor', { code });
    expect(replay.status).toBe(422);
    expect(replay.html).toContain('Codes work once');
    await page.close();
  });

  it('signs in with a recovery code, which then stops working', async () => {
    const client = new Client(app.url);
    expect((await signIn(client, email)).location).toBe('/sign-in/two-factor');
    await client.page('/sign-in/two-factor');
    const used = await client.post('/sign-in/two-factor', { recovery: recovery[0]! });
    expect(used.location).toBe('/');
    expect((await client.page('/account')).status).toBe(200);

    const again = new Client(app.url);
    await signIn(again, email);
    await again.page('/sign-in/two-factor');
    const refused = await again.post('/sign-in/two-factor', { recovery: recovery[0]! });
    expect(refused.status).toBe(422);
    expect((await again.post('/sign-in/two-factor', { recovery: recovery[1]! })).location).toBe('/');

    // Turning it off needs the password (this account's sign-in limit is used up here: 5/minute).
    await again.page('/account/two-factor');
    expect((await again.post('/account/two-factor/disable', { current: 'not it at all' })).status).toBe(422);
    expect((await again.post('/account/two-factor/disable', { current: PASSWORD })).location).toBe('/account?notice=two-factor-off');
    expect((await again.page('/account?notice=two-factor-off')).html).toMatch(/Two-factor authentication is off\.[\s\S]*<p>Off\./);
  });
});

describe('password reset', () => {
  it('forgot → mail → reset: the old password is refused and old sessions are gone', async () => {
    const email = 'bob@example.test';
    const first = await verifiedUser(email);
    expect((await signIn(first, email)).location).toBe('/');
    expect((await first.page('/account')).status).toBe(200);

    const other = new Client(app.url);
    await other.page('/forgot-password');
    const asked = await other.post('/forgot-password', { email });
    expect(asked.html).toContain('If an account uses bob@example.test');
    const mail = await app.inbox.next(email);
    expect(mail.subject).toBe('Reset your password');
    const link = new URL(linkIn(mail.text));
    await other.page(link.pathname + link.search);
    const token = link.searchParams.get('token')!;
    expect((await other.post('/reset-password', { token, password: 'a new password 1' })).location).toBe('/sign-in?notice=reset');

    // The first session is signed out; the old password fails; the new one works.
    expect((await first.page('/account')).location).toMatch(/^\/sign-in\?redirect=/);
    expect((await first.page('/sign-in')).status).toBe(200);
    expect((await signIn(new Client(app.url), email)).status).toBe(422);
    expect((await signIn(new Client(app.url), email, 'a new password 1')).location).toBe('/');
    // The token is single-use.
    const reused = await other.post('/reset-password', { token, password: 'another password 2' });
    expect(reused.status).toBe(422);
    // The page says why (a 400 was replaced by the styled "Bad Request" page for HTML clients).
    expect(reused.html).toContain('This reset link is invalid, expired or already used.');
  });

  it('remember-me signs a new session in once per token, and a password change ends it', async () => {
    const email = 'cy@example.test';
    const client = await verifiedUser(email);
    await signIn(client, email, PASSWORD, { remember: 'on' });
    const remembered = client.cookies.get('fw.remember');
    expect(remembered).toBeTruthy();
    // A new browser session with only the remember-me cookie (and its signature).
    const later = new Client(app.url);
    later.cookies.set('fw.remember', remembered!);
    later.cookies.set('fw.remember.sig', client.cookies.get('fw.remember.sig')!);
    expect((await later.page('/account')).status).toBe(200);
    // The used token does not work again (the cookie was replaced with a new one).
    const thief = new Client(app.url);
    thief.cookies.set('fw.remember', remembered!);
    thief.cookies.set('fw.remember.sig', client.cookies.get('fw.remember.sig')!);
    expect((await thief.page('/account')).status).toBe(302);

    // Changing the password ends the other sessions and the remember-me tokens.
    await client.page('/account');
    expect((await client.post('/account/password', { current: PASSWORD, password: 'changed password 3' })).location).toBe('/account?notice=password');
    expect((await client.page('/account')).status).toBe(200);
    const stale = new Client(app.url);
    stale.cookies.set('fw.remember', later.cookies.get('fw.remember')!);
    stale.cookies.set('fw.remember.sig', later.cookies.get('fw.remember.sig')!);
    expect((await stale.page('/account')).status).toBe(302);
    expect((await later.page('/account')).status).toBe(302);
  });
});

describe('change of email', () => {
  it('mails a link to the new address; the address changes, verified, when it is followed', async () => {
    const client = await verifiedUser('kim@example.test');
    await signIn(client, 'kim@example.test');
    await client.page('/account');
    expect((await client.post('/account/email', { email: 'kim@new.example', current: 'wrong password!' })).status).toBe(422);
    expect((await client.post('/account/email', { email: 'kim@new.example', current: PASSWORD })).location).toBe('/account?notice=email');
    const link = new URL(linkIn((await app.inbox.next('kim@new.example')).text));
    expect((await client.page(link.pathname + link.search)).location).toBe('/account?notice=verified');
    expect((await client.page('/account')).html).toContain('Signed in as <strong>kim@new.example</strong>.');
    expect((await signIn(new Client(app.url), 'kim@new.example')).location).toBe('/');
  });
});

describe('attacks', () => {
  it('expired, reused and tampered verification tokens are refused', async () => {
    const email = 'dee@example.test';
    const client = new Client(app.url);
    await client.page('/sign-up');
    await client.post('/sign-up', { email, password: PASSWORD });
    const link = new URL(linkIn((await app.inbox.next(email)).text));
    const token = link.searchParams.get('token')!;
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    // Refused links answer 422 with the scaffold's "Link not valid" page (a 400 was replaced by
    // the kernel's styled "Bad Request" page for HTML clients, hiding why).
    const notValid = (answer: { status: number; html: string }) => {
      expect(answer.status).toBe(422);
      expect(answer.html).toContain('Link not valid');
    };
    notValid(await client.page(`/verify?token=${tampered}`));
    expect((await client.page(`/verify?token=${token}`)).status).toBe(302);
    notValid(await client.page(`/verify?token=${token}`));
    notValid(await client.page('/verify?token=%00'));
    // Expired: a reset token whose expiry has passed (the database clock moved for it).
    await signIn(client, email);
    const { createClient } = await import('@libsql/client');
    await client.page('/forgot-password');
    await client.post('/forgot-password', { email });
    const reset = new URL(linkIn((await app.inbox.next(email)).text)).searchParams.get('token')!;
    const sqlite = createClient({ url: `file:${path.join(project.root, 'var/main.db')}` });
    await sqlite.execute("UPDATE AuthToken SET expiresAt = 0 WHERE purpose = 'reset'");
    sqlite.close();
    await client.page('/reset-password');
    const expired = await client.post('/reset-password', { token: reset, password: 'whatever password' });
    expect(expired.status).toBe(422);
    expect(expired.html).toContain('This reset link is invalid, expired or already used.');
  });

  it('brute force on one account gets 429 with the same generic message before it', async () => {
    const email = 'eve@example.test';
    await verifiedUser(email);
    const client = new Client(app.url);
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await signIn(client, email, `wrong password ${i}`);
      answers.push(r.status);
      if (r.status === 422) expect(r.html).toContain('The email address or password is not right.');
    }
    expect(answers).toEqual([422, 422, 422, 422, 422, 429]);
    // The right password is refused too while the limit holds.
    expect((await signIn(client, email)).status).toBe(429);
  });

  it('answers known and unknown addresses alike (sign-in, sign-up, forgot)', async () => {
    const known = 'fay@example.test';
    await verifiedUser(known);
    const strip = (html: string) => html.replace(/value="[^"]*"/g, '').replaceAll(known, 'X').replaceAll('nobody@example.test', 'X');
    const ask = async (pathname: string, form: Record<string, string>) => {
      const client = new Client(app.url);
      await client.page(pathname);
      const r = await client.post(pathname, form);
      return { status: r.status, html: strip(r.html) };
    };
    for (const [pathname, form] of [
      ['/sign-in', { password: 'not the password' }],
      ['/forgot-password', {}],
      ['/sign-up', { password: PASSWORD }],
    ] as const) {
      const a = await ask(pathname, { email: known, ...form });
      const b = await ask(pathname, { email: 'nobody@example.test', ...form });
      expect(a, pathname).toEqual(b);
    }
    // The known address is told by mail that someone tried to sign up with it.
    expect((await app.inbox.next(known)).subject).toBe('Reset your password');
    expect((await app.inbox.next(known)).subject).toBe('You already have an account');
  });

  it('refuses forms without a CSRF token or with another visitor’s', async () => {
    const client = new Client(app.url);
    await client.page('/sign-in');
    const missing = await client.request('POST', '/sign-in', { form: { email: 'x@example.test', password: PASSWORD } });
    expect(missing.status).toBe(403);
    const stranger = new Client(app.url);
    await stranger.page('/sign-in');
    const wrong = await client.request('POST', '/sign-in', { form: { csrf_token: stranger.csrf, email: 'x@example.test', password: PASSWORD } });
    expect(wrong.status).toBe(403);
  });

  it('sends ?redirect= through the sanitiser: same-site paths only', async () => {
    const email = 'gus@example.test';
    await verifiedUser(email);
    for (const [target, expected] of [
      ['/account', '/account'],
      ['https://evil.example/', '/'],
      ['//evil.example/', '/'],
      ['/\\evil.example', '/'],
    ] as const) {
      const client = new Client(app.url);
      const form = await client.page(`/sign-in?redirect=${encodeURIComponent(target)}`);
      expect(form.status).toBe(200);
      const done = await client.post('/sign-in', { email, password: PASSWORD, redirect: target });
      expect(done.location, target).toBe(expected);
    }
  });

  it('rotates the session id at sign-in', async () => {
    const email = 'hal@example.test';
    await verifiedUser(email);
    const client = new Client(app.url);
    await client.page('/sign-in');
    client.cookies.set('fw.sid', 'planted');
    await client.post('/sign-in', { email, password: PASSWORD });
    expect(client.cookies.get('fw.sid')).not.toBe('planted');
    expect((await client.page('/account')).status).toBe(200);
  });

  // Last in this file: it stops the mail server.
  it('answers alike while the mail server is down: no 500 that tells a known address from an unknown one', async () => {
    const known = 'ivy@example.test';
    await verifiedUser(known);
    await app.inbox.close(); // nothing listens on MAIL_PORT any more: every send is refused
    const ask = async (pathname: string, form: Record<string, string>) => {
      const client = new Client(app.url);
      await client.page(pathname);
      const r = await client.post(pathname, form);
      return { status: r.status, html: r.html.replace(/value="[^"]*"/g, '').replaceAll(known, 'X').replaceAll('nobody@example.test', 'X') };
    };
    for (const [pathname, form] of [
      ['/forgot-password', {}],
      ['/sign-up', { password: PASSWORD }],
    ] as const) {
      const a = await ask(pathname, { email: known, ...form });
      expect(a.status, pathname).toBe(200);
      expect(a, pathname).toEqual(await ask(pathname, { email: 'nobody@example.test', ...form }));
    }
  });
});
