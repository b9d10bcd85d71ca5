import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Additive, HttpError, type Fluid } from '@fw/kernel';
import { STYLED_STATUSES, type BufferedResponse } from '@fw/kernel/core';
import { cleanupProjects, makeFluid, makeProject, start, type ProjectSpec } from './helpers.js';

const open: Fluid[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((f) => f.close()));
});
afterAll(cleanupProjects);

function app(spec: ProjectSpec = {}): Fluid {
  const f = makeFluid(spec);
  open.push(f);
  return f;
}
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const STATUSES = [400, 401, 403, 404, 405, 413, 429, 500, 502, 503];

describe('styled error pages (FW_PROCESSING on by default)', () => {
  it('covers exactly the reference statuses', () => {
    expect([...STYLED_STATUSES].sort()).toEqual(STATUSES);
  });

  it.each(STATUSES)('serves errors/%i.html to an HTML client, JSON to others', async (status) => {
    const f = app();
    f.app.get('fail', '/fail', () => {
      throw new HttpError(status, 'Nope <script>');
    });
    const url = await start(f);
    const html = await fetch(`${url}/fail`, { headers: HTML });
    expect(html.status).toBe(status);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await html.text();
    expect(page).toContain(`<p class="fw-status">${status}</p>`);
    expect(page).not.toContain('<script>');
    const json = await fetch(`${url}/fail`, { headers: { accept: 'application/json' } });
    expect(json.status).toBe(status);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await json.json()).toEqual({ error: status >= 500 ? expect.any(String) : 'Nope <script>' });
  });

  it('styles unmatched paths (404) and wrong methods (405) for HTML clients', async () => {
    const f = app();
    f.app.post('only-post', '/form', () => 'ok');
    const url = await start(f);
    const missing = await fetch(`${url}/nowhere`, { headers: HTML });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('<p class="fw-status">404</p>');
    const wrong = await fetch(`${url}/form`, { headers: HTML });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toContain('POST');
    expect(await wrong.text()).toContain('<p class="fw-status">405</p>');
  });

  it('negotiates each Accept value on its own, however often and in whatever order they come', async () => {
    const url = await start(app());
    // Each value's answer is remembered: an answer kept under the wrong value would show here.
    const kinds = ['text/html', 'application/json', 'text/html;q=0.5, application/json', 'application/json;q=0.1, text/html', 'image/png', '*/*'];
    const expected = ['page', 'json', 'json', 'page', 'text', 'json'];
    for (const round of [0, 1, 2]) {
      const got: string[] = [];
      for (const accept of round === 1 ? [...kinds].reverse() : kinds) {
        const res = await fetch(`${url}/nowhere`, { headers: { accept } });
        const type = res.headers.get('content-type') ?? '';
        const body = await res.text();
        got.push(type.startsWith('text/html') && body.includes('fw-status') ? 'page' : type.startsWith('application/json') ? 'json' : 'text');
      }
      expect(got).toEqual(round === 1 ? [...expected].reverse() : expected);
    }
    const none = await fetch(`${url}/nowhere`, { headers: { accept: '' } });
    expect(none.headers.get('content-type')).not.toMatch(/^text\/html/);
  });

  it('leaves JSON responses and other statuses untouched', async () => {
    const f = app();
    f.app.get('json404', '/json404', (ctx) => {
      ctx.status = 404;
      ctx.set('X-Custom', 'kept');
      return { missing: true };
    });
    f.app.get('teapot', '/teapot', (ctx) => {
      ctx.status = 418;
      return 'short and stout';
    });
    f.app.get('conflict', '/conflict', () => {
      throw new HttpError(409, 'Already there');
    });
    const url = await start(f);
    const j = await fetch(`${url}/json404`, { headers: HTML });
    expect([j.status, j.headers.get('x-custom'), await j.json()]).toEqual([404, 'kept', { missing: true }]);
    const t = await fetch(`${url}/teapot`, { headers: HTML });
    expect([t.status, await t.text()]).toEqual([418, 'short and stout']);
    const c = await fetch(`${url}/conflict`, { headers: HTML });
    expect([c.status, await c.text()]).toEqual([409, 'Already there']);
  });

  it('keeps WWW-Authenticate, Retry-After and Set-Cookie on the styled page, drops the rest', async () => {
    const f = app();
    f.app.get('auth', '/auth', (ctx) => {
      ctx.cookies.set('session', '', { expires: new Date(0) });
      ctx.set('X-Debug', 'dropped');
      throw new HttpError(401, 'Sign in', { headers: { 'WWW-Authenticate': 'Bearer realm="fw"' } });
    });
    f.app.get('slow', '/slow', (ctx) => {
      ctx.status = 429;
      ctx.set('Retry-After', '30');
      ctx.body = 'Too many';
    });
    const url = await start(f);
    const a = await fetch(`${url}/auth`, { headers: HTML });
    expect(a.status).toBe(401);
    expect(a.headers.get('www-authenticate')).toBe('Bearer realm="fw"');
    expect(a.headers.get('set-cookie')).toMatch(/^session=;/);
    expect(a.headers.get('x-debug')).toBeNull();
    expect(await a.text()).toContain('<p class="fw-status">401</p>');
    const s = await fetch(`${url}/slow`, { headers: HTML });
    expect([s.status, s.headers.get('retry-after')]).toEqual([429, '30']);
    expect(await s.text()).toContain('Too many');
  });

  it('uses the app override of a page, and an Additive page when the app has none', async () => {
    const addRoot = makeProject({ files: { 'templates/errors/403.html': '<h1>blog says {{status}}</h1>', 'templates/errors/404.html': 'blog 404' } });
    const f = app({ files: { 'fluid/templates/errors/404.html': '<h1>custom {{status}}: {{message}}</h1>' } });
    f.additive(new Additive('blog', { root: addRoot }));
    f.app.get('deny', '/deny', () => {
      throw new HttpError(403);
    });
    const url = await start(f);
    expect(await (await fetch(`${url}/missing`, { headers: HTML })).text()).toBe('<h1>custom 404: Not Found</h1>');
    expect(await (await fetch(`${url}/deny`, { headers: HTML })).text()).toBe('<h1>blog says 403</h1>');
  });

  it('reuses a rendered page only while it would render the same: per message, and until the templates change', async () => {
    const f = app({ files: { 'fluid/templates/errors/404.html': '<h1>v1 {{message}}</h1>' } });
    f.app.get('gone', '/gone/:what', (ctx) => {
      ctx.status = 404;
      ctx.type = 'text/plain';
      return `no ${ctx.params.what}`;
    });
    const url = await start(f);
    const page = async (path: string) => (await fetch(url + path, { headers: HTML })).text();
    expect(await page('/missing')).toBe('<h1>v1 Not Found</h1>');
    expect(await page('/gone/cat')).toBe('<h1>v1 no cat</h1>');
    expect(await page('/gone/dog')).toBe('<h1>v1 no dog</h1>');
    writeFileSync(join(f.root, 'fluid/templates/errors/404.html'), '<h1>v2 {{message}}</h1>');
    expect(await page('/missing')).toBe('<h1>v1 Not Found</h1>'); // production: templates are read once
    f.templates.clear(); // what a reload does
    expect(await page('/missing')).toBe('<h1>v2 Not Found</h1>');
    f.templates.registerHelper('shout', (s: unknown) => String(s).toUpperCase());
    writeFileSync(join(f.root, 'fluid/templates/errors/404.html'), '<h1>v3 {{shout message}}</h1>');
    f.templates.clear();
    expect(await page('/gone/cat')).toBe('<h1>v3 NO CAT</h1>');
  });

  it('renders afresh in debug, where templates reload: a hand edit shows on the next 404', async () => {
    const f = app({ config: { DEBUG: true }, files: { 'fluid/templates/errors/404.html': '<h1>before</h1>' } });
    const url = await start(f);
    expect(await (await fetch(`${url}/missing`, { headers: HTML })).text()).toMatch(/^<h1>before<\/h1>/); // (debug adds the live-reload script)
    const file = join(f.root, 'fluid/templates/errors/404.html');
    writeFileSync(file, '<h1>after</h1>');
    utimesSync(file, new Date(), new Date(Date.now() + 5000)); // a distinct mtime even on a coarse clock
    expect(await (await fetch(`${url}/missing`, { headers: HTML })).text()).toMatch(/^<h1>after<\/h1>/);
  });

  it('restyles every status at once through an app errors/page.html, while a per-status override still wins', async () => {
    const f = app({
      files: {
        'fluid/templates/errors/page.html': '<main class="mine">{{status}} {{title}}</main>',
        'fluid/templates/errors/405.html': 'only 405',
      },
    });
    f.app.get('deny', '/deny', () => {
      throw new HttpError(403);
    });
    const url = await start(f);
    expect(await (await fetch(`${url}/missing`, { headers: HTML })).text()).toBe('<main class="mine">404 Not Found</main>');
    expect(await (await fetch(`${url}/deny`, { headers: HTML })).text()).toBe('<main class="mine">403 Forbidden</main>');
    expect(await (await fetch(`${url}/deny`, { method: 'POST', headers: HTML })).text()).toBe('only 405');
  });

  it('is off with FW_PROCESSING false', async () => {
    const f = app({ config: { FW_PROCESSING: false } });
    const url = await start(f);
    const r = await fetch(`${url}/missing`, { headers: HTML });
    expect(r.status).toBe(404);
    expect(await r.text()).toBe('Not Found');
  });
});

describe('uncaught errors', () => {
  it('answers 500 without the stack, logs it, and gives API callers { error, code }', async () => {
    const f = app();
    f.app.get('crash', '/crash', () => {
      throw new Error('secret internals');
    });
    f.api.get('coded', '/coded', () => {
      throw new HttpError(401, 'Verify your email', { code: 'EMAIL_NOT_VERIFIED' });
    });
    f.api.get('api-crash', '/crash', () => {
      throw new TypeError('db exploded');
    });
    const url = await start(f);
    const html = await fetch(`${url}/crash`, { headers: HTML });
    expect(html.status).toBe(500);
    const page = await html.text();
    expect(page).toContain('<p class="fw-status">500</p>');
    expect(page).not.toContain('secret internals');
    const api = await fetch(`${url}/api/crash`, { headers: HTML });
    expect([api.status, await api.json()]).toEqual([500, { error: 'Internal Server Error' }]);
    expect(await (await fetch(`${url}/api/coded`)).json()).toEqual({ error: 'Verify your email', code: 'EMAIL_NOT_VERIFIED' });
    const log = (f.logger as unknown as { lines: string[] }).lines.join('\n');
    expect(log).toContain('secret internals');
    expect(log).toContain('db exploded');
  });
});

describe('after-request processors', () => {
  it('see buffered bodies and may replace them; streams pass through unseen', async () => {
    const f = app({ config: { FW_PROCESSING: false } });
    const seen: Array<Pick<BufferedResponse, 'status' | 'body'>> = [];
    f.processor((res) => {
      seen.push({ status: res.status, body: res.body });
      if (typeof res.body === 'string' && res.body.includes('replace me')) {
        return { status: 200, body: 'replaced', type: 'text' };
      }
      return undefined;
    });
    f.app.get('buffered', '/buffered', () => 'hello');
    f.app.get('replace', '/replace', () => 'please replace me');
    f.app.get('stream', '/stream', () => Readable.from(['streamed ', 'body']));
    const url = await start(f);
    expect(await (await fetch(`${url}/buffered`)).text()).toBe('hello');
    expect(await (await fetch(`${url}/replace`)).text()).toBe('replaced');
    expect(await (await fetch(`${url}/stream`)).text()).toBe('streamed body');
    expect(seen).toEqual([
      { status: 200, body: 'hello' },
      { status: 200, body: 'please replace me' },
    ]);
  });

  it('a replacement keeps the headers its keepHeaders names (any case, even when the list changes) and gets its own type', async () => {
    const f = app({ config: { FW_PROCESSING: false } });
    const keep = ['X-One'];
    f.processor(() => ({ status: 200, body: '<b>not html</b>', type: 'text/plain', keepHeaders: keep }));
    f.app.get('home', '/', (ctx) => {
      ctx.set('X-One', '1');
      ctx.set('X-Two', '2');
      return 'original';
    });
    const url = await start(f);
    const first = await fetch(url);
    expect([first.headers.get('x-one'), first.headers.get('x-two'), first.headers.get('content-type'), await first.text()]).toEqual([
      '1',
      null,
      'text/plain; charset=utf-8',
      '<b>not html</b>',
    ]);
    keep.splice(0, 1, 'X-TWO'); // the same array, changed: the next replacement follows it
    const second = await fetch(url);
    expect([second.headers.get('x-one'), second.headers.get('x-two')]).toEqual([null, '2']);
  });

  it('a failing processor leaves the response as it was and is logged', async () => {
    const f = app({ config: { FW_PROCESSING: false } });
    f.processor(() => {
      throw new Error('processor broke');
    });
    f.app.get('home', '/', () => 'fine');
    const url = await start(f);
    expect(await (await fetch(url)).text()).toBe('fine');
    expect((f.logger as unknown as { lines: string[] }).lines.join('\n')).toContain('processor broke');
  });
});
