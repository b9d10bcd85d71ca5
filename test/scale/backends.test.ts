/**
 * Where the app keeps what its processes must share: the one startup line, the loud warnings
 * when the deployment (`--workers`, `FW_INSTANCES`) outgrows a per-process or per-host backend,
 * and the warning when processes sharing a Redis have different SECRET_KEYs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Fluid } from '@fw/kernel';
import { installAuth } from '@fw/kernel/auth';
import { secretFingerprint } from '@fw/kernel/health';
import { reportBackends } from '@fw/kernel/core';
import { Database, registerDatabase } from '@fw/kernel/db';
import { limit } from '@fw/kernel/limits';
import { testUsers } from '../auth/helpers.js';
import { cleanupProjects, makeFluid, memoryLogger } from '../kernel/helpers.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { waitFor } from './cluster.js';

let redis: TestRedis;
const fluids: Fluid[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await Promise.all(fluids.map((f) => f.close()));
  await redis.stop();
  cleanupProjects();
});

/** An app with a rate-limited route and an event, on `config`. */
function app(config: Record<string, unknown>): { fluid: Fluid; lines: string[] } {
  const logger = memoryLogger();
  const fluid = makeFluid({ config }, { logger });
  fluid.app.get('login', '/login', limit('5/minute'), () => 'ok');
  fluid.events.createSignal('news');
  fluids.push(fluid);
  return { fluid, lines: logger.lines };
}

describe('a loopback BASE_URL in production', () => {
  it('warns once at startup with DEBUG off (mail links would point at the server itself); not with DEBUG on or a public URL', async () => {
    const start = async (config: Record<string, unknown>): Promise<string[]> => {
      const { fluid, lines } = app(config);
      const served = await serve(fluid, { port: 0, host: '127.0.0.1', signals: [], exit: false, print: () => undefined });
      await served.close();
      return lines.filter((l) => l.includes('a loopback address'));
    };
    const warned = await start({ DEBUG: false, BASE_URL: 'http://127.0.0.1:8000' });
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain('warn BASE_URL is http://127.0.0.1:8000, a loopback address, and DEBUG is off: absolute links');
    expect(await start({ DEBUG: false, BASE_URL: 'http://localhost:8000' })).toHaveLength(1);
    expect(await start({ DEBUG: true, BASE_URL: 'http://127.0.0.1:8000' })).toEqual([]);
    expect(await start({ DEBUG: false, BASE_URL: 'https://app.example.com' })).toEqual([]);
  });
});

describe('the backends line and the scale-out warnings', () => {
  it('serve() says which backend each part uses; FW_INSTANCES=2 on per-process backends warns for each', async () => {
    const { fluid, lines } = app({ CACHE_TYPE: 'memory', FW_INSTANCES: 2 });
    const printed: string[] = [];
    const served = await serve(fluid, { port: 0, host: '127.0.0.1', signals: [], exit: false, print: (l) => printed.push(l) });
    // The backends first, then "serving at", as with workers (it came first with one process).
    expect(printed).toEqual(['fw: backends: events in-process (this process), rate limits memory (this process), cache memory (this process)', `fw: demo serving at ${served.url}`]);
    const warnings = lines.filter((l) => l.startsWith('warn SCALE-OUT:'));
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toContain('the events backend (in-process) is per process, but FW_INSTANCES=2 hosts serve this app: an event triggered in one process reaches only');
    expect(warnings[1]).toContain('the rate limits backend (memory) is per process, but FW_INSTANCES=2 hosts serve this app: each process counts its own requests');
    expect(warnings[2]).toContain('the cache backend (memory) is per process');
    expect(warnings[2]).toContain('Fix: CACHE_TYPE=redis');
    await served.close();
  });

  it('2 workers on one host: the file cache is shared, the in-process events and counters are not', async () => {
    const { fluid, lines } = app({});
    await fluid.mix();
    const backends = reportBackends(fluid, { workers: 2, print: () => undefined });
    expect(backends.map((b) => [b.name, b.kind, b.scope])).toEqual([
      ['events', 'in-process', 'process'],
      ['rate limits', 'memory', 'process'],
      ['cache', 'file', 'host'],
    ]);
    const warnings = lines.filter((l) => l.startsWith('warn SCALE-OUT:'));
    expect(warnings.map((w) => /the (.+?) backend/.exec(w)![1])).toEqual(['events', 'rate limits']);
    expect(warnings[0]).toContain('but 2 worker processes serve this app');
  });

  it('everything on Redis: no warning, also for 3 workers on FW_INSTANCES=4 hosts', async () => {
    const { fluid, lines } = app({ CACHE_TYPE: 'redis', CACHE_REDIS_URL: redis.url, FW_INSTANCES: 4 });
    await fluid.mix();
    const printed: string[] = [];
    reportBackends(fluid, { workers: 3, print: (l) => printed.push(l) });
    expect(printed).toEqual(['fw: backends: events redis bus (shared), rate limits redis (shared), cache redis (shared)']);
    expect(lines.filter((l) => l.startsWith('warn SCALE-OUT'))).toEqual([]);
  });
});

describe('database binds in the backends line', () => {
  /** An app on Redis with a `Database` of `binds` (a client class of its own: nothing connects). */
  async function dbApp(binds: Record<string, string>): Promise<{ printed: string[]; lines: string[] }> {
    const { fluid, lines } = app({ CACHE_TYPE: 'redis', CACHE_REDIS_URL: redis.url, FW_INSTANCES: 2, DATABASE_BINDS: binds });
    class Client {
      constructor(readonly options: unknown) {}
      $connect = async (): Promise<void> => undefined;
      $disconnect = async (): Promise<void> => undefined;
    }
    const clients = Object.fromEntries(Object.keys(binds).map((name) => [name, Client]));
    registerDatabase(fluid, new Database({ binds: fluid.config.DATABASE_BINDS, root: fluid.root, clients }));
    await fluid.mix();
    const printed: string[] = [];
    reportBackends(fluid, { workers: 2, print: (l) => printed.push(l) });
    return { printed, lines };
  }

  it('a SQLite bind on FW_INSTANCES=2 hosts is named and warned: each host would have its own database', async () => {
    const { printed, lines } = await dbApp({ main: 'file:./var/main.db', reports: 'postgresql://app@db.example.com:5432/reports' });
    expect(printed).toEqual([
      'fw: backends: events redis bus (shared), rate limits redis (shared), cache redis (shared), database main sqlite (this host), database reports postgresql (shared)',
    ]);
    const warnings = lines.filter((l) => l.startsWith('warn SCALE-OUT:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('the database main backend (sqlite) is per host, but 2 worker processes on FW_INSTANCES=2 hosts serve this app: each host has its own SQLite file');
    expect(warnings[0]).toContain('Fix: point DATABASE_BINDS.main (or DATABASE_URL) at one PostgreSQL server');
  });
});

describe('SECRET_KEY fingerprints in the shared Redis', () => {
  function authApp(secret: string): { fluid: Fluid; lines: string[] } {
    const logger = memoryLogger();
    const fluid = makeFluid({ config: { CACHE_TYPE: 'redis', CACHE_REDIS_URL: redis.url }, ini: `SECRET_KEY = ${secret}\n` }, { logger });
    installAuth(fluid, { users: testUsers() });
    fluids.push(fluid);
    return { fluid, lines: logger.lines };
  }

  it('a process whose SECRET_KEY differs from another\'s says so, naming both fingerprints; the same key says nothing', async () => {
    const a = authApp('the-first-secret-key-of-this-test');
    const same = authApp('the-first-secret-key-of-this-test');
    await a.fluid.mix();
    await same.fluid.mix();
    const other = authApp('another-secret-key-entirely-different');
    await other.fluid.mix();
    await waitFor('the warning', () => other.lines.some((l) => l.startsWith('error SECRET_KEY differs')), 5000);
    const warning = other.lines.find((l) => l.startsWith('error SECRET_KEY differs'))!;
    expect(warning).toMatch(/SECRET_KEY differs between the processes of demo: this process \(host .+, pid \d+\) has fingerprint [0-9a-f]{12}, host .+ pid \d+ has [0-9a-f]{12}\. Sessions, CSRF tokens and JWTs signed by one are rejected by the other/);
    expect(warning).not.toContain('the-first-secret');
    expect(same.lines.filter((l) => l.includes('SECRET_KEY differs'))).toEqual([]);
  });

  it('a process that shut down withdraws its fingerprint: the next one with a rotated key is not told about it', async () => {
    const retired = authApp('the-key-before-the-rotation-of-this-test');
    await retired.fluid.mix();
    await retired.fluid.close();
    const rotated = authApp('the-key-after-the-rotation-of-this-test');
    await rotated.fluid.mix();
    const keys = await rotated.fluid.cache.keys('fw:secret:demo:');
    expect(keys).not.toContain(`fw:secret:demo:${secretFingerprint('the-key-before-the-rotation-of-this-test')}`);
  });
});

describe('a short SECRET_KEY', () => {
  /** The SECRET_KEY warnings of an app started with `ini`. */
  async function warnings(ini: string): Promise<string[]> {
    const logger = memoryLogger();
    const fluid = makeFluid({ ini }, { logger });
    fluids.push(fluid);
    await fluid.mix();
    return logger.lines.filter((l) => l.includes('SECRET_KEY'));
  }

  it('is a startup warning outside debug, naming its length and how to make a good one', async () => {
    expect(await warnings('SECRET_KEY = hunter2\n')).toEqual([
      'warn SECRET_KEY of demo is 7 characters; use at least 32 random ones (`openssl rand -hex 32`): ' +
        'sessions, CSRF tokens and JWTs signed with a short key can be forged by guessing it',
    ]);
  });

  it('is not warned about in debug, nor at 32 characters', async () => {
    expect(await warnings('SECRET_KEY = hunter2\nDEBUG = true\n')).toEqual([]);
    expect(await warnings(`SECRET_KEY = ${'k'.repeat(32)}\n`)).toEqual([]);
  });
});

describe('DEBUG left on outside the dev loop', () => {
  /** The DEBUG warnings of serve() for an app started with `config`, and the body of a failing API request. */
  async function served(config: Record<string, unknown>): Promise<{ warnings: string[]; failed: string }> {
    const logger = memoryLogger();
    const fluid = makeFluid({ config }, { logger });
    fluid.api.get('boom', '/boom', () => {
      throw new Error('the internals of this app');
    });
    fluids.push(fluid);
    const running = await serve(fluid, { port: 0, host: '127.0.0.1', signals: [], exit: false, print: () => undefined });
    const failed = await (await fetch(`${running.url}/api/boom`)).text();
    await running.close();
    return { warnings: logger.lines.filter((l) => l.startsWith('warn DEBUG')), failed };
  }

  it('is a startup warning of serve() naming what a visitor then sees and how to turn it off', async () => {
    const { warnings, failed } = await served({ DEBUG: true });
    expect(failed).toContain('the internals of this app');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('DEBUG is on, but FW_ENV is not "development"');
    expect(warnings[0]).toContain('shows every visitor the debug page');
    expect(warnings[0]).toContain('set DEBUG=false or remove DEBUG from fw.json "config", app_configs/demo.ini and the environment');
  });

  it('is not warned about under npm run dev (FW_ENV=development), nor with DEBUG off', async () => {
    expect((await served({ DEBUG: true, FW_ENV: 'development' })).warnings).toEqual([]);
    const off = await served({});
    expect(off.warnings).toEqual([]);
    expect(off.failed).not.toContain('the internals of this app');
  });
});
