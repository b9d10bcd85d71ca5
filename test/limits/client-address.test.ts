import { afterEach, describe, expect, it } from 'vitest';
import type Koa from 'koa';
import { clientAddress, limit, normaliseAddress, type ProxyConfig } from '@fw/kernel/limits';
import { get, startApp, type TestApp } from './harness.ts';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** An app whose /who answers clientAddress and whose /limited allows 2 per minute per client. */
async function proxyApp(proxy: ProxyConfig): Promise<TestApp> {
  const who: Koa.Middleware = (ctx) => {
    ctx.body = { address: clientAddress(ctx, proxy), koaIp: ctx.ip };
  };
  return startApp(proxy, (route, koa) => {
    koa.proxy = true; // Koa's own ctx.ip now believes X-Forwarded-For; clientAddress must not.
    route('get', '/who', who);
    route('get', '/limited', limit('2/minute'), who);
  });
}

async function address(url: string, xff?: string): Promise<string> {
  const res = await get(`${url}/who`, xff === undefined ? {} : { 'x-forwarded-for': xff });
  return (JSON.parse(res.text) as { address: string }).address;
}

/** Statuses of /limited for each X-Forwarded-For value, in order. */
async function limitedStatuses(url: string, xffs: string[]): Promise<number[]> {
  const out: number[] = [];
  for (const xff of xffs) out.push((await get(`${url}/limited`, { 'x-forwarded-for': xff })).status);
  return out;
}

const SPOOFS = ['203.0.113.1', '203.0.113.2', '198.51.100.9', '203.0.113.4'];

describe('clientAddress and the rate-limit key', () => {
  it('PROXY_FIX off: the peer address, whatever X-Forwarded-For says (even with Koa app.proxy on)', async () => {
    app = await proxyApp({ PROXY_FIX: false, PROXY_TRUSTED_HOSTS: ['127.0.0.0/8'] });
    const res = await get(`${app.url}/who`, { 'x-forwarded-for': '203.0.113.1' });
    expect(JSON.parse(res.text)).toEqual({ address: '127.0.0.1', koaIp: '203.0.113.1' });
    expect(await address(app.url)).toBe('127.0.0.1');
    // a new spoofed address per request does not give a new counter
    expect(await limitedStatuses(app.url, SPOOFS)).toEqual([200, 200, 429, 429]);
  });

  it('PROXY_FIX on but the peer is not a trusted proxy: X-Forwarded-For is ignored', async () => {
    app = await proxyApp({ PROXY_FIX: true, PROXY_TRUSTED_HOSTS: ['10.0.0.0/8', '192.168.0.0/16'] });
    expect(await address(app.url, '203.0.113.1')).toBe('127.0.0.1');
    expect(await address(app.url, '10.0.0.1, 203.0.113.1')).toBe('127.0.0.1');
    expect(await limitedStatuses(app.url, SPOOFS)).toEqual([200, 200, 429, 429]);
  });

  it('PROXY_FIX on and the peer inside PROXY_TRUSTED_HOSTS: the first untrusted hop from the right', async () => {
    app = await proxyApp({ PROXY_FIX: true, PROXY_TRUSTED_HOSTS: ['127.0.0.1/8'] });
    expect(await address(app.url)).toBe('127.0.0.1');
    expect(await address(app.url, '203.0.113.1')).toBe('203.0.113.1');
    // the client wrote the left entry itself; the proxy appended the real one
    expect(await address(app.url, '6.6.6.6, 203.0.113.1')).toBe('203.0.113.1');
    // trusted hops (here another loopback proxy) are skipped
    expect(await address(app.url, '198.51.100.7, 127.0.0.9')).toBe('198.51.100.7');
    // garbage from a trusted proxy never becomes a key: the peer stands
    expect(await address(app.url, 'not-an-address')).toBe('127.0.0.1');
    // distinct forwarded clients get distinct counters; the same one is limited
    expect(await limitedStatuses(app.url, ['203.0.113.1', '203.0.113.2', '203.0.113.1', '203.0.113.1'])).toEqual([
      200, 200, 200, 429,
    ]);
    // spoofing the left part does not escape the limit of the real (rightmost untrusted) client
    expect(await limitedStatuses(app.url, ['1.1.1.1, 203.0.113.2', '2.2.2.2, 203.0.113.2'])).toEqual([200, 429]);
  });

  it('accepts proxy-addr range names', async () => {
    app = await proxyApp({ PROXY_FIX: true, PROXY_TRUSTED_HOSTS: ['loopback'] });
    expect(await address(app.url, '203.0.113.77')).toBe('203.0.113.77');
  });

  it('normalises IPv4-mapped IPv6 addresses', () => {
    expect(normaliseAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normaliseAddress('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(normaliseAddress('::1')).toBe('::1');
    expect(normaliseAddress('2001:db8::1')).toBe('2001:db8::1');
    expect(normaliseAddress('::ffff:not-ip')).toBe('::ffff:not-ip');
  });
});
