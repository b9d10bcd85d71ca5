/**
 * `testClient(fluid)`: an HTTP client for an app's own tests, bound to `fluid.callback()` on a
 * loopback server of its own (real HTTP, real sockets, nothing mocked), that behaves like one
 * browser:
 *
 * - a cookie jar: `Set-Cookie` answers are kept and sent back, so sessions (sign-in, flash
 *   messages) carry from one request to the next;
 * - CSRF handled: when the app has the auth plugin, an unsafe request (POST, PUT, PATCH, DELETE)
 *   gets an `X-CSRF-Token` for the jar's session, fetched from a route this client adds for
 *   itself (`/fluid/test/csrf`, only in apps a test client was made for).
 *
 * Why not supertest: its cookie handling (`agent`) knows nothing of CSRF, it would add superagent
 * and its dependencies to every app, and `fetch` (Node's own) already is the request API apps and
 * their users know. The answer is read whole, so assertions are plain values.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { csrfToken } from '../auth/csrf.js';
import type { FluidMiddleware } from '../core/context.js';
import { FrameworkException } from '../core/errors.js';
import type { FluidCore } from '../core/fluid.js';

/** The route a test client answers CSRF tokens on (added to the app only by `testClient`). */
export const TEST_CSRF_PATH = '/fluid/test/csrf';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What a request may carry besides its method and path. */
export interface TestRequestInit {
  /** Extra request headers (they win over the client's own). */
  headers?: Record<string, string>;
  /** A JSON body (sets `Content-Type: application/json`). */
  json?: unknown;
  /** A form body (`application/x-www-form-urlencoded`). */
  form?: Record<string, string>;
  /** A raw body. */
  body?: string | Uint8Array<ArrayBuffer>;
  /** Send no CSRF token even when the app checks them (to test the refusal). */
  csrf?: false;
}

/** A finished answer, read whole. */
export interface TestResponse {
  /** The HTTP status code, e.g. `200`. */
  readonly status: number;
  /** The response headers (`headers.get('content-type')`). */
  readonly headers: Headers;
  /** The body as text. */
  readonly text: string;
  /** The body parsed as JSON (throws naming the body when it is not JSON). */
  json<T = unknown>(): T;
}

/** The client `testClient` returns. */
export interface TestClient {
  /** `http://127.0.0.1:<port>` once the first request started the server. */
  readonly origin: string;
  /** The cookie jar: name → value, as the app last set them. */
  readonly cookies: ReadonlyMap<string, string>;
  /**
   * Sends `method` to `path` (e.g. `/items?page=2`) with the jar's cookies (and a CSRF token on an
   * unsafe method when the app checks them), keeps the cookies it sets and reads the answer whole.
   * Redirects are not followed: a 302 is the answer, with its `location` header.
   */
  request(method: string, path: string, init?: TestRequestInit): Promise<TestResponse>;
  /** `request('GET', path, init)`. */
  get(path: string, init?: TestRequestInit): Promise<TestResponse>;
  /** `request('POST', path, init)`, with a CSRF token when the app checks them. */
  post(path: string, init?: TestRequestInit): Promise<TestResponse>;
  /** `request('PUT', path, init)`, with a CSRF token when the app checks them. */
  put(path: string, init?: TestRequestInit): Promise<TestResponse>;
  /** `request('PATCH', path, init)`, with a CSRF token when the app checks them. */
  patch(path: string, init?: TestRequestInit): Promise<TestResponse>;
  /** `request('DELETE', path, init)`, with a CSRF token when the app checks them. */
  delete(path: string, init?: TestRequestInit): Promise<TestResponse>;
  /**
   * Starts the app and its server now rather than at the first request: call it in `beforeAll`,
   * so a slow boot (a Vite app checks and builds its frontend first) counts against the hook's
   * timeout, not the first test's.
   */
  start(): Promise<void>;
  /** Forgets every cookie (a new visitor). */
  clearCookies(): void;
  /** Stops the client's server and closes the app (its shutdown hooks run). */
  close(): Promise<void>;
}

/**
 * A test client for `fluid`. Make it before the app starts (at the top of the test file): with
 * auth, it adds its CSRF route then.
 */
export function testClient(fluid: FluidCore): TestClient {
  const checksCsrf = fluid.plugins.has('auth');
  if (checksCsrf) {
    if (fluid.mixed) throw new FrameworkException('testClient(fluid): make the client before the app starts (at the top of the test file)');
    const route: FluidMiddleware = (ctx, next) => {
      if (ctx.path !== TEST_CSRF_PATH || ctx.method !== 'GET') return next();
      ctx.body = { token: csrfToken(ctx) };
    };
    fluid.use(route); // the `app` stage: after the session middleware auth added
  }
  const jar = new Map<string, string>();
  let server: Promise<{ server: Server; origin: string }> | undefined;
  let origin = '';
  let token: { for: string; value: string } | undefined;

  const listen = (): Promise<{ server: Server; origin: string }> =>
    (server ??= new Promise((resolve, reject) => {
      const s = createServer(fluid.callback());
      s.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => fluid.handleUpgrade(req, socket, head));
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => {
        origin = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
        resolve({ server: s, origin });
      });
    }));

  const send = async (method: string, path: string, init: TestRequestInit = {}): Promise<TestResponse> => {
    const { origin: base } = await listen();
    const headers: Record<string, string> = {};
    let body: string | Uint8Array<ArrayBuffer> | undefined = init.body;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    if (checksCsrf && UNSAFE.has(method.toUpperCase()) && init.csrf !== false) headers['x-csrf-token'] = await csrf();
    if (jar.size > 0) headers.cookie = cookieHeader();
    const res = await fetch(base + path, { method, headers: { ...headers, ...init.headers }, body: body ?? null, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) keep(jar, line);
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      text,
      json<T>(): T {
        try {
          return JSON.parse(text) as T;
        } catch {
          throw new FrameworkException(`${method} ${path} answered ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`);
        }
      },
    };
  };

  // One token per session: fetched again when the session cookie changes (sign-in, sign-out).
  const cookieHeader = (): string => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const csrf = async (): Promise<string> => {
    if (token?.for === cookieHeader()) return token.value;
    const value = (await send('GET', TEST_CSRF_PATH)).json<{ token: string }>().token;
    token = { for: cookieHeader(), value }; // the jar as it is once the token's session exists
    return value;
  };

  return {
    get origin() {
      return origin;
    },
    cookies: jar,
    request: send,
    get: (path, init) => send('GET', path, init),
    post: (path, init) => send('POST', path, init),
    put: (path, init) => send('PUT', path, init),
    patch: (path, init) => send('PATCH', path, init),
    delete: (path, init) => send('DELETE', path, init),
    async start() {
      await listen();
      await fluid.mix();
    },
    clearCookies() {
      jar.clear();
      token = undefined;
    },
    async close() {
      const running = await server;
      if (running) await new Promise<void>((resolve) => running.server.close(() => resolve()).closeAllConnections());
      await fluid.close();
    },
  };
}

/** Applies one `Set-Cookie` line to the jar (an expired or `Max-Age=0` cookie is removed). */
function keep(jar: Map<string, string>, line: string): void {
  const [pair = '', ...attributes] = line.split(';');
  const at = pair.indexOf('=');
  if (at <= 0) return;
  const name = pair.slice(0, at).trim();
  const value = pair.slice(at + 1).trim();
  const gone = attributes.some((a) => {
    const [key = '', val = ''] = a.split('=').map((x) => x.trim());
    if (key.toLowerCase() === 'max-age') return Number(val) <= 0;
    if (key.toLowerCase() === 'expires') return Date.parse(val) <= Date.now();
    return false;
  });
  if (gone || value === '') jar.delete(name);
  else jar.set(name, value);
}
