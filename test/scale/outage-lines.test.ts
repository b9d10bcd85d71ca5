/**
 * Outage and recovery lines are one line each, in both log formats: the cause's message and code,
 * never a stack or Prisma's excerpt of the calling code (docs/logging.md, "Outages").
 *
 * Two real app processes (fixtures/server.ts), one logging JSON and one text, share a real
 * redis-server (killed, then started again) and a real PostgreSQL (shut down, then started again).
 * Every part that watches a backend logs its outage line and its recovery line: the cache, the
 * rate limiter and the event bus for Redis, the bind `main` for PostgreSQL.
 */
import pgClient from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupProjects, makeProject } from '../kernel/helpers.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { prismaClient, startApp, waitFor, type AppProcess } from './cluster.js';

let redis: TestRedis;
let pg: TestPostgres;
let prisma: { client: string; cleanup(): Promise<void> };
let json: AppProcess;
let text: AppProcess;

const REDIS_OUTAGE = ['cache: Redis unavailable', 'rate limiter: Redis store unavailable', 'events: Redis bus unavailable'];
const REDIS_RECOVERY = ['cache: Redis available again', 'rate limiter: Redis store available again', 'events: Redis bus available again'];
const DB_OUTAGE = ['database: bind "main" unavailable'];
const DB_RECOVERY = ['database: bind "main" available again'];

beforeAll(async () => {
  [redis, pg, prisma] = await Promise.all([startRedis(), startPostgres(), prismaClient()]);
  const admin = new pgClient.Client({ connectionString: pg.url() });
  await admin.connect();
  await admin.query('CREATE TABLE "Note" (id serial PRIMARY KEY, text text NOT NULL)');
  await admin.end();
  const root = makeProject({
    name: 'outage-lines',
    config: {
      CACHE_TYPE: 'redis',
      CACHE_REDIS_URL: redis.url,
      DATABASE_BINDS: { main: pg.url() },
      REDIS_TIMEOUT: 1,
      DATABASE_CONNECT_TIMEOUT: 1,
      DATABASE_STATEMENT_TIMEOUT: 1,
      SERVER_DRAIN_DELAY: 0,
      FW_LOG_REQUESTS: false,
    },
    ini: 'SECRET_KEY = one-secret-for-both-processes-of-the-outage-suite\n',
  });
  [json, text] = await Promise.all([
    startApp({ root, prismaClient: prisma.client, logFormat: 'json' }),
    startApp({ root, prismaClient: prisma.client, logFormat: 'text' }),
  ]);
});

afterAll(async () => {
  await Promise.all([json?.stop('SIGTERM', 15_000), text?.stop('SIGTERM', 15_000)]);
  await Promise.all([redis?.stop(), pg?.stop(), prisma?.cleanup()]);
  cleanupProjects();
});

/** The stderr lines of `app` after `mark` that start (after the level, in text) with one of `prefixes`. */
function linesOf(app: AppProcess, mark: number, prefixes: readonly string[], format: 'json' | 'text'): Map<string, string[]> {
  const found = new Map<string, string[]>(prefixes.map((p) => [p, []]));
  for (const line of app.stderr.slice(mark)) {
    const msg = format === 'json' ? ((JSON.parse(line) as { msg?: unknown }).msg as string) : line.replace(/^(debug|info|warn|error) /, '');
    for (const prefix of prefixes) if (typeof msg === 'string' && msg.startsWith(prefix)) found.get(prefix)!.push(line);
  }
  return found;
}

/** Waits until each of `prefixes` has a line in both apps' logs since their marks; returns them. */
async function awaitLines(marks: { json: number; text: number }, prefixes: readonly string[]): Promise<{ json: Map<string, string[]>; text: Map<string, string[]> }> {
  const all = () => ({ json: linesOf(json, marks.json, prefixes, 'json'), text: linesOf(text, marks.text, prefixes, 'text') });
  await waitFor(`the lines ${prefixes.join(', ')}`, () => Object.values(all()).every((m) => [...m.values()].every((lines) => lines.length > 0)), 15_000);
  // A line logged just now reaches stderr a few ms later (the logger gathers lines): let the rest arrive.
  await new Promise((r) => setTimeout(r, 200));
  return all();
}

/** Every stderr line since `mark` is a whole record: JSON lines parse, text lines start with their level (a stack frame does not). */
function expectWholeRecords(marks: { json: number; text: number }): void {
  for (const line of json.stderr.slice(marks.json)) expect(() => JSON.parse(line), line).not.toThrow();
  for (const line of text.stderr.slice(marks.text)) expect(line).toMatch(/^(debug|info|warn|error) /);
}

/** One line each, no newline or stack frame inside it, and (on an outage line) the cause named by `cause`. */
function expectOneLine(found: { json: Map<string, string[]>; text: Map<string, string[]> }, cause?: RegExp): void {
  for (const [format, lines] of Object.entries(found)) {
    for (const [prefix, matching] of lines) {
      expect(matching, `${format}: ${prefix}`).toHaveLength(1);
      const line = matching[0]!;
      // JSON.stringify writes a newline inside a value as \n: neither a raw nor an escaped one may appear.
      expect(line, `${format}: ${prefix}`).not.toMatch(/\n|\\n/);
      expect(line, `${format}: ${prefix}`).not.toMatch(/\bat .*:\d+:\d+|"stack"|→/);
      if (cause) expect(line, `${format}: ${prefix}`).toMatch(cause);
    }
  }
}

describe('outage and recovery lines, JSON and text', () => {
  it('Redis killed and started again: cache, rate limiter and event bus each log one line for each, without a stack', async () => {
    const marks = { json: json.stderr.length, text: text.stderr.length };
    redis.signal('SIGKILL');
    await redis.exited;
    // Requests that need Redis while it is down (a rate limit, a session): 503s, and no line of their own.
    for (const app of [json, text]) {
      for (const route of ['/limited', '/login/1']) expect((await fetch(app.url + route, { headers: { Accept: 'application/json' } })).status).toBe(503);
    }
    const outage = await awaitLines(marks, REDIS_OUTAGE);
    redis = await startRedis({ port: redis.port });
    const recovery = await awaitLines(marks, REDIS_RECOVERY);
    // Which comes first depends on the moment: the closed connection, or a socket error with its code (ECONNREFUSED, EPIPE, ECONNRESET).
    expectOneLine(outage, /"error":"connection to Redis lost"|"error":"[^"]*\bE[A-Z]+\b[^"]*","code":"E[A-Z]+"/);
    expectOneLine(recovery);
    expectWholeRecords(marks);
  });

  it('PostgreSQL shut down and started again: the bind logs one line for each, naming the cause without Prisma\'s code excerpt', async () => {
    for (const app of [json, text]) expect((await fetch(`${app.url}/notes`)).status).toBe(200);
    const marks = { json: json.stderr.length, text: text.stderr.length };
    pg.halt();
    // A model query first: Prisma's message for it quotes the calling code.
    for (const app of [json, text]) {
      for (const route of ['/notes', '/db']) expect((await fetch(app.url + route, { headers: { Accept: 'application/json' } })).status).toBe(503);
    }
    const outage = await awaitLines(marks, DB_OUTAGE);
    pg.start();
    const recovery = await awaitLines(marks, DB_RECOVERY);
    // The server named, or the cause's code (Prisma's P1001 or P1017, a socket's, a SQLSTATE).
    expectOneLine(outage, new RegExp(`127\\.0\\.0\\.1:${pg.port}|"code":"(P\\d{4}|E[A-Z]+|[0-9A-Z]{5})"`));
    expectOneLine(recovery);
    expectWholeRecords(marks);
  });
});
