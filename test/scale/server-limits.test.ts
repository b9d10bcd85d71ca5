/**
 * The server's limits, over raw TCP to a listening app: slow-header (slowloris) connections and
 * silent ones are cut at the headers timeout, an idle keep-alive connection outlives the headers
 * timeout, the connection cap refuses the connection past it, the settings come from config, and
 * a request with two Host headers is 400 (RFC 9112 §3.2).
 */
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import type { Fluid } from '@fw/kernel';
import { cleanupProjects, makeFluid } from '../kernel/helpers.js';
import { waitFor } from './cluster.js';

const fluids: Fluid[] = [];
afterAll(async () => {
  await Promise.all(fluids.map((f) => f.close()));
  cleanupProjects();
});

async function listen(config: Record<string, unknown>): Promise<{ fluid: Fluid; port: number }> {
  const fluid = makeFluid({ config });
  fluids.push(fluid);
  fluid.app.get('hello', '/', () => 'hello');
  const server = await fluid.listen(0, '127.0.0.1');
  return { fluid, port: (server.address() as AddressInfo).port };
}

/** A raw connection that records what it receives and when it closes. */
function open(port: number): { socket: Socket; received: () => string; closed: Promise<void>; isClosed: () => boolean } {
  const socket = connect(port, '127.0.0.1');
  let data = '';
  let closed = false;
  socket.on('data', (d: Buffer) => (data += d.toString()));
  socket.on('error', () => undefined);
  return {
    socket,
    received: () => data,
    closed: new Promise((resolve) => socket.once('close', () => ((closed = true), resolve()))),
    isClosed: () => closed,
  };
}

it('50 slowloris connections (headers trickling in) and a silent one get 408 and are closed at the headers timeout, while the app keeps serving', async () => {
  const { port } = await listen({ SERVER_HEADERS_TIMEOUT: 1, SERVER_REQUEST_TIMEOUT: 2 });
  const slow = Array.from({ length: 50 }, () => open(port));
  const timers = slow.map(({ socket }) => {
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
    return setInterval(() => socket.write('X-Slow: a\r\n'), 200);
  });
  const silent = open(port);
  try {
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('hello');
    // Bounded: the headers timeout (1 s) plus Node's check interval, with room for a busy machine.
    await waitFor('every slow connection to be closed', () => slow.every((c) => c.isClosed()) && silent.isClosed(), 15_000);
  } finally {
    for (const timer of timers) clearInterval(timer);
  }
  for (const c of [...slow, silent]) expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
  expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('hello');
});

it('a keep-alive connection idle for longer than the headers timeout still serves its next request', async () => {
  const { port } = await listen({ SERVER_HEADERS_TIMEOUT: 1, SERVER_REQUEST_TIMEOUT: 2, SERVER_KEEP_ALIVE_TIMEOUT: 10 });
  const c = open(port);
  c.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  await waitFor('the first answer', () => c.received().endsWith('hello'), 5000);
  await new Promise((r) => setTimeout(r, 2500)); // idle past the headers (1 s) and request (2 s) timeouts
  expect(c.isClosed()).toBe(false);
  c.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  await waitFor('the second answer on the same connection', () => c.received().split('HTTP/1.1 200 OK').length === 3, 5000);
  expect(c.received()).toMatch(/Keep-Alive: timeout=10/);
  c.socket.destroy();
});

it('SERVER_MAX_CONNECTIONS: the connection past the cap is closed unanswered; once one leaves, a new one is served', async () => {
  const { port } = await listen({ SERVER_MAX_CONNECTIONS: 3 });
  const held = Array.from({ length: 3 }, () => open(port));
  for (const c of held) c.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  await waitFor('three answered keep-alive connections', () => held.every((c) => c.received().endsWith('hello')), 5000);
  const extra = open(port);
  extra.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  await extra.closed;
  expect(extra.received()).toBe('');
  held[0]!.socket.destroy();
  await held[0]!.closed;
  await waitFor('a new connection to be served', async () => {
    const again = open(port);
    again.socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await again.closed;
    return again.received().endsWith('hello');
  }, 5000);
  for (const c of held.slice(1)) c.socket.destroy();
});

it('the defaults: keep-alive 65 s (above load balancers\' 60 s), headers 20 s, request 120 s, 10,000 connections', async () => {
  const fluid = makeFluid();
  fluids.push(fluid);
  const server = await fluid.listen(0, '127.0.0.1');
  expect([server.keepAliveTimeout, server.headersTimeout, server.requestTimeout, server.maxConnections]).toEqual([65_000, 20_000, 120_000, 10_000]);
});

it('a headers timeout above the request timeout is an error naming both keys', async () => {
  const fluid = makeFluid({ config: { SERVER_HEADERS_TIMEOUT: 30, SERVER_REQUEST_TIMEOUT: 10 } });
  fluids.push(fluid);
  await expect(fluid.listen(0, '127.0.0.1')).rejects.toThrow('SERVER_HEADERS_TIMEOUT (30 s) must not exceed SERVER_REQUEST_TIMEOUT (10 s)');
});

/** Sends `head` (request line and header lines) on a new connection; answers all it received once it closed. */
async function askRaw(port: number, head: string, connection = 'close'): Promise<string> {
  const c = open(port);
  c.socket.write(`${head}Connection: ${connection}\r\n\r\n`);
  await c.closed;
  return c.received();
}

it('two Host header lines (any case) are 400 DUPLICATE_HOST with the security headers, a websocket upgrade with two or none is 400; one Host is served', async () => {
  const { port } = await listen({});
  const ask = (head: string, connection?: string) => askRaw(port, head, connection);
  for (const hosts of ['Host: a\r\nHost: b\r\n', 'Host: a\r\nhOST: a\r\n']) {
    const answer = await ask(`GET / HTTP/1.1\r\n${hosts}Accept: application/json\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/\r\nx-content-type-options: nosniff\r\n/i);
    expect(answer).toContain('{"error":"More than one Host header","code":"DUPLICATE_HOST"}');
  }
  const upgrade = await ask('GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n', 'Upgrade');
  // Refused outside Koa, with the security plugin's inert headers (as Node's own refusals).
  expect(upgrade).toMatch(/^HTTP\/1\.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n[^]*x-content-type-options: nosniff\r\n[^]*\r\n\r\n$/i);
  const noHost = await ask('GET / HTTP/1.1\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n', 'Upgrade');
  expect(noHost).toBe(upgrade);
  expect(await ask('GET / HTTP/1.1\r\nHost: a\r\n')).toMatch(/^HTTP\/1\.1 200 [^]*hello$/);
});

it('a Host value that is not host[:port] is 400 INVALID_HOST (RFC 9112 §3.2), for an upgrade too; names, IPv4, IPv6 literals, ports and an empty Host are served', async () => {
  const { port } = await listen({});
  const ask = (head: string, connection?: string) => askRaw(port, head, connection);
  // `evil.example:80@app` is host `app` to a URL parser and `evil.example` to a reader of the header.
  for (const host of ['evil.example:80@127.0.0.1', 'a b', '[::1', 'a/b', 'a:80:90', 'a\\b', 'a:x']) {
    const answer = await ask(`GET / HTTP/1.1\r\nHost: ${host}\r\nAccept: application/json\r\n`);
    expect(answer, host).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/\r\nx-content-type-options: nosniff\r\n/i);
    expect(answer).toContain('{"error":"The Host header is not a host[:port]","code":"INVALID_HOST"}');
  }
  const upgrade = await ask('GET / HTTP/1.1\r\nHost: evil.example@a\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n', 'Upgrade');
  expect(upgrade).toMatch(/^HTTP\/1\.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n[^]*x-content-type-options: nosniff\r\n[^]*\r\n\r\n$/i);
  for (const host of ['app.example.com', 'App.Example.COM.:8080', '127.0.0.1:1234', '[::1]:80', '[fe80::1%25eth0]', 'my_host-1', 'a:', '']) {
    expect(await ask(`GET / HTTP/1.1\r\nHost: ${host}\r\n`), host).toMatch(/^HTTP\/1\.1 200 [^]*hello$/);
  }
});

it("requests Node's parser refuses (malformed request line, 20 KB of headers, too slow) get Node's status with the inert security headers and Connection: close", async () => {
  const { port } = await listen({ SERVER_HEADERS_TIMEOUT: 1, SERVER_REQUEST_TIMEOUT: 2 });
  const ask = async (bytes: string): Promise<string> => {
    const c = open(port);
    if (bytes !== '') c.socket.write(bytes);
    await c.closed;
    return c.received();
  };
  const inert = (answer: string): void => {
    expect(answer).toMatch(/\r\nConnection: close\r\n/);
    expect(answer).toMatch(/\r\ncontent-security-policy: default-src 'none';frame-ancestors 'none'\r\n/);
    expect(answer).toMatch(/\r\nx-content-type-options: nosniff\r\n/);
    expect(answer).toMatch(/\r\nx-frame-options: DENY\r\n/);
    expect(answer).toMatch(/\r\nreferrer-policy: strict-origin-when-cross-origin\r\n/);
    expect(answer).toMatch(/\r\n\r\n$/); // no body
  };
  const malformed = await ask('GET / HTTP/1.1 junk\r\nHost: x\r\n\r\n');
  expect(malformed).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  inert(malformed);
  // no Host in HTTP/1.1 is the app's own 400 (Node's would carry no header of the app's)
  const noHost = await ask('GET / HTTP/1.1\r\nAccept: application/json\r\nConnection: close\r\n\r\n');
  expect(noHost).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  expect(noHost).toMatch(/\r\ncontent-security-policy: default-src 'none';frame-ancestors 'none'\r\n/);
  expect(noHost).toMatch(/\r\nx-request-id: \S+\r\n/i);
  expect(noHost).toContain('{"error":"No Host header (HTTP/1.1 requires one)","code":"MISSING_HOST"}');
  // HTTP/1.0 needs none
  expect(await ask('GET / HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*hello$/);
  const huge = await ask(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
  expect(huge).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
  inert(huge);
  const slow = await ask('GET / HTTP/1.1\r\nHost: x\r\n');
  expect(slow).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  inert(slow);
  // after a keep-alive response, a malformed second request on the same connection is answered too
  const c = open(port);
  c.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  await waitFor('the first answer', () => c.received().endsWith('hello'), 5000);
  c.socket.write('BROKEN\r\n\r\n');
  await c.closed;
  expect(c.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*hello(HTTP\/1\.1 400 Bad Request\r\n[^]*)$/);
  inert(c.received().slice(c.received().indexOf('hello')));
  expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('hello');
});

it('fluid.clientErrorHeaders refuses a header that is not valid HTTP, naming it', () => {
  const fluid = makeFluid();
  fluids.push(fluid);
  expect(() => fluid.clientErrorHeaders([['x-ok', 'a\r\nSet-Cookie: x=1']])).toThrow(/fluid\.clientErrorHeaders\(\): "x-ok": .*Invalid character/);
  expect(() => fluid.clientErrorHeaders([['bad name', 'v']])).toThrow(/fluid\.clientErrorHeaders\(\): "bad name": /);
});

it('with SECURITY_HEADERS off, those answers carry Connection: close and no security headers', async () => {
  const { port } = await listen({ SECURITY_HEADERS: false });
  const c = open(port);
  c.socket.write('GET / HTTP/1.1 junk\r\n\r\n');
  await c.closed;
  expect(c.received()).toBe('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
});
