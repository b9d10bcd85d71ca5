/**
 * `DATABASE_URL_FILE` and `REDIS_URL_FILE` (the Docker and Kubernetes secrets convention): a
 * built app started by the real `fw start --workers 2` (generators/dist/bin/fw.js), its URLs in
 * real files, on a real PostgreSQL and a real Redis. The workers use the files' database and
 * Redis; the startup lines name each file and say so once (the primary), never with the password;
 * `/readyz` checks the events bus only when the backends line names it. Mistakes stop the start
 * with one `error:` line naming the variable and the file.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupProjects, makeProject } from '../kernel/helpers.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { startRedis, type TestRedis } from '../support/redis.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const FW_BIN = path.join(REPO, 'generators/dist/bin/fw.js');
const KERNEL = pathToFileURL(path.join(REPO, 'runtime-kernel/dist/index.js')).href;
const PG = pathToFileURL(path.join(REPO, 'node_modules/pg/esm/index.mjs')).href;
const PASSWORD = 's3cret-in-a-file';

let postgres: TestPostgres;
let redis: TestRedis;
const running = new Set<ChildProcess>();

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  const client = new pg.Client(postgres.url('fw_test'));
  await client.connect();
  try {
    await client.query('CREATE DATABASE from_secret');
  } finally {
    await client.end();
  }
});
afterAll(async () => {
  for (const child of running) if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGKILL');
  await Promise.all([postgres?.stop(), redis?.stop()]);
  cleanupProjects();
});

/** The URL of `database` on the test server with a password (the server trusts loopback, so it is never checked). */
const withPassword = (database: string): string => postgres.url(database).replace(/^postgresql:\/\/fw_test@/, `postgresql://fw_test:${PASSWORD}@`);

/**
 * A built project (`dist/fluid/server.js`, as `fw build` leaves it) whose `fw.json` keeps its
 * bind on PostgreSQL (a database that does not exist: only the secret's URL works) and its cache
 * in Redis (with no URL: only the secret gives one). `/where` answers the database the bind's URL
 * reaches and the process; `/cache` writes and reads the shared cache. `events`: the app has one.
 */
function built(options: { events: boolean }): string {
  const root = makeProject({
    name: 'secrets',
    config: { DATABASE_BINDS: { main: postgres.url('not_this_one') }, CACHE_TYPE: 'redis', FW_LOG_REQUESTS: false },
    files: { 'secrets/database_url': `${withPassword('from_secret')}\n`, 'secrets/redis_url': `${redis.url.replace(/\/0$/, '/3')}\n` },
  });
  mkdirSync(path.join(root, 'dist/fluid'), { recursive: true });
  writeFileSync(
    path.join(root, 'dist/fluid/server.js'),
    `import { Fluid, serve, serveArgs, startupFailed } from ${JSON.stringify(KERNEL)};
import pg from ${JSON.stringify(PG)};
try {
  const fluid = new Fluid({ root: new URL('../..', import.meta.url) });
  ${options.events ? "fluid.events.createSignal('news');" : ''}
  fluid.app.get('where', '/where', async () => {
    const client = new pg.Client({ connectionString: fluid.config.DATABASE_BINDS.main });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT current_database() AS db');
      return { database: rows[0].db, pid: process.pid };
    } finally {
      await client.end();
    }
  });
  fluid.app.get('put', '/put/:value', async (ctx) => {
    await fluid.cache.set('shared', ctx.params.value);
    return { pid: process.pid };
  });
  fluid.app.get('get', '/get', async () => ({ value: await fluid.cache.get('shared'), pid: process.pid }));
  await serve(fluid, serveArgs(process.argv.slice(2)));
} catch (err) {
  startupFailed(err);
}
`,
  );
  return root;
}

/** GETs `url` on a connection of its own (so the cluster's round robin spreads the requests) and parses the JSON body. */
function get<T>(url: string): Promise<{ status: number; body: T }> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as T }));
    })
      .on('error', reject)
      .end();
  });
}

/** The environment of a started app: this one without fw's database and Redis variables, plus `env`. */
function environment(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const key of Object.keys(base)) if (/^(DATABASE_|REDIS_|CACHE_|SECRET_KEY|FW_)/.test(key)) delete base[key];
  return { ...base, FW_LOG_FORMAT: 'text', ...env };
}

/** `fw start --workers 2` on `root`; resolves with its URL once it serves, and what it printed so far (and later). */
async function start(root: string, env: Record<string, string>): Promise<{ url: string; output: () => string; stop: () => Promise<number | null> }> {
  const fw = spawn(process.execPath, [FW_BIN, 'start', '--workers', '2', '--port', '0', '--host', '127.0.0.1'], {
    cwd: root,
    env: environment(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running.add(fw);
  let out = '';
  fw.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  fw.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => fw.once('close', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const check = (): void => {
      const match = /fw: secrets serving at (http:\/\/\S+) \(2 workers\)/.exec(out);
      if (match) resolve(match[1]!);
    };
    fw.stdout!.on('data', check);
    void exited.then((code) => reject(new Error(`fw start exited with ${code} before serving: ${out}`)));
  });
  return {
    url,
    output: () => out,
    stop: async () => {
      fw.kill('SIGTERM');
      const code = await exited;
      running.delete(fw);
      return code;
    },
  };
}

/** The `fw: backends:` line (the first worker prints it once it listens, around when the primary says it serves). */
async function backendsLine(output: () => string): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const line = output()
      .split('\n')
      .find((l) => l.startsWith('fw: backends: '));
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no backends line: ${output()}`);
}

describe('fw start --workers 2 with DATABASE_URL_FILE and REDIS_URL_FILE', () => {
  it('every worker uses the files\' PostgreSQL database and Redis; the startup lines name the files once, without the password', async () => {
    const root = built({ events: false });
    const databaseFile = path.join(root, 'secrets/database_url');
    const redisFile = path.join(root, 'secrets/redis_url');
    // Relative paths are read from the project root, as for fw's own X_FILE keys.
    const app = await start(root, { DATABASE_URL_FILE: 'secrets/database_url', REDIS_URL_FILE: redisFile, FW_LOG_LEVEL: 'info' });
    try {
      const pids = new Set<number>();
      for (let i = 0; i < 30 && pids.size < 2; i++) {
        const { body } = await get<{ database: string; pid: number }>(`${app.url}/where`);
        expect(body.database).toBe('from_secret');
        pids.add(body.pid);
      }
      expect(pids.size).toBe(2);
      // The cache both workers share is the file's Redis.
      expect((await get(`${app.url}/put/from-the-secret`)).status).toBe(200);
      const readers = new Set<number>();
      for (let i = 0; i < 30 && readers.size < 2; i++) {
        const { body } = await get<{ value: string; pid: number }>(`${app.url}/get`);
        expect(body.value).toBe('from-the-secret');
        readers.add(body.pid);
      }
      expect(readers.size).toBe(2);

      // An app without events: the backends line leaves them out, and so does readiness.
      const backends = await backendsLine(app.output);
      expect(backends).not.toContain('events');
      const ready = await fetch(`${app.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready', checks: { cache: 'ok' } });

      const output = app.output();
      const shown = withPassword('from_secret').replace(PASSWORD, '<redacted>');
      const database = `database: bind "main" uses DATABASE_URL from ${databaseFile} (DATABASE_URL_FILE in the environment) (${shown})`;
      const cache = `cache: CACHE_REDIS_URL is REDIS_URL from ${redisFile} (REDIS_URL_FILE in the environment) (${redis.url.replace(/\/0$/, '/3')})`;
      // Once: the primary says it, the two workers that loaded the same config do not.
      expect(output.split(database).length - 1, output).toBe(1);
      expect(output.split(cache).length - 1, output).toBe(1);
      expect(output).not.toContain(PASSWORD);
    } finally {
      expect(await app.stop()).toBe(0);
    }
  });

  it('with an event, the backends line names the Redis bus and readiness checks it', async () => {
    const root = built({ events: true });
    const app = await start(root, { DATABASE_URL_FILE: path.join(root, 'secrets/database_url'), REDIS_URL_FILE: path.join(root, 'secrets/redis_url') });
    try {
      expect(await backendsLine(app.output)).toContain('events redis bus (shared)');
      const ready = await fetch(`${app.url}/readyz`);
      expect(await ready.json()).toEqual({ status: 'ready', checks: { cache: 'ok', events: 'ok' } });
    } finally {
      expect(await app.stop()).toBe(0);
    }
  });

  it('a missing file, both forms set, an empty file, or a URL of the wrong family stops the start with one line naming the variable and the file', () => {
    const root = built({ events: false });
    const run = (env: Record<string, string>) => {
      const ran = spawnSync(process.execPath, [FW_BIN, 'start', '--workers', '2', '--port', '0', '--host', '127.0.0.1'], { cwd: root, env: environment(env), encoding: 'utf8' });
      return { status: ran.status, stderr: ran.stderr };
    };
    const missing = path.join(root, 'secrets/nope');
    expect(run({ DATABASE_URL_FILE: missing })).toEqual({
      status: 1,
      stderr: `error: environment: DATABASE_URL_FILE: cannot read ${missing} (ENOENT); DATABASE_URL is read from that file\n`,
    });
    expect(run({ REDIS_URL_FILE: missing })).toEqual({
      status: 1,
      stderr: `error: environment: REDIS_URL_FILE: cannot read ${missing} (ENOENT); REDIS_URL is read from that file\n`,
    });
    // Both in one layer: refused, as for fw's own X and X_FILE keys.
    expect(run({ DATABASE_URL: withPassword('from_secret'), DATABASE_URL_FILE: 'secrets/database_url' })).toEqual({
      status: 1,
      stderr: 'error: environment: both DATABASE_URL and DATABASE_URL_FILE are set; set only one\n',
    });
    writeFileSync(path.join(root, 'secrets/empty'), '\n');
    expect(run({ DATABASE_URL_FILE: 'secrets/empty' })).toEqual({
      status: 1,
      stderr: `error: environment: DATABASE_URL_FILE: ${path.join(root, 'secrets/empty')} is empty; expected the DATABASE_URL in it\n`,
    });
    const sqlite = path.join(root, 'secrets/sqlite_url');
    writeFileSync(sqlite, 'file:./var/main.db\n');
    const family = run({ DATABASE_URL_FILE: sqlite, REDIS_URL_FILE: 'secrets/redis_url' });
    expect(family.status).toBe(1);
    expect(family.stderr.startsWith(`error: ${sqlite} (DATABASE_URL_FILE in the environment): DATABASE_URL: a sqlite URL, but bind "main" is postgresql in DATABASE_BINDS`), family.stderr).toBe(true);
    // Its advice names the variable that was set, not DATABASE_URL.
    expect(family.stderr.endsWith('or unset DATABASE_URL_FILE\n'), family.stderr).toBe(true);
    writeFileSync(path.join(root, 'secrets/redis_bad'), `default:${PASSWORD}@redis.example:6379\n`);
    const redisBad = run({ REDIS_URL_FILE: 'secrets/redis_bad' });
    expect(redisBad.stderr).toBe(
      `error: ${path.join(root, 'secrets/redis_bad')} (REDIS_URL_FILE in the environment): REDIS_URL: got "<redacted>@redis.example:6379"; ` +
        'expected a redis:// or rediss:// URL (fw uses REDIS_URL as CACHE_REDIS_URL)\n',
    );
  });

  it('in .env, under the real environment: the environment\'s DATABASE_URL wins over .env\'s DATABASE_URL_FILE; the line names .env\'s line', async () => {
    const root = built({ events: false });
    writeFileSync(path.join(root, '.env'), '# secrets mounted by the platform\nDATABASE_URL_FILE=secrets/database_url\nREDIS_URL_FILE=secrets/redis_url\n');
    const fromDotenv = await start(root, { FW_LOG_LEVEL: 'info' });
    try {
      expect((await get(`${fromDotenv.url}/where`)).body).toMatchObject({ database: 'from_secret' });
      expect(fromDotenv.output()).toContain(`uses DATABASE_URL from ${path.join(root, 'secrets/database_url')} (DATABASE_URL_FILE at .env:2) (`);
    } finally {
      expect(await fromDotenv.stop()).toBe(0);
    }
    const fromEnvironment = await start(root, { DATABASE_URL: postgres.url('fw_test'), FW_LOG_LEVEL: 'info' });
    try {
      expect((await get(`${fromEnvironment.url}/where`)).body).toMatchObject({ database: 'fw_test' });
      expect(fromEnvironment.output()).toContain(`database: bind "main" uses DATABASE_URL from the environment (${postgres.url('fw_test')})`);
    } finally {
      expect(await fromEnvironment.stop()).toBe(0);
    }
  });
});
