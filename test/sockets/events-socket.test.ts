/**
 * `/ws/events` through real `ws` clients against a listening Fluid: subscriptions, pushed events,
 * error answers (the socket stays usable), queries in the connection's context, limits, and the
 * per-connection flow control of requests.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { Additive, HttpError, type Fluid } from '@fw/kernel';
import { currentContext, MAX_IN_FLIGHT } from '@fw/kernel/sockets';
import { cleanupProjects, makeFluid, memoryLogger, start } from '../kernel/helpers.js';
import { connect, type TestClient } from './client.js';

const apps: Fluid[] = [];
const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(apps.splice(0).map((a) => a.close()));
  cleanupProjects();
});

async function app(config: Record<string, unknown> = {}): Promise<{ fluid: Fluid; url: string; lines: string[] }> {
  const logger = memoryLogger();
  const fluid = makeFluid({ config }, { logger });
  apps.push(fluid);
  fluid.app.get('home', '/', () => 'home');
  fluid.events.createSignal('news');
  fluid.events.createSignal('other');
  const base = await start(fluid);
  return { fluid, url: base.replace('http', 'ws') + '/ws/events', lines: logger.lines };
}

async function client(url: string, headers?: Record<string, string>): Promise<TestClient> {
  const c = await connect(url, headers);
  clients.push(c);
  return c;
}

const sidOf = (fluid: Fluid, c: TestClient): string => {
  for (const [sid, socket] of fluid.sockets.events.connections) {
    // The server's socket and the client's share the port pair; match on the remote port.
    const remote = (socket as unknown as { _socket: { remotePort: number } })._socket.remotePort;
    const local = (c.ws as unknown as { _socket: { localPort: number } })._socket.localPort;
    if (remote === local) return sid;
  }
  throw new Error('no sid for this client');
};

describe('/ws/events subscriptions', () => {
  it('pushes a triggered event to each subscriber once, and stops after unsubscribe', async () => {
    const { fluid, url } = await app();
    const a = await client(url);
    const b = await client(url);
    expect(await a.request({ action: 'subscribe', event: 'news' })).toMatchObject({ ok: true, data: true });
    expect(await a.request({ action: 'subscribe', event: 'news' })).toMatchObject({ ok: true, data: false });
    expect(await b.request({ action: 'subscribe', event: 'news' })).toMatchObject({ ok: true, data: true });
    fluid.events.trigger('news', { n: 1 });
    fluid.events.trigger('other', { n: 'x' });
    await a.waitForEvents(1);
    await b.waitForEvents(1);
    expect(await b.request({ action: 'unsubscribe', event: 'news' })).toMatchObject({ ok: true, data: true });
    fluid.events.trigger('news', { n: 2 });
    await a.waitForEvents(2);
    await new Promise((r) => setTimeout(r, 100));
    expect(a.events).toEqual([
      { event: 'news', data: { n: 1 } },
      { event: 'news', data: { n: 2 } },
    ]);
    expect(b.events).toEqual([{ event: 'news', data: { n: 1 } }]);
  });

  it('unsubscribe answers true only for a caller that was itself subscribed; hasSubscriptions checks the sid', async () => {
    const { fluid, url } = await app();
    const a = await client(url);
    const b = await client(url);
    await a.request({ action: 'subscribe', event: 'news' });
    const [sa, sb] = [sidOf(fluid, a), sidOf(fluid, b)];
    const manager = fluid.sockets.events;
    expect(manager.hasSubscriptions('news', sa)).toBe(true);
    expect(manager.hasSubscriptions('news', sb)).toBe(false);
    expect(await b.request({ action: 'unsubscribe', event: 'news' })).toMatchObject({ ok: true, data: false });
    expect(manager.hasSubscriptions('news', sa)).toBe(true);
    expect(manager.unsubscribe('news', sb)).toBe(false);
    expect(manager.unsubscribe('news', sa)).toBe(true);
    expect(manager.hasSubscriptions('news')).toBe(false);
  });

  it('leave drops a sid from every event; a closed connection leaves', async () => {
    const { fluid, url } = await app();
    const a = await client(url);
    await a.request({ action: 'subscribe', event: 'news' });
    await a.request({ action: 'subscribe', event: 'other' });
    const sid = sidOf(fluid, a);
    const manager = fluid.sockets.events;
    manager.leave(sid);
    expect(manager.hasSubscriptions('news', sid) || manager.hasSubscriptions('other', sid)).toBe(false);
    expect(fluid.events.listenerCount('news')).toBe(0);
    await a.request({ action: 'subscribe', event: 'news' });
    expect(fluid.events.listenerCount('news')).toBe(1);
    await a.close();
    await expect.poll(() => manager.connections.size).toBe(0);
    expect(manager.hasSubscriptions('news', sid)).toBe(false);
    expect(fluid.events.listenerCount('news')).toBe(0);
  });

  it('an unknown event is an error answer', async () => {
    const { url } = await app();
    const a = await client(url);
    expect(await a.request({ action: 'subscribe', event: 'nope' })).toMatchObject({ error: "Unknown event 'nope'." });
  });
});

describe('/ws/events error answers', () => {
  it('answers a non-object, malformed or binary frame with { error } and stays usable', async () => {
    const { url } = await app();
    const a = await client(url);
    expect(await a.raw('42')).toEqual({ error: 'A frame must be a JSON object, got a number.' });
    expect(await a.raw('true')).toEqual({ error: 'A frame must be a JSON object, got a boolean.' });
    expect(await a.raw('null')).toEqual({ error: 'A frame must be a JSON object, got null.' });
    expect(await a.raw('[1,2]')).toEqual({ error: 'A frame must be a JSON object, got an array.' });
    expect(await a.raw('"hi"')).toEqual({ error: 'A frame must be a JSON object, got a string.' });
    expect(await a.raw('{nope')).toEqual({ error: 'Malformed frame: not JSON; send a JSON object.' });
    expect(await a.raw(Buffer.from([1, 2, 3]), { binary: true })).toEqual({
      error: 'Binary frames are not accepted; send a JSON object as a text frame.',
    });
    expect(await a.raw('{"id":7,"action":"dance"}')).toEqual({
      id: 7,
      error: 'Frame "action" must be one of subscribe, unsubscribe, query; got "dance".',
    });
    expect(await a.raw('{"id":{},"action":"query"}')).toEqual({ error: 'Frame "id" must be a string or a number, got an object.' });
    expect(await a.request({ action: 'subscribe' })).toMatchObject({ error: 'Frame "event" must name an event.' });
    expect(a.ws.readyState).toBe(a.ws.OPEN);
    expect(await a.request({ action: 'subscribe', event: 'news' })).toMatchObject({ ok: true, data: true });
  });

  it("a failing query answers \"Query '<name>' failed.\", is logged, and the socket stays usable", async () => {
    const { fluid, url, lines } = await app();
    fluid.sockets.events.query('boom', () => {
      throw new Error('database on fire');
    }, { public: true });
    fluid.sockets.events.query('later', async () => Promise.reject(new Error('async fire')), { public: true });
    fluid.sockets.events.query('bigint', () => 10n, { public: true });
    const a = await client(url);
    expect(await a.request({ action: 'query', query: 'boom' })).toMatchObject({ error: "Query 'boom' failed." });
    expect(await a.request({ action: 'query', query: 'later' })).toMatchObject({ error: "Query 'later' failed." });
    expect(await a.request({ action: 'query', query: 'bigint' })).toMatchObject({ error: "Query 'bigint' failed." });
    expect(await a.request({ action: 'query', query: 'missing' })).toMatchObject({ error: "Unknown query 'missing'." });
    expect(lines.some((l) => l.startsWith("error events socket: query 'boom' failed") && l.includes('database on fire'))).toBe(true);
    expect(lines.some((l) => l.includes('async fire'))).toBe(true);
    expect(await a.request({ action: 'subscribe', event: 'news' })).toMatchObject({ ok: true });
  });

  it('closes an oversized frame with 1009 (WS_MAX_PAYLOAD), logs it, and keeps serving others', async () => {
    const { url, lines } = await app({ WS_MAX_PAYLOAD: 1024 });
    const a = await client(url);
    a.ws.send(JSON.stringify({ action: 'query', query: 'x', payload: 'y'.repeat(2000) }));
    expect(await a.closed).toBe(1009);
    await expect.poll(() => lines.some((l) => l.startsWith('warn websocket error') && l.includes('Max payload size exceeded'))).toBe(true);
    const b = await client(url);
    expect(await b.request({ action: 'subscribe', event: 'news', payload: 'z'.repeat(500) })).toMatchObject({ ok: true });
  });
});

describe('/ws/events context', () => {
  it('runs queries in the connection context: upgrade hook user, cookies, urlFor, currentContext()', async () => {
    const logger = memoryLogger();
    const fluid = makeFluid({}, { logger });
    apps.push(fluid);
    fluid.app.get('home', '/', () => 'home');
    fluid.sockets.onUpgrade((ctx) => {
      const name = ctx.cookies.get('user');
      if (name) ctx.state.user = { id: 1, name };
    });
    fluid.sockets.events.query('whoami', (_payload, ctx) => ({
      user: ctx.state.user,
      home: ctx.urlFor('home', { tab: 'x' }),
      sameContext: currentContext() === ctx,
      lang: currentContext()?.get('accept-language'),
    }));
    fluid.sockets.events.query('hello', (payload: { name: string }) => `hello ${payload.name}`, { public: true });
    const url = (await start(fluid)).replace('http', 'ws') + '/ws/events';
    const anon = await client(url);
    expect(await anon.request({ action: 'query', query: 'whoami' })).toMatchObject({ error: "Query 'whoami' needs a signed-in user." });
    expect(await anon.request({ action: 'query', query: 'hello', payload: { name: 'ann' } })).toMatchObject({ ok: true, data: 'hello ann' });
    const ann = await client(url, { cookie: 'user=ann', 'accept-language': 'de' });
    expect(await ann.request({ action: 'query', query: 'whoami' })).toMatchObject({
      ok: true,
      data: { user: { id: 1, name: 'ann' }, home: '/?tab=x', sameContext: true, lang: 'de' },
    });
  });

  it('a client that disconnects in the middle of a query leaves no error behind', async () => {
    const { fluid, url, lines } = await app();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    fluid.sockets.events.query('slow', async () => {
      started();
      await gate;
      return { done: true };
    }, { public: true });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const a = await client(url);
      await a.request({ action: 'subscribe', event: 'news' });
      a.ws.send(JSON.stringify({ id: 99, action: 'query', query: 'slow' }));
      await running;
      a.ws.terminate();
      await a.closed;
      await expect.poll(() => fluid.sockets.events.connections.size).toBe(0);
      release();
      await new Promise((r) => setTimeout(r, 100));
      fluid.events.trigger('news', 'after');
      await fluid.events.idle();
      expect(unhandled).toEqual([]);
      expect(lines.filter((l) => l.startsWith('error'))).toEqual([]);
      expect(fluid.sockets.events.hasSubscriptions('news')).toBe(false);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('/ws/events backpressure', () => {
  it('skips pushes to a socket with too much unsent data, logs it, and resumes once it drains', async () => {
    const { fluid, url, lines } = await app({ WS_MAX_BUFFERED_BYTES: 64 * 1024, EVENTS_EVENT_QUEUE_SIZE: 1000 });
    const slow = await client(url);
    const fast = await client(url);
    await slow.request({ action: 'subscribe', event: 'news' });
    await fast.request({ action: 'subscribe', event: 'news' });
    const raw = (slow.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    raw.pause(); // the slow client stops reading: the server's send buffer fills
    const big = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 200; i++) {
      fluid.events.trigger('news', { i, big });
      await fast.waitForEvents(i + 1); // paced: only the paused client falls behind
    }
    expect(fast.events.map((e) => (e.data as { i: number }).i)).toEqual([...Array(200).keys()]);
    await expect.poll(() => lines.some((l) => l.startsWith('warn events socket: a slow client misses events'))).toBe(true);
    raw.resume();
    await new Promise((r) => setTimeout(r, 500));
    const got = slow.events.length;
    expect(got).toBeGreaterThan(0);
    expect(got).toBeLessThan(200);
    fluid.events.trigger('news', { i: 'last' });
    await slow.waitForEvents(got + 1);
    expect((slow.events.at(-1)!.data as { i: unknown }).i).toBe('last');
  });
});

describe('/ws/events request flow control', () => {
  const serverSocket = (fluid: Fluid, c: TestClient): WebSocket => fluid.sockets.events.connections.get(sidOf(fluid, c))!;
  const countAnswers = (c: TestClient): { count: number } => {
    const seen = { count: 0 };
    c.ws.on('message', () => seen.count++);
    return seen;
  };

  it('stops reading a client that sends requests without reading the answers; the unread answers stay bounded and all arrive later', async () => {
    const limit = 64 * 1024;
    const { fluid, url } = await app({ WS_MAX_BUFFERED_BYTES: limit });
    const c = await client(url);
    const server = serverSocket(fluid, c);
    const unsentAtStart: number[] = [];
    fluid.sockets.events.query('big', () => {
      unsentAtStart.push(server.bufferedAmount);
      return 'x'.repeat(16 * 1024);
    }, { public: true });
    const answers = countAnswers(c);
    const raw = (c.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    raw.pause(); // the client stops reading its answers and keeps sending
    const total = 2000; // 32 MiB of answers: far more than the socket buffers hold
    for (let i = 0; i < total; i++) c.ws.send(JSON.stringify({ id: `r${i}`, action: 'query', query: 'big' }));
    await expect.poll(() => server.isPaused).toBe(true);
    expect(unsentAtStart.length).toBeLessThan(total);
    raw.resume();
    await expect.poll(() => answers.count, { timeout: 20_000 }).toBe(total);
    expect(unsentAtStart).toHaveLength(total);
    expect(Math.max(...unsentAtStart)).toBeLessThanOrEqual(limit);
    expect(server.isPaused).toBe(false);
  });

  it(`handles at most MAX_IN_FLIGHT (${MAX_IN_FLIGHT}) requests of one connection at a time, the others in order after them`, async () => {
    const { fluid, url } = await app();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let running = 0;
    let mostRunning = 0;
    const order: number[] = [];
    fluid.sockets.events.query('slow', async (n: number) => {
      order.push(n);
      mostRunning = Math.max(mostRunning, ++running);
      await gate;
      running--;
      return n;
    }, { public: true });
    const c = await client(url);
    const server = serverSocket(fluid, c);
    const answers = countAnswers(c);
    const total = MAX_IN_FLIGHT * 3;
    for (let i = 0; i < total; i++) c.ws.send(JSON.stringify({ id: `r${i}`, action: 'query', query: 'slow', payload: i }));
    await expect.poll(() => server.isPaused).toBe(true);
    await expect.poll(() => order.length).toBe(MAX_IN_FLIGHT);
    release();
    await expect.poll(() => answers.count).toBe(total);
    expect(mostRunning).toBe(MAX_IN_FLIGHT);
    expect(order).toEqual([...Array(total).keys()]);
    expect(server.isPaused).toBe(false);
    expect(await c.request({ action: 'query', query: 'slow', payload: -1 })).toEqual({ id: 1, ok: true, data: -1 });
  });
});

describe('websocket guards', () => {
  it('checks app upgrade hooks and route guards at upgrade, answering 401/403 before accepting; additive request hooks stay off ws', async () => {
    const logger = memoryLogger();
    const fluid = makeFluid({}, { logger });
    apps.push(fluid);
    const blog = new Additive('blog', { root: fluid.root });
    let hookCalls = 0;
    blog.beforeRequest(() => {
      hookCalls++;
      return 'blocked';
    });
    blog.ws.guard((ctx) => {
      if (!ctx.get('authorization')) throw new HttpError(401, 'Sign in first', { headers: { 'WWW-Authenticate': 'Bearer' } });
    });
    blog.ws.route('live', '/live', (socket) => socket.send('welcome'), { guards: [(ctx) => ctx.get('authorization') === 'Bearer admin'] });
    blog.ws.route('open', '/open', (socket, ctx) => socket.send(currentContext() === ctx ? 'open' : 'no context'));
    fluid.additive(blog);
    const seen: string[] = [];
    fluid.sockets.onUpgrade((ctx) => void seen.push(currentContext() === ctx ? ctx.path : 'outside the connection context'));
    const base = (await start(fluid)).replace('http', 'ws');

    const refused = (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; body: string; auth: string | undefined }>((resolve, reject) => {
        const ws = new WebSocket(base + path, { headers });
        ws.once('open', () => reject(new Error(`${path} was accepted`)));
        ws.once('unexpected-response', (_req, res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, auth: res.headers['www-authenticate'] }));
        });
        ws.once('error', () => undefined);
      });
    expect(await refused('/ws/blog/live')).toEqual({ status: 401, body: '{"error":"Sign in first"}', auth: 'Bearer' });
    expect(await refused('/ws/blog/live', { authorization: 'Bearer user' })).toMatchObject({ status: 403, body: '{"error":"Forbidden"}' });
    const first = (path: string, headers: Record<string, string>) =>
      new Promise<string>((resolve, reject) => {
        const ws = new WebSocket(base + path, { headers });
        ws.once('message', (m) => {
          resolve(String(m));
          ws.close();
        });
        ws.once('error', reject);
      });
    expect(await first('/ws/blog/live', { authorization: 'Bearer admin' })).toBe('welcome');
    expect(await first('/ws/blog/open', { authorization: 'Bearer user' })).toBe('open');
    expect(hookCalls).toBe(0);
    expect(seen).toEqual(['/ws/blog/live', '/ws/blog/live', '/ws/blog/live', '/ws/blog/open']);
  });
});

describe('websocket origin check', () => {
  /** Answers the upgrade: `open` when accepted, else the HTTP status and body of the refusal. */
  const attempt = (url: string, headers: Record<string, string>) =>
    new Promise<{ status: number | 'open'; body: string }>((resolve, reject) => {
      const ws = new WebSocket(url, { headers });
      ws.once('open', () => {
        ws.close();
        resolve({ status: 'open', body: '' });
      });
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      ws.once('error', reject);
    });

  it("refuses an upgrade from another origin's page with 403 FORBIDDEN_ORIGIN before any hook runs; its own origin, BASE_URL's, WS_ALLOWED_ORIGINS and non-browser clients are accepted", async () => {
    const logger = memoryLogger();
    const fluid = makeFluid({ config: { BASE_URL: 'https://app.example.com', WS_ALLOWED_ORIGINS: ['https://Partner.example.com'] } }, { logger });
    apps.push(fluid);
    let hooks = 0;
    fluid.sockets.onUpgrade((ctx) => {
      hooks++;
      ctx.state.user = ctx.cookies.get('session') === 'alice' ? { id: 'alice' } : undefined;
    });
    fluid.sockets.events.query('whoami', (_payload, ctx) => ctx.state.user);
    const base = await start(fluid);
    const url = base.replace('http', 'ws') + '/ws/events';
    const port = new URL(base).port;
    const cookie = 'session=alice';

    // Another app on the same host (another port) is same-site: the browser sends the session cookie.
    for (const origin of [`http://127.0.0.1:${Number(port) + 1}`, 'https://evil.example', 'null', 'http://app.example.com']) {
      expect(await attempt(url, { origin, cookie }), origin).toEqual({
        status: 403,
        body: '{"error":"Cross-origin websocket upgrade refused (WS_ALLOWED_ORIGINS)","code":"FORBIDDEN_ORIGIN"}',
      });
    }
    expect(hooks).toBe(0);

    // https on its own host too: a proxy that ends TLS without PROXY_FIX makes the app see http.
    for (const origin of [`http://127.0.0.1:${port}`, `https://127.0.0.1:${port}`, 'https://app.example.com', 'https://partner.example.com']) {
      const c = await client(url, { origin, cookie });
      expect(await c.request({ action: 'query', query: 'whoami' }), origin).toMatchObject({ ok: true, data: { id: 'alice' } });
    }
    const cli = await client(url, { cookie }); // no Origin: not a browser page
    expect(await cli.request({ action: 'query', query: 'whoami' })).toMatchObject({ ok: true, data: { id: 'alice' } });
  });

  it('WS_ALLOWED_ORIGINS "*" accepts any origin; an entry that is not an origin is a config error naming the key', async () => {
    const fluid = makeFluid({ config: { WS_ALLOWED_ORIGINS: ['*'] } });
    apps.push(fluid);
    const url = (await start(fluid)).replace('http', 'ws') + '/ws/events';
    expect(await attempt(url, { origin: 'https://evil.example' })).toEqual({ status: 'open', body: '' });
    for (const bad of ['https://app.example.com/path', 'app.example.com', 'ftp://app.example.com']) {
      expect(() => makeFluid({ config: { WS_ALLOWED_ORIGINS: [bad] } }), bad).toThrow(/WS_ALLOWED_ORIGINS[\s\S]*an origin such as/);
    }
  });
});
