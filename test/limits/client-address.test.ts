import { afterEach, describe, expect, it } from 'vitest';
import type Koa from 'koa';
import { addressNetwork, clientAddress, limit, normaliseAddress, type ProxyConfig } from '@fw/kernel/limits';
import { get, startApp, type TestApp } from './harness.ts';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** An app whose /who answers clientAddress and whose /limited allows 2 per minute per client. */
async function proxyApp(proxy: ProxyConfig & { RATELIMIT_IPV6_PREFIX?: number }): Promise<TestApp> {
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

  it('an IPv6 client is counted by its /64: rotating addresses inside it meets one counter', async () => {
    app = await proxyApp({ PROXY_FIX: true, PROXY_TRUSTED_HOSTS: ['loopback'] });
    // the forwarded address itself is still the client's address
    expect(await address(app.url, '2001:db8:0:1::7')).toBe('2001:db8:0:1::7');
    // one /64 written five ways (other host parts, upper case, expanded, a zone id): one counter of 2
    expect(
      await limitedStatuses(app.url, ['2001:db8:0:1::1', '2001:DB8:0:1:0:0:0:2', '2001:db8:0:1:ffff:1:2:3', '2001:0db8:0000:0001::9', 'fe80::1']),
    ).toEqual([200, 200, 429, 429, 200]);
    // the next /64 is another customer
    expect(await limitedStatuses(app.url, ['2001:db8:0:2::1', '2001:db8:0:2::2', '2001:db8:0:2::3'])).toEqual([200, 200, 429]);
    // zone ids do not make a new counter either: fe80::1 above spent one of its two
    expect(await limitedStatuses(app.url, ['fe80::2%eth0', 'fe80::3'])).toEqual([200, 429]);
    // IPv4 (also written IPv4-mapped) is counted per address
    expect(await limitedStatuses(app.url, ['203.0.113.1', '::ffff:203.0.113.1', '203.0.113.1', '203.0.113.2'])).toEqual([
      200, 200, 429, 200,
    ]);
  });

  it('RATELIMIT_IPV6_PREFIX sets the network size; 128 counts each IPv6 address on its own', async () => {
    app = await proxyApp({ PROXY_FIX: true, PROXY_TRUSTED_HOSTS: ['loopback'], RATELIMIT_IPV6_PREFIX: 48 });
    expect(await limitedStatuses(app.url, ['2001:db8:0:1::1', '2001:db8:0:2::1', '2001:db8:0:3::1', '2001:db8:1::1'])).toEqual([
      200, 200, 429, 200,
    ]);
    await app.close();
    app = await proxyApp({ PROXY_FIX: true, PROXY_TRUSTED_HOSTS: ['loopback'], RATELIMIT_IPV6_PREFIX: 128 });
    expect(await limitedStatuses(app.url, ['2001:db8::1', '2001:db8::2', '2001:db8::1', '2001:DB8:0:0:0:0:0:1'])).toEqual([
      200, 200, 200, 429,
    ]);
  });

  it('a RATELIMIT_IPV6_PREFIX outside 1-128 is refused when the limiter is made, naming the key', async () => {
    for (const bad of [0, 129, 64.5]) {
      await expect(proxyApp({ PROXY_FIX: false, PROXY_TRUSTED_HOSTS: [], RATELIMIT_IPV6_PREFIX: bad })).rejects.toThrow(
        `RATELIMIT_IPV6_PREFIX: got ${bad}; expected a prefix length, a whole number 1-128`,
      );
    }
  });

  it('a custom key is used as given, not reduced to a network', async () => {
    const seen: string[] = [];
    app = await startApp({ PROXY_FIX: true, PROXY_TRUSTED_HOSTS: ['loopback'] }, (route) => {
      const key = (ctx: Koa.Context) => ctx.get('x-forwarded-for');
      route('get', '/keyed', limit('1/minute', { key }), (ctx) => {
        seen.push(ctx.get('x-forwarded-for'));
        ctx.body = 'ok';
      });
    });
    const statuses = [];
    for (const xff of ['2001:db8:0:1::1', '2001:db8:0:1::2', '2001:db8:0:1::1']) {
      statuses.push((await get(`${app.url}/keyed`, { 'x-forwarded-for': xff })).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(seen).toEqual(['2001:db8:0:1::1', '2001:db8:0:1::2']);
  });

  it('addressNetwork: IPv6 to its network in RFC 5952 form, IPv4 unchanged', () => {
    expect(addressNetwork('2001:DB8:0:1:0:0:0:7')).toBe('2001:db8:0:1::/64');
    expect(addressNetwork('fe80::1%eth0')).toBe('fe80::/64');
    expect(addressNetwork('0:0:0:0:0:0:0:1', 128)).toBe('::1/128');
    expect(addressNetwork('2001:db8:aaaa:bbbb::1', 48)).toBe('2001:db8:aaaa::/48');
    expect(addressNetwork('2001:db8:aaaa:bbbb::1', 52)).toBe('2001:db8:aaaa:b000::/52');
    expect(addressNetwork('64:ff9b::203.0.113.5', 128)).toBe('64:ff9b::cb00:7105/128');
    expect(addressNetwork('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(addressNetwork('203.0.113.5')).toBe('203.0.113.5');
    expect(addressNetwork('unknown')).toBe('unknown');
  });

  it('normalises IPv4-mapped IPv6 addresses', () => {
    expect(normaliseAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normaliseAddress('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(normaliseAddress('::1')).toBe('::1');
    expect(normaliseAddress('2001:db8::1')).toBe('2001:db8::1');
    expect(normaliseAddress('::ffff:not-ip')).toBe('::ffff:not-ip');
  });
});
