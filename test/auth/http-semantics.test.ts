/**
 * HTTP semantics with auth installed: every 401 carries `WWW-Authenticate` (guards, JSON and the
 * styled page, a bad token, a token whose user was deleted), and an unsafe method on a route that
 * does not take it answers 405 with `Allow` before the CSRF check could answer 403 (and before the
 * body parser could answer 413 or 400).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fluid } from '@fw/kernel';
import { EmailVerifiedGate, require2fa, requireUser, requirementOrGrant, type Auth } from '@fw/kernel/auth';
import { cleanupProjects, start } from '../kernel/helpers.js';
import { authApp, Client, testUsers, USERS, type TestUser } from './helpers.js';

let fluid: Fluid;
let auth: Auth<TestUser>;
let base: string;
const deleted = new Set<string>();

beforeAll(async () => {
  const users = testUsers();
  const find = users.findById.bind(users);
  users.findById = (id) => (deleted.has(id) ? undefined : find(id));
  ({ fluid, auth } = authApp({}, undefined, { users }));
  fluid.app.get('me', '/me', requireUser, () => ({ ok: true }));
  fluid.app.get('verified', '/verified', EmailVerifiedGate, () => ({ ok: true }));
  fluid.app.get('twofa', '/twofa', require2fa, () => ({ ok: true }));
  fluid.api.get('read', '/read', requirementOrGrant(EmailVerifiedGate, 'posts:read'), () => ({ ok: true }));
  fluid.app.get('page', '/page', () => 'a page');
  fluid.api.get('items', '/items', () => []);
  fluid.api.put('item', '/items/:id', () => ({ put: true }));
  base = await start(fluid);
});
afterAll(async () => {
  await fluid?.close();
  cleanupProjects();
});

const JSON_ACCEPT = { Accept: 'application/json' };
const HTML_ACCEPT = { Accept: 'text/html' };
const realm = () => `Bearer realm="${fluid.name}"`;

describe('every 401 carries WWW-Authenticate', () => {
  it('NOT_AUTHENTICATED as JSON and as the styled page', async () => {
    const json = await fetch(`${base}/me`, { headers: JSON_ACCEPT });
    expect([json.status, ((await json.json()) as { code: string }).code]).toEqual([401, 'NOT_AUTHENTICATED']);
    expect(json.headers.get('www-authenticate')).toBe(realm());
    const page = await fetch(`${base}/me`, { headers: HTML_ACCEPT });
    expect(page.status).toBe(401);
    expect(await page.text()).toContain('<p class="fw-status">401</p>');
    expect(page.headers.get('www-authenticate')).toBe(realm());
  });

  it('EMAIL_NOT_VERIFIED and TWO_FACTOR_REQUIRED', async () => {
    const unverified = new Client(base);
    await unverified.signIn(USERS.unverified!);
    const a = await unverified.fetch('/verified', { headers: JSON_ACCEPT });
    expect([a.status, ((await a.json()) as { code: string }).code, a.headers.get('www-authenticate')]).toEqual([401, 'EMAIL_NOT_VERIFIED', realm()]);
    const verified = new Client(base);
    await verified.signIn(USERS.verified!);
    const b = await verified.fetch('/twofa', { headers: JSON_ACCEPT });
    expect([b.status, ((await b.json()) as { code: string }).code, b.headers.get('www-authenticate')]).toEqual([401, 'TWO_FACTOR_REQUIRED', realm()]);
  });

  it('a bad token, and a valid token whose user was deleted, are 401 INVALID_TOKEN with the bearer challenge', async () => {
    const bad = await fetch(`${base}/api/read`, { headers: { Authorization: 'Bearer a.b.c' } });
    expect([bad.status, bad.headers.get('www-authenticate')]).toEqual([401, 'Bearer error="invalid_token"']);
    const user = { ...USERS.verified!, id: 3 };
    const token = await auth.mintToken(user, ['posts:read'], 600);
    expect((await fetch(`${base}/api/read`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    deleted.add('3');
    try {
      const gone = await fetch(`${base}/api/read`, { headers: { Authorization: `Bearer ${token}` } });
      expect(gone.status).toBe(401);
      expect(((await gone.json()) as { code: string }).code).toBe('INVALID_TOKEN');
      expect(gone.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    } finally {
      deleted.delete('3');
    }
  });
});

describe('405 is decided before CSRF', () => {
  it('an unsafe method on a GET-only route answers 405 with Allow (JSON, page, API), not 403 INVALID_CSRF', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const json = await fetch(`${base}/page`, { method, headers: JSON_ACCEPT });
      expect(json.status, method).toBe(405);
      expect(json.headers.get('allow')).toBe('HEAD, GET');
      expect(await json.json()).toEqual({ error: 'Method Not Allowed' });
    }
    const page = await fetch(`${base}/page`, { method: 'POST', headers: HTML_ACCEPT });
    expect(page.status).toBe(405);
    expect(page.headers.get('allow')).toBe('HEAD, GET');
    expect(await page.text()).toContain('<p class="fw-status">405</p>');
    const api = await fetch(`${base}/api/items`, { method: 'POST' });
    expect([api.status, api.headers.get('allow')]).toEqual([405, 'HEAD, GET']);
  });

  it('a body over every limit, or malformed, to a route that does not take the method is 405, not 413 or 400', async () => {
    const big = await fetch(`${base}/page`, {
      method: 'POST',
      headers: { ...JSON_ACCEPT, 'Content-Type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect([big.status, big.headers.get('allow')]).toEqual([405, 'HEAD, GET']);
    const form = await fetch(`${base}/api/items/1`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `csrf_token=${'y'.repeat(200 * 1024)}`,
    });
    expect([form.status, form.headers.get('allow')]).toEqual([405, 'PUT']);
    const malformed = await fetch(`${base}/api/items/1`, { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: '{' });
    expect([malformed.status, malformed.headers.get('allow')]).toEqual([405, 'PUT']);
  });

  it('a method the route does take still needs its CSRF token; OPTIONS still lists the methods', async () => {
    const put = await fetch(`${base}/api/items/1`, { method: 'PUT', headers: JSON_ACCEPT });
    expect([put.status, ((await put.json()) as { code: string }).code]).toEqual([403, 'INVALID_CSRF']);
    const wrong = await fetch(`${base}/api/items/1`, { method: 'POST', headers: JSON_ACCEPT });
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'PUT']);
    const options = await fetch(`${base}/api/items/1`, { method: 'OPTIONS' });
    expect([options.status, options.headers.get('allow')]).toEqual([204, 'PUT']);
  });
});
