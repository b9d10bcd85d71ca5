/**
 * The scale-out suite: real app processes (fixtures/server.ts, served by the kernel's `serve()`)
 * behind a round-robin proxy, on one real redis-server and one real PostgreSQL.
 *
 * Three single processes, then one `--workers 3` cluster, each share sessions, CSRF, an exact
 * rate limit under 200 concurrent requests, JWTs and events. On the three processes: Redis
 * killed and restarted empty (tokens minted anywhere verify everywhere afterwards); Redis and
 * PostgreSQL each frozen with SIGSTOP for 5 s (503 while frozen, recovery after SIGCONT, one
 * outage and one recovery line per process); a rolling restart under steady load loses nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupProjects, makeProject } from '../kernel/helpers.js';
import { connect, type TestClient } from '../sockets/client.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { Browser, logsSince, pidOf, prismaClient, startApp, startProxy, waitFor, type AppProcess, type Proxy } from './cluster.js';

let redis: TestRedis;
let pg: TestPostgres;
let prisma: { client: string; cleanup(): Promise<void> };
const apps: AppProcess[] = [];

/** A project whose processes share the suite's Redis (database `db`) and PostgreSQL, with short timeouts. */
function project(db: number): string {
  return makeProject({
    name: 'scale',
    config: {
      CACHE_TYPE: 'redis',
      CACHE_REDIS_URL: `${redis.url.replace(/\/0$/, '')}/${db}`,
      DATABASE_BINDS: { main: pg.url() },
      REDIS_TIMEOUT: 1,
      DATABASE_CONNECT_TIMEOUT: 1,
      DATABASE_STATEMENT_TIMEOUT: 1,
      HEALTH_CHECK_TIMEOUT: 1,
      SERVER_DRAIN_DELAY: 1,
      FW_LOG_REQUESTS: false,
    },
    ini: 'SECRET_KEY = one-secret-for-every-process-of-the-scale-suite\n',
  });
}

beforeAll(async () => {
  [redis, pg, prisma] = await Promise.all([startRedis(), startPostgres(), prismaClient()]);
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.stop('SIGTERM', 15_000)));
  await Promise.all([redis?.stop(), pg?.stop(), prisma?.cleanup()]);
  cleanupProjects();
});

/** Subscribes a socket of `/ws/events` at `base` to `news`. */
async function subscriber(base: string, clients: TestClient[]): Promise<TestClient> {
  const client = await connect(`${base.replace('http', 'ws')}/ws/events`);
  clients.push(client);
  expect(await client.request({ action: 'subscribe', event: 'news' })).toMatchObject({ ok: true, data: true });
  return client;
}

/**
 * What every process must share, checked through `proxy`: `socketBases` are where the event
 * subscribers connect (each process, or the cluster's one port).
 */
async function sharedState(proxy: () => Proxy, socketBases: () => string[]): Promise<void> {
  const browser = new Browser(proxy().url);
  const login = await browser.json<{ pid: number }>('/login/1');
  expect(login.status).toBe(200);

  // Sessions and CSRF: POSTs land on every process, and each finds the session and its token.
  const pids = new Set<number>();
  for (let i = 1; pids.size < 3; i++) {
    expect(i, 'requests spread over the three processes').toBeLessThanOrEqual(30);
    const { status, body } = await browser.post('/counter');
    expect(status).toBe(200);
    expect(body.n).toBe(i);
    pids.add(body.pid as number);
  }
  const forged = await browser.json('/counter', { method: 'POST', headers: { 'X-CSRF-Token': 'forged' } });
  expect(forged.status).toBe(403);

  // The exact rate limit: 20 of 200 concurrent requests get through, whichever process counts them.
  const statuses = await Promise.all(Array.from({ length: 200 }, () => fetch(`${proxy().url}/limited`).then((r) => r.status)));
  expect(statuses.filter((s) => s === 200)).toHaveLength(20);
  expect(statuses.filter((s) => s === 429)).toHaveLength(180);

  // JWTs: a token minted on one process verifies on every process.
  const tokens = await Promise.all([1, 2, 3].map(async () => (await browser.post('/token')).body.token as string));
  for (const token of tokens) {
    const verified = new Set<number>();
    for (let i = 1; verified.size < 3; i++) {
      expect(i, 'requests spread over the three processes').toBeLessThanOrEqual(30);
      const { status, body } = await browser.json<{ sub: string; pid: number }>('/api/verify', { headers: { Authorization: `Bearer ${token}` } });
      expect(status).toBe(200);
      expect(body.sub).toBe('1');
      verified.add(body.pid);
    }
  }

  // Events: a trigger on any process reaches every subscriber on every process, once.
  const clients: TestClient[] = [];
  try {
    const subscribers = await Promise.all(socketBases().flatMap((base) => [subscriber(base, clients), subscriber(base, clients)]));
    const socketPids = new Set(await Promise.all(subscribers.map(async (c) => (await c.request({ action: 'query', query: 'pid' })).data)));
    expect(socketPids.size).toBeGreaterThanOrEqual(2);
    for (let n = 1; n <= 3; n++) expect((await fetch(`${proxy().url}/trigger/${n}`)).status).toBe(200);
    for (const c of subscribers) {
      const got = await c.waitForEvents(3, 10_000);
      expect(got.map((e) => (e.data as { n: number }).n).sort()).toEqual([1, 2, 3]);
    }
    await new Promise((r) => setTimeout(r, 200)); // room for a duplicate to show up
    for (const c of subscribers) expect(c.events).toHaveLength(3);
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
}

describe('three processes behind a proxy', () => {
  let proxy: Proxy;
  let root: string;

  beforeAll(async () => {
    root = project(0);
    apps.push(...(await Promise.all([1, 2, 3].map(() => startApp({ root, prismaClient: prisma.client })))));
    proxy = await startProxy(apps.map((a) => a.url));
    for (const app of apps) await proxy.waitReady(app.url);
  });

  afterAll(async () => {
    await proxy?.close();
    await Promise.all(apps.splice(0).map((app) => app.stop()));
  });

  it('say at startup which backend each part uses: all shared, no warning', () => {
    for (const app of apps) {
      expect(app.out).toContain('fw: backends: events redis bus (shared), rate limits redis (shared), cache redis (shared), database main postgresql (shared)');
      expect(app.logs.filter((l) => l.msg.startsWith('SCALE-OUT'))).toEqual([]);
    }
  });

  it('share sessions, CSRF, the exact rate limit, JWTs and events', () => sharedState(() => proxy, () => apps.map((a) => a.url)));

  it('Redis killed and restarted empty: tokens minted on any process before and after verify on all', async () => {
    const browser = new Browser(proxy.url);
    await browser.json('/login/1');
    const before = await Promise.all(apps.map(async (app) => (await browser.post('/token', app.url)).body.token as string));
    redis.signal('SIGKILL');
    await redis.exited;
    redis = await startRedis({ port: redis.port }); // no persistence: fw's keys are gone
    const verifiedEverywhere = async (token: string): Promise<boolean> => {
      const results = await Promise.all(apps.map((app) => browser.fetch('/api/verify', { base: app.url, headers: { Authorization: `Bearer ${token}` } })));
      return results.every((r) => r.status === 200);
    };
    // Each process puts its keys back as soon as its cache reconnects.
    await waitFor('tokens minted before the restart to verify on every process', async () => (await Promise.all(before.map(verifiedEverywhere))).every(Boolean), 15_000);
    // The sessions went with Redis: sign in again, mint on each process, verify on all at once.
    await browser.json('/login/1');
    const after = await Promise.all(apps.map(async (app) => (await browser.post('/token', app.url)).body.token as string));
    for (const token of after) expect(await verifiedEverywhere(token)).toBe(true);
  });

  it('Redis frozen for 5 s: 503 while frozen, served again after SIGCONT, one outage and one recovery line each', async () => {
    // Start from a steady state: every process's cache and event bus back from the restart above
    // (readiness checks both; a bus still reconnecting would log no outage line for the freeze).
    await waitFor('every process to be ready', async () => (await Promise.all(apps.map((app) => fetch(`${app.url}/readyz`)))).every((r) => r.status === 200), 15_000);
    // A recovery line logged just now reaches stderr a few ms later (the logger gathers lines): let it arrive before the marks.
    let counts = '';
    await waitFor('the logs to settle', async () => {
      const before = counts;
      counts = apps.map((app) => app.logs.length).join();
      await new Promise((r) => setTimeout(r, 100));
      return counts === before && counts === apps.map((app) => app.logs.length).join();
    }, 5000);
    const browser = new Browser(proxy.url);
    await browser.json('/login/1');
    const marks = apps.map((app) => app.logs.length);
    redis.signal('SIGSTOP');
    const frozenAt = Date.now();
    try {
      const during = await Promise.all(apps.map((app) => browser.json<{ code: string }>('/counter', { base: app.url })));
      for (const { status, body } of during) {
        expect(status).toBe(503);
        expect(body.code).toBe('CACHE_UNAVAILABLE');
      }
      await new Promise((r) => setTimeout(r, Math.max(0, 5000 - (Date.now() - frozenAt))));
    } finally {
      redis.signal('SIGCONT');
    }
    await waitFor(
      'every process to serve the session again within 1 s of SIGCONT',
      async () => (await Promise.all(apps.map((app) => browser.fetch('/counter', { base: app.url })))).every((r) => r.status === 200),
      1000,
    );
    for (const [i, app] of apps.entries()) {
      await waitFor(
        'the recovery lines',
        () => ['events: Redis bus available again', 'cache: Redis available again'].every((line) => logsSince(app, marks[i]!, line).length > 0),
        5000,
      );
      expect(logsSince(app, marks[i]!, 'cache: Redis unavailable')).toHaveLength(1);
      expect(logsSince(app, marks[i]!, 'cache: Redis available again')).toHaveLength(1);
      expect(logsSince(app, marks[i]!, 'events: Redis bus unavailable')).toHaveLength(1);
      expect(logsSince(app, marks[i]!, 'events: Redis bus available again')).toHaveLength(1);
      // No stack per request during the outage: the 503s themselves are not logged.
      expect(logsSince(app, marks[i]!, 'request failed')).toEqual([]);
    }
  });

  it('PostgreSQL frozen for 5 s: 503 + Retry-After while frozen, served again after SIGCONT, one outage and one recovery line each', async () => {
    for (const app of apps) expect((await fetch(`${app.url}/db`)).status).toBe(200);
    const marks = apps.map((app) => app.logs.length);
    pg.signal('SIGSTOP');
    const frozenAt = Date.now();
    try {
      const during = await Promise.all(apps.map((app) => fetch(`${app.url}/db`, { headers: { Accept: 'application/json' } })));
      for (const res of during) {
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('5');
        expect(((await res.json()) as { code: string }).code).toBe('DATABASE_UNAVAILABLE');
      }
      await new Promise((r) => setTimeout(r, Math.max(0, 5000 - (Date.now() - frozenAt))));
    } finally {
      pg.signal('SIGCONT');
    }
    await waitFor(
      'every process to query the database again within 1 s of SIGCONT',
      async () => (await Promise.all(apps.map((app) => fetch(`${app.url}/db`)))).every((r) => r.status === 200),
      1000,
    );
    for (const [i, app] of apps.entries()) {
      // The log lines travel through a pipe and may land just after the answers.
      await waitFor('the recovery line', () => logsSince(app, marks[i]!, 'database: bind "main" available again').length > 0, 5000);
      expect(logsSince(app, marks[i]!, 'database: bind "main" unavailable')).toHaveLength(1);
      expect(logsSince(app, marks[i]!, 'database: bind "main" available again')).toHaveLength(1);
      expect(logsSince(app, marks[i]!, 'request failed')).toEqual([]);
    }
  });

  it('a rolling restart of all three under steady load loses no request: each replaced by a new process, the old one drained', async () => {
    let stop = false;
    let served = 0;
    const lost: string[] = [];
    const loop = async (): Promise<void> => {
      for (let i = 0; !stop; i++) {
        try {
          const res = await fetch(`${proxy.url}/${i % 5 === 0 ? 'slow' : 'pid'}`);
          await res.arrayBuffer();
          if (res.status === 200) served++;
          else lost.push(`status ${res.status}`);
        } catch (error) {
          lost.push(String(error));
        }
      }
    };
    const load = Array.from({ length: 4 }, () => loop());
    const oldPids = new Set(apps.map((a) => a.child.pid));
    // The new processes boot side by side (booting is most of the time this takes); then, as a
    // rolling deployment does, each joins the rotation before its old one leaves.
    const replacements = await Promise.all(apps.map(() => startApp({ root, prismaClient: prisma.client })));
    for (const [i, old] of apps.entries()) {
      apps[i] = replacements[i]!;
      proxy.add(apps[i]!.url);
      await proxy.waitReady(apps[i]!.url);
      expect(await old.stop('SIGTERM')).toBe(0);
      expect(logsSince(old, 0, 'draining: readiness answers 503')).toHaveLength(1);
      proxy.remove(old.url);
    }
    stop = true;
    await Promise.all(load);
    expect(lost).toEqual([]);
    expect(proxy.failures).toEqual([]);
    expect(served).toBeGreaterThan(100);
    for (const app of apps) expect(oldPids.has(app.child.pid)).toBe(false);
  });
});

describe('one --workers 3 cluster behind the proxy', () => {
  let proxy: Proxy;
  let cluster: AppProcess;

  beforeAll(async () => {
    cluster = await startApp({ root: project(1), prismaClient: prisma.client, workers: 3 });
    apps.push(cluster);
    proxy = await startProxy([cluster.url], { keepAlive: false });
    await proxy.waitReady(cluster.url);
  });

  afterAll(async () => {
    await proxy?.close();
  });

  it('announces its workers and its backends once', () => {
    expect(cluster.out.filter((l) => l.includes('serving at'))).toEqual([`fw: scale serving at ${cluster.url} (3 workers)`]);
    expect(cluster.out.filter((l) => l.startsWith('fw: backends:'))).toHaveLength(1);
  });

  it('shares sessions, CSRF, the exact rate limit, JWTs and events between its workers', () => sharedState(() => proxy, () => [cluster.url, cluster.url, cluster.url]));

  it('SIGTERM: in-flight requests finish, every worker drains and the primary exits 0', async () => {
    const workerPids = new Set(await Promise.all([1, 2, 3, 4, 5, 6].map(() => pidOf(cluster.url))));
    expect(workerPids.size).toBe(3);
    const slow = fetch(`${cluster.url}/slow`);
    await new Promise((r) => setTimeout(r, 100));
    const code = cluster.stop('SIGTERM');
    const res = await slow;
    expect(res.status).toBe(200);
    expect(await code).toBe(0);
    for (const pid of workerPids) expect(() => process.kill(pid, 0)).toThrow();
  });
});
