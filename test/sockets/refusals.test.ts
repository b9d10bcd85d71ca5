/**
 * A refused websocket upgrade is answered on the raw socket, outside Koa, as Node-level refusals
 * are: with `Connection: close` and the app's `clientErrorHeaders` (the security plugin's inert
 * set: `X-Content-Type-Options`, the inert CSP, ...), besides its own status, headers and JSON
 * body. Over a real socket: 403 FORBIDDEN_ORIGIN, a guard's 401 with `WWW-Authenticate`, a path
 * no socket route serves (404), and a request with two `Host` lines (400).
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError, type Fluid } from '@fw/kernel';
import { cleanupProjects, makeFluid, start } from '../kernel/helpers.js';

let fluid: Fluid;
let port: number;

beforeAll(async () => {
  fluid = makeFluid();
  fluid.ws.route('private', '/private', (ws) => ws.close(), {
    guards: [() => {
      throw new HttpError(401, 'Sign in first', { code: 'NOT_SIGNED_IN', headers: { 'WWW-Authenticate': 'Bearer realm="demo"' } });
    }],
  });
  port = Number(new URL(await start(fluid)).port);
});

afterAll(async () => {
  await fluid.close();
  cleanupProjects();
});

interface Answer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** Sends `head` (the request line and header lines, without the blank line) and reads the answer until the server closes. */
function send(head: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [top = '', body = ''] = data.split('\r\n\r\n');
      const [statusLine = '', ...lines] = top.split('\r\n');
      const headers = new Map<string, string>();
      for (const line of lines) {
        const i = line.indexOf(':');
        headers.set(line.slice(0, i).toLowerCase(), line.slice(i + 1).trim());
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.write(`${head}\r\n\r\n`);
  });
}

const upgrade = (path: string, extra = ''): string =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
  `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==${extra}`;

describe('refused websocket upgrades', () => {
  let common: Map<string, string>;

  beforeAll(async () => {
    // What Node's own refusals carry (a request line it cannot parse): the list every refusal outside Koa gets.
    const malformed = await send('GET / HTTP/1.1\r\nHost: x\r\nBad Header Line');
    expect(malformed.status).toBe(400);
    common = new Map([...malformed.headers].filter(([name]) => name !== 'connection' && name !== 'content-length'));
    expect(common.get('x-content-type-options')).toBe('nosniff');
    expect(common.has('content-security-policy')).toBe(true);
  });

  // [what, status, path, extra header lines, JSON body]
  const cases: [string, number, string, string, string | undefined][] = [
    ['another origin', 403, '/ws/events', '\r\nOrigin: https://evil.example', '{"error":"Cross-origin websocket upgrade refused (WS_ALLOWED_ORIGINS)","code":"FORBIDDEN_ORIGIN"}'],
    ["a guard's refusal", 401, '/ws/private', '', '{"error":"Sign in first","code":"NOT_SIGNED_IN"}'],
    ['no socket route', 404, '/ws/nothing', '', undefined],
    ['two Host lines', 400, '/ws/events', '\r\nHost: evil.example', undefined],
  ];

  it.each(cases)('%s: %i with the security headers', async (_what, status, path, extra, body) => {
    const answer = await send(upgrade(path, extra));
    expect(answer.status).toBe(status);
    expect(answer.headers.get('connection')).toBe('close');
    for (const [name, value] of common) expect(answer.headers.get(name), name).toBe(value);
    if (body === undefined) {
      expect(answer.headers.get('content-length')).toBe('0');
    } else {
      expect(answer.body).toBe(body);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    }
    if (status === 401) expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="demo"');
  });
});
