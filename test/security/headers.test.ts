/**
 * Security headers over real HTTP(S): on every kind of response, HSTS only over HTTPS (direct or
 * through a trusted proxy), every header changeable by its config key and per route, the CSP
 * nonce on demand, and bad values refused with the key named.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest, createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, HttpError, type Fluid } from '@fw/kernel';
import { installAuth } from '@fw/kernel/auth';
import { overrideSecurityHeaders, securityHeaders } from '@fw/kernel/security';
import { cleanupProjects, makeFluid, start, type ProjectSpec } from '../kernel/helpers.js';
import { testUsers } from '../auth/helpers.js';

const open: Fluid[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(open.map((f) => f.close()));
  cleanupProjects();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function app(spec: ProjectSpec = {}): Fluid {
  const f = makeFluid({
    ...spec,
    files: {
      'fluid/templates/page.html': '<!doctype html><html><head>{{frontend}}</head><body><script nonce="{{csp_nonce}}">window.ok = 1</script></body></html>',
      'fluid/templates/plain.html': '<!doctype html><p>no scripts</p>',
      'fluid/static/app.css': 'body{}',
      ...spec.files,
    },
  });
  open.push(f);
  f.app.get('page', '/page', (ctx) => ctx.render('page.html'));
  f.app.get('plain', '/plain', (ctx) => ctx.render('plain.html'));
  f.api.get('json', '/json', () => ({ ok: true }));
  f.app.get('boom', '/boom', () => {
    throw new Error('boom');
  });
  f.app.get('teapot', '/teapot', () => {
    throw new HttpError(418, 'short and stout');
  });
  return f;
}

const HTML = { accept: 'text/html' };
const CORE = ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy'];
const csp = (r: Response): string => r.headers.get('content-security-policy') ?? '';

describe('on every kind of response', () => {
  it("page, JSON, static file, styled error page, 404 (HTML and JSON), 405, another status and an app processor's replacement carry the headers", async () => {
    const f = app({ files: { 'fluid/static/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>' } });
    // A processor replacing the response keeps nothing of it but what it names, and the security headers.
    f.processor((res, ctx) => (ctx.path === '/replaced' ? { status: 200, body: 'replaced', type: 'text' } : undefined));
    // A route that writes its response itself, bypassing Koa's.
    f.app.get('raw', '/raw', (ctx) => {
      ctx.respond = false;
      ctx.res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      ctx.res.end('<!doctype html><p>raw</p>');
    });
    const base = await start(f);
    // [url, init, status, inert]: inert responses (JSON, CSS, plain text) get the short list.
    const cases: [string, RequestInit, number, boolean][] = [
      ['/page', { headers: HTML }, 200, false],
      ['/api/json', {}, 200, true],
      ['/static/app.css', {}, 200, true],
      ['/static/logo.svg', {}, 200, false],
      ['/fluid/static/vendor/htmx.min.js', {}, 200, false],
      ['/boom', { headers: HTML }, 500, false],
      ['/boom', { headers: { accept: 'application/json' } }, 500, true],
      ['/nowhere', { headers: HTML }, 404, false],
      ['/api/nowhere', {}, 404, true],
      ['/page', { method: 'DELETE', headers: HTML }, 405, false],
      ['/teapot', {}, 418, true],
      ['/replaced', {}, 200, true],
      ['/raw', {}, 200, false],
    ];
    for (const [url, init, status, inert] of cases) {
      const r = await fetch(base + url, init);
      await r.arrayBuffer();
      const what = `${url} (${status})`;
      expect(r.status, url).toBe(status);
      for (const name of CORE) expect(r.headers.get(name), `${name} on ${what}`).toBeTruthy();
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('x-frame-options')).toBe('DENY');
      expect(r.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(r.headers.get('cross-origin-resource-policy'), what).toBe('same-origin');
      expect(csp(r)).toContain("frame-ancestors 'none'");
      if (inert) {
        // Nothing may load from it, and the page-only headers would mean nothing on it.
        expect(csp(r), what).toBe("default-src 'none';frame-ancestors 'none'");
        for (const name of ['cross-origin-opener-policy', 'origin-agent-cluster', 'x-xss-protection']) expect(r.headers.get(name), `${name} on ${what}`).toBeNull();
      } else {
        expect(csp(r), what).toContain("default-src 'self'");
        expect(csp(r), what).toContain("object-src 'none'");
        expect(r.headers.get('cross-origin-opener-policy'), what).toBe('same-origin');
        expect(r.headers.get('origin-agent-cluster'), what).toBe('?1');
      }
      expect(csp(r), 'no unsafe script source by default').not.toMatch(/script-src[^;]*unsafe/);
      expect(csp(r), 'upgrade-insecure-requests only over HTTPS').not.toContain('upgrade-insecure-requests');
      expect(r.headers.get('strict-transport-security'), `no HSTS over plain HTTP (${url})`).toBeNull();
    }
  });

  it("a header the app set itself on the response is left as it is; the rest still go on", async () => {
    const f = app();
    f.app.get('open', '/open', (ctx) => {
      ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
      return ctx.render('plain.html');
    });
    const r = await fetch(`${await start(f)}/open`);
    expect(r.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(r.headers.get('x-frame-options')).toBe('DENY');
    expect(csp(r)).toContain("default-src 'self'");
  });

  it('a page gets a fresh nonce per response, the same in the header and in its tags; other responses get none', async () => {
    const f = app({ config: { APP_FRONTEND: { type: 'htmx', alpine: true } } });
    const base = await start(f);
    const nonces = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${base}/page`);
      const html = await r.text();
      const inHeader = /script-src 'self' 'nonce-([A-Za-z0-9_-]{22})'/.exec(csp(r))?.[1];
      expect(inHeader).toBeTruthy();
      expect(html).toContain(`<script nonce="${inHeader}">window.ok = 1</script>`);
      // the vendor tags are same-origin files 'self' allows: they need no nonce under the default policy
      expect(html).toContain('<script src="/fluid/static/vendor/htmx.min.js"></script>');
      nonces.add(inHeader!);
    }
    expect(nonces.size).toBe(3);
    expect(csp(await fetch(`${base}/plain`))).not.toContain('nonce-');
    expect(csp(await fetch(`${base}/api/json`))).not.toContain('nonce-');
  });

  it("with 'strict-dynamic' the kernel's own script tags carry the nonce too", async () => {
    const f = app({ config: { APP_FRONTEND: { type: 'htmx', alpine: true }, SECURITY_CSP: { 'script-src': ["'strict-dynamic'"] } } });
    const base = await start(f);
    const r = await fetch(`${base}/page`);
    const html = await r.text();
    const nonce = /'nonce-([A-Za-z0-9_-]{22})'/.exec(csp(r))?.[1];
    expect(csp(r)).toContain(`script-src 'strict-dynamic' 'nonce-${nonce}'`);
    expect(html).toContain(`<script nonce="${nonce}" src="/fluid/static/vendor/htmx.min.js"></script>`);
    expect(html).toContain(`<script nonce="${nonce}" defer src="/fluid/static/vendor/alpine.min.js"></script>`);
  });
});

describe('HSTS', () => {
  it('over HTTPS: HSTS and upgrade-insecure-requests; the same app over plain HTTP: neither', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fw-tls-'));
    dirs.push(dir);
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
    const cert = readFileSync(path.join(dir, 'cert.pem'));
    const f = app();
    await f.mix();
    const server: HttpsServer = createHttpsServer({ key: readFileSync(path.join(dir, 'key.pem')), cert }, f.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const headers = await new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
        httpsRequest({ host: '127.0.0.1', port, path: '/page', ca: cert }, (res) => {
          res.resume();
          resolve(res.headers);
        })
          .on('error', reject)
          .end();
      });
      expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(headers['content-security-policy']).toContain('upgrade-insecure-requests');
      const plain = await fetch(`${await start(f)}/page`);
      expect(plain.headers.get('strict-transport-security')).toBeNull();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('through a trusted proxy (PROXY_FIX) X-Forwarded-Proto: https turns it on; an untrusted peer cannot', async () => {
    const trusted = await start(app({ config: { PROXY_FIX: true, PROXY_TRUSTED_HOSTS: ['127.0.0.1'], SECURITY_HSTS_PRELOAD: true } }));
    const viaProxy = await fetch(`${trusted}/api/json`, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(viaProxy.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains; preload');
    expect((await fetch(`${trusted}/api/json`)).headers.get('strict-transport-security')).toBeNull();
    const untrusted = await start(app({ config: { PROXY_FIX: true, PROXY_TRUSTED_HOSTS: ['10.9.8.7'] } }));
    const spoofed = await fetch(`${untrusted}/api/json`, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(spoofed.headers.get('strict-transport-security')).toBeNull();
    const noFix = await start(app());
    expect((await fetch(`${noFix}/api/json`, { headers: { 'X-Forwarded-Proto': 'https' } })).headers.get('strict-transport-security')).toBeNull();
  });

  it("X-Forwarded-Proto appended to by the trusted proxy: the proxy's value counts, not the client's on the left", async () => {
    const base = await start(app({ config: { PROXY_FIX: true, PROXY_TRUSTED_HOSTS: ['loopback'] } }));
    const { port } = new URL(base);
    /** The HSTS header of a GET /api/json with these raw header lines. */
    const hsts = (lines: string): Promise<string | undefined> =>
      new Promise((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1');
        let data = '';
        socket.on('data', (d: Buffer) => (data += d.toString()));
        socket.on('error', reject);
        socket.on('close', () => resolve(/\r\nstrict-transport-security: ([^\r]*)/i.exec(data)?.[1]));
        socket.write(`GET /api/json HTTP/1.1\r\nHost: x\r\n${lines}Connection: close\r\n\r\n`);
      });
    const HSTS = 'max-age=31536000; includeSubDomains';
    // One proxy (the loopback peer) that appends: a second line, or after a comma.
    expect(await hsts('X-Forwarded-Proto: https\r\nX-Forwarded-Proto: http\r\n')).toBeUndefined();
    expect(await hsts('X-Forwarded-Proto: https, http\r\n')).toBeUndefined();
    expect(await hsts('X-Forwarded-Proto: http, https\r\n')).toBe(HSTS);
    expect(await hsts('X-Forwarded-Proto: https\r\n')).toBe(HSTS); // a proxy that replaces
    // Two trusted proxies (X-Forwarded-For names the inner one): the outer one's value, the first.
    expect(await hsts('X-Forwarded-For: 203.0.113.9, 127.0.0.2\r\nX-Forwarded-Proto: https, http\r\n')).toBe(HSTS);
    // The client forging a third value on the left changes nothing.
    expect(await hsts('X-Forwarded-For: 203.0.113.9, 127.0.0.2\r\nX-Forwarded-Proto: https, http, http\r\n')).toBeUndefined();
  });

  it('SECURITY_HSTS_MAX_AGE and SECURITY_HSTS_INCLUDE_SUBDOMAINS shape it; 0 sends none', async () => {
    const proxy = { PROXY_FIX: true, PROXY_TRUSTED_HOSTS: ['loopback'] };
    const https = { 'X-Forwarded-Proto': 'https' };
    const short = await start(app({ config: { ...proxy, SECURITY_HSTS_MAX_AGE: 600, SECURITY_HSTS_INCLUDE_SUBDOMAINS: false } }));
    expect((await fetch(`${short}/api/json`, { headers: https })).headers.get('strict-transport-security')).toBe('max-age=600');
    const none = await start(app({ config: { ...proxy, SECURITY_HSTS_MAX_AGE: 0 } }));
    expect((await fetch(`${none}/api/json`, { headers: https })).headers.get('strict-transport-security')).toBeNull();
  });
});

describe('every header is changeable', () => {
  it('by config: frame options, referrer policy, CSP directives and mode, any header, or all off', async () => {
    const sameOrigin = await fetch(`${await start(app({ config: { SECURITY_FRAME_OPTIONS: 'SAMEORIGIN' } }))}/api/json`);
    expect(sameOrigin.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(csp(sameOrigin)).toContain("frame-ancestors 'self'");
    const noFrame = await fetch(`${await start(app({ config: { SECURITY_FRAME_OPTIONS: 'off' } }))}/api/json`);
    expect(noFrame.headers.get('x-frame-options')).toBeNull();
    expect(csp(noFrame)).not.toContain('frame-ancestors');

    const referrer = await fetch(`${await start(app({ config: { SECURITY_REFERRER_POLICY: 'same-origin' } }))}/api/json`);
    expect(referrer.headers.get('referrer-policy')).toBe('same-origin');
    expect((await fetch(`${await start(app({ config: { SECURITY_REFERRER_POLICY: 'off' } }))}/api/json`)).headers.get('referrer-policy')).toBeNull();

    const policy = await fetch(`${await start(app({ config: { SECURITY_CSP: { 'img-src': ["'self'", 'https://img.example'], 'font-src': null, 'report-uri': ['/csp'] } } }))}/plain`);
    expect(csp(policy)).toContain("img-src 'self' https://img.example");
    expect(csp(policy)).not.toContain('font-src');
    expect(csp(policy)).toContain('report-uri /csp');

    const reportOnlyBase = await start(app({ config: { SECURITY_CSP_MODE: 'report-only' } }));
    const reportOnly = await fetch(`${reportOnlyBase}/plain`);
    expect(reportOnly.headers.get('content-security-policy')).toBeNull();
    expect(reportOnly.headers.get('content-security-policy-report-only')).toContain("default-src 'self'");
    expect((await fetch(`${reportOnlyBase}/api/json`)).headers.get('content-security-policy-report-only')).toBe("default-src 'none';frame-ancestors 'none'");
    const cspOff = await fetch(`${await start(app({ config: { SECURITY_CSP_MODE: 'off' } }))}/page`);
    expect(cspOff.headers.get('content-security-policy')).toBeNull();
    expect(await cspOff.text()).toContain('<script nonce="">'); // no policy: {{csp_nonce}} is empty
    expect(cspOff.headers.get('x-content-type-options')).toBe('nosniff');

    const overriddenBase = await start(
      app({ config: { SECURITY_HEADER_OVERRIDES: { 'Cross-Origin-Opener-Policy': 'same-origin-allow-popups', 'X-Content-Type-Options': null, 'Permissions-Policy': 'camera=()' } } }),
    );
    const overridden = await fetch(`${overriddenBase}/plain`);
    expect(overridden.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
    expect(overridden.headers.get('x-content-type-options')).toBeNull();
    expect(overridden.headers.get('permissions-policy')).toBe('camera=()');
    // An inert response gets the app's own extra headers and overrides too, not the page-only ones.
    const overriddenJson = await fetch(`${overriddenBase}/api/json`);
    expect(overriddenJson.headers.get('permissions-policy')).toBe('camera=()');
    expect(overriddenJson.headers.get('x-content-type-options')).toBeNull();
    expect(overriddenJson.headers.get('cross-origin-opener-policy')).toBeNull();

    const off = await fetch(`${await start(app({ config: { SECURITY_HEADERS: false } }))}/page`, { headers: HTML });
    for (const name of [...CORE, 'strict-transport-security', 'cross-origin-opener-policy']) expect(off.headers.get(name), name).toBeNull();
    expect(await off.text()).toContain('<script nonce="">');
  });

  it('FW_ALPINE_BUILD=standard serves the standard Alpine and allows the eval it needs; csp (default) serves the CSP build', async () => {
    const standard = app({ config: { FW_ALPINE_BUILD: 'standard' } });
    const s = await start(standard);
    expect(csp(await fetch(`${s}/plain`))).toContain("script-src 'self' 'unsafe-eval'");
    const cspBuild = await start(app());
    const [a, b] = await Promise.all([fetch(`${s}/fluid/static/vendor/alpine.min.js`), fetch(`${cspBuild}/fluid/static/vendor/alpine.min.js`)]);
    const [standardJs, cspJs] = [await a.text(), await b.text()];
    expect(standardJs).not.toBe(cspJs);
    expect(standardJs).toContain('new Function('); // the standard build compiles expressions
    expect(cspJs).not.toContain('new Function(');
  });

  it('per route: the securityHeaders() marker and overrideSecurityHeaders(ctx) win for that response only', async () => {
    const f = app();
    f.app.get(
      'widget',
      '/widget',
      securityHeaders({ csp: { 'frame-ancestors': ['https://partner.example'] }, headers: { 'X-Frame-Options': null } }),
      (ctx) => ctx.render('page.html'),
    );
    f.app.get('legacy', '/legacy', (ctx) => {
      overrideSecurityHeaders(ctx, { csp: false, headers: { 'Referrer-Policy': 'no-referrer' } });
      return 'legacy';
    });
    const base = await start(f);
    for (let i = 0; i < 2; i++) {
      const widget = await fetch(`${base}/widget`);
      const nonce = /'nonce-([^']+)'/.exec(csp(widget))?.[1];
      expect(csp(widget)).toContain('frame-ancestors https://partner.example');
      expect(await widget.text()).toContain(`nonce="${nonce}"`);
      expect(widget.headers.get('x-frame-options')).toBeNull();
      expect(widget.headers.get('x-content-type-options')).toBe('nosniff');
    }
    const legacy = await fetch(`${base}/legacy`);
    expect(legacy.headers.get('content-security-policy')).toBeNull();
    expect(legacy.headers.get('referrer-policy')).toBe('no-referrer');
    const other = await fetch(`${base}/plain`);
    expect(other.headers.get('x-frame-options')).toBe('DENY');
    expect(csp(other)).toContain("frame-ancestors 'none'");
    expect(other.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });
});

describe('bad values are refused, naming what was wrong', () => {
  it('a CSP keyword without quotes, a directive set to a bad list, a bad header name', () => {
    expect(() => makeFluid({ config: { SECURITY_CSP: { 'script-src': ['self'] } } })).toThrow(ConfigError);
    expect(() => makeFluid({ config: { SECURITY_CSP: { 'script-src': ['self'] } } })).toThrow(/SECURITY_CSP: .*"self" should be quoted/);
    expect(() => makeFluid({ config: { SECURITY_CSP: { 'script-src': ["'self'; img-src *"] } } })).toThrow(/config\.SECURITY_CSP\.script-src\[0\]: .*a CSP source without spaces/);
    expect(() => makeFluid({ config: { SECURITY_CSP: { 'default-src': null } } })).toThrow(
      `SECURITY_CSP: the Content-Security-Policy needs a default-src, and "default-src": null dropped it; give it sources (e.g. "default-src": ["'self'"]), or set SECURITY_CSP_MODE = off for no CSP at all`,
    );
    expect(() => makeFluid({ config: { SECURITY_CSP: { 'default-src': null } } })).not.toThrow(/dangerouslyDisableDefaultSrc/);
    expect(() => makeFluid({ config: { SECURITY_FRAME_OPTIONS: 'ALLOW' } })).toThrow(/SECURITY_FRAME_OPTIONS/);
    expect(() => makeFluid({ config: { SECURITY_HEADER_OVERRIDES: { 'Bad Header': 'x' } } })).toThrow(/SECURITY_HEADER_OVERRIDES\.Bad Header/);
    expect(() => securityHeaders({ csp: { 'img-src': ['none'] } })).toThrow(/securityHeaders\(\{ csp \}\): .*"none" should be quoted/);
    expect(() => securityHeaders({ headers: { 'X-A': 'line\nbreak' } })).toThrow(/X-A/);
  });

  it('Referrer-Policy no-referrer with auth installed is refused at start (browsers would send Origin: null on form posts)', async () => {
    const f = app({ config: { SECURITY_REFERRER_POLICY: 'no-referrer', CACHE_TYPE: 'memory' } });
    installAuth(f, { users: testUsers() });
    await expect(f.mix()).rejects.toThrow(/SECURITY_REFERRER_POLICY: got "no-referrer"; with auth installed/);
  });

  it('{{csp_nonce}} outside a request is a clear error', () => {
    const f = app();
    expect(() => f.render('page.html')).toThrow(/\{\{csp_nonce\}\} renders only during a request/);
  });
});
