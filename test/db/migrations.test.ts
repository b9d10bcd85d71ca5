/**
 * Readiness and migrations that were never applied: an app whose `prisma/<bind>/migrations` holds
 * migrations its databases lack (`fw migrate deploy` not run) answers `/readyz` 503, says why once
 * in the log, and turns ready once they are applied, on SQLite and on a real PostgreSQL. And
 * `DATABASE_URL` in the environment (Heroku's, Rails', Prisma's) or in the project's `.env` (where
 * Prisma's docs put it) is the primary bind's URL, for `fw migrate` and for the started app alike.
 */
import { appendFile, rm, writeFile } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, Fluid } from '@fw/kernel';
import { Database, PendingMigrationsError, registerDatabase, shippedMigrations } from '@fw/kernel/db';
import { memoryLogger, start } from '../kernel/helpers.js';
import { migrateCommandPlan, renderMigrateEnvironment, runPrismaAll } from '../../generators/src/migrate/index.js';
import { run as fwCli } from '../../generators/src/commands/index.js';
import { testIO } from '../generators/helpers.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { prismaCli, tempProject, usePrismaOffline, writeFiles } from '../support/prisma.js';

interface TestClient {
  note: { count(): Promise<number> };
  $connect(): Promise<void>;
  $disconnect(): Promise<void>;
  $queryRawUnsafe<T>(sql: string): Promise<T>;
}
type TestClientClass = new (options: { adapter?: unknown }) => TestClient;

let server: TestPostgres;
let project: { root: string; cleanup(): Promise<void> };
let clients: { main: TestClientClass; reports: TestClientClass };
/** The one migration of each bind. */
const migration: Record<string, string> = {};

async function sql(database: string, text: string): Promise<void> {
  const client = new pg.Client(server.url(database));
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  usePrismaOffline();
  server = await startPostgres();
  project = await tempProject('pending');
  // The migrations are made against development databases...
  const dev = { main: 'file:./var/dev.db', reports: server.url('reports_dev') };
  await writeFiles(project.root, renderMigrateEnvironment({ binds: dev, securityBind: 'main', projectName: 'notes' }));
  for (const bind of ['main', 'reports']) {
    await appendFile(path.join(project.root, `prisma/${bind}/schema.prisma`), '\nmodel Note {\n  id   Int    @id @default(autoincrement())\n  text String\n}\n');
  }
  await runPrismaAll(migrateCommandPlan({ action: 'dev', name: 'notes', binds: dev, root: project.root, interactive: false, force: true }));
  for (const bind of ['main', 'reports']) {
    const made = await shippedMigrations(path.join(project.root, 'prisma', bind, 'migrations'));
    expect(made).toHaveLength(1);
    migration[bind] = made![0]!;
  }
  for (const bind of ['main', 'reports']) {
    const result = prismaCli(['generate', '--config', `prisma/${bind}/prisma.config.ts`], { cwd: project.root });
    expect(result.status, result.output).toBe(0);
  }
  const load = async (bind: string) =>
    ((await import(pathToFileURL(path.join(project.root, `generated/prisma/${bind}/client.ts`)).href)) as { PrismaClient: TestClientClass }).PrismaClient;
  clients = { main: await load('main'), reports: await load('reports') };
  // ...and the app is deployed against fresh ones, where nobody ran `fw migrate deploy` yet.
  await sql('fw_test', 'CREATE DATABASE reports_prod');
});
afterAll(async () => {
  await project?.cleanup();
  await server?.stop();
});

describe('readiness waits for the migrations the app ships', () => {
  it('answers 503 while a bind lacks migrations, logs it once, and turns ready after fw migrate deploy (SQLite and PostgreSQL)', async () => {
    const prod = { main: 'file:./var/prod.db', reports: server.url('reports_prod') };
    // A generous check bound: on a loaded CI host a check that timed out would read "failed" for another reason.
    await writeFile(path.join(project.root, 'fw.json'), JSON.stringify({ name: 'notes', config: { DATABASE_BINDS: prod, HEALTH_CHECK_TIMEOUT: 60 } }));
    const logger = memoryLogger();
    const fluid = new Fluid({ root: project.root, env: { SECRET_KEY: 'test-secret-key-for-the-db-tests' }, logger });
    const db = registerDatabase(fluid, new Database({ binds: fluid.config.DATABASE_BINDS, root: fluid.root, clients }));
    fluid.app.get('notes', '/notes', async () => ({ main: await db.bind('main').note.count(), reports: await db.bind('reports').note.count() }));
    try {
      const base = await start(fluid);
      for (let i = 0; i < 2; i++) {
        const ready = await fetch(`${base}/readyz`);
        expect(ready.status).toBe(503);
        expect(await ready.json()).toMatchObject({ status: 'unavailable', checks: { 'database.main': 'failed', 'database.reports': 'failed' } });
      }
      expect((await fetch(`${base}/notes`)).status).toBe(500); // what a load balancer must not send traffic to
      const details = await fluid.health.readiness();
      for (const bind of ['main', 'reports']) {
        expect(details.checks[`database.${bind}`]?.error).toBe(
          `bind "${bind}": 1 migration of prisma/${bind}/migrations not applied to its database (${migration[bind]}); run "npx fw migrate deploy"`,
        );
        // Said once, however many probes (and the startup check) found it.
        expect(logger.lines.filter((l) => l.startsWith(`warn database: bind "${bind}": 1 migration`))).toHaveLength(1);
      }
      expect(await db.ping('main').catch((e: unknown) => e)).toBeInstanceOf(PendingMigrationsError);

      await runPrismaAll(migrateCommandPlan({ action: 'deploy', binds: prod, root: project.root, interactive: false }));
      const ready = await fetch(`${base}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready', checks: { 'database.main': 'ok', 'database.reports': 'ok', cache: 'ok' } }]);
      expect(await (await fetch(`${base}/notes`)).json()).toEqual({ main: 0, reports: 0 });
      for (const bind of ['main', 'reports']) {
        expect(logger.lines.filter((l) => l.startsWith(`info database: bind "${bind}": its migrations are applied`))).toHaveLength(1);
      }

      // Once applied, the answer is kept: readiness no longer reads _prisma_migrations.
      await sql('reports_prod', 'DROP TABLE _prisma_migrations');
      await db.bind('main').$queryRawUnsafe('DROP TABLE _prisma_migrations');
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
    } finally {
      await fluid.close();
    }
  });

  it('a failed migration (a row without finished_at) counts as not applied; an app without a migrations folder is not checked', async () => {
    const db = new Database({ binds: { main: 'file:./var/failed.db', reports: server.url('reports_prod') }, root: project.root, clients });
    try {
      const main = db.bind('main');
      await main.$queryRawUnsafe(
        'CREATE TABLE _prisma_migrations (id TEXT PRIMARY KEY, checksum TEXT NOT NULL, finished_at DATETIME, migration_name TEXT NOT NULL, logs TEXT, rolled_back_at DATETIME, started_at DATETIME NOT NULL DEFAULT current_timestamp, applied_steps_count INTEGER NOT NULL DEFAULT 0)',
      );
      await main.$queryRawUnsafe(`INSERT INTO _prisma_migrations (id, checksum, migration_name) VALUES ('1', 'x', '${migration.main}')`);
      expect(await db.pendingMigrations('main')).toEqual([migration.main]);
    } finally {
      await db.dispose();
    }
    const bare = await tempProject('bare');
    const elsewhere = new Database({ binds: { main: 'file:./var/main.db', reports: server.url('reports_dev') }, root: bare.root, clients });
    try {
      await elsewhere.ping('main');
      expect(await elsewhere.pendingMigrations('main')).toEqual([]);
    } finally {
      await elsewhere.dispose();
      await bare.cleanup();
    }
  });
});

describe('DATABASE_URL in the environment', () => {
  it('is the URL of bind SECURITY_MODELS_DB_BIND: fw migrate deploy migrates that database and the started app serves from it', async () => {
    const config = { DATABASE_BINDS: { main: 'file:./var/dev.db', reports: server.url('reports_dev') }, SECURITY_MODELS_DB_BIND: 'reports' };
    await writeFile(path.join(project.root, 'fw.json'), JSON.stringify({ name: 'notes', config }));
    await sql('fw_test', 'CREATE DATABASE attached');
    // As a platform sets it: postgres://, not the fw.json bind.
    // (The test server trusts loopback, so the password is never asked for; the log must not show it.)
    const DATABASE_URL = server.url('attached').replace(/^postgresql:\/\/fw_test@/, 'postgres://fw_test:s3cret@');
    expect(DATABASE_URL).toContain('s3cret');

    const io = testIO(project.root);
    io.env = { ...io.env, DATABASE_URL };
    expect(await fwCli(['migrate', 'deploy', '--bind', 'reports'], io)).toBe(0);
    await sql('attached', `INSERT INTO "Note" (text) VALUES ('on the attached database')`);

    const logger = memoryLogger();
    const fluid = new Fluid({ root: project.root, env: { SECRET_KEY: 'test-secret-key-for-the-db-tests', DATABASE_URL }, logger });
    const db = registerDatabase(fluid, new Database({ binds: fluid.config.DATABASE_BINDS, root: fluid.root, clients }));
    fluid.app.get('notes', '/notes', async () => ({ reports: await db.bind('reports').note.count() }));
    try {
      const base = await start(fluid);
      expect(await (await fetch(`${base}/notes`)).json()).toEqual({ reports: 1 });
      expect((await fetch(`${base}/readyz`)).status).toBe(200); // its migrations were deployed there
      expect(logger.lines).toContain(
        `info database: bind "reports" uses DATABASE_URL from the environment (${DATABASE_URL.replace('s3cret', '<redacted>')})`,
      );
      expect(logger.lines.join('\n')).not.toContain('s3cret');
      expect(fluid.config.DATABASE_BINDS).toEqual({ main: 'file:./var/dev.db', reports: DATABASE_URL });
    } finally {
      await fluid.close();
    }

    // DATABASE_BINDS in the environment names every bind itself: DATABASE_URL is not used, and the log says so.
    const explicit = memoryLogger();
    const binds = JSON.stringify(config.DATABASE_BINDS);
    const named = new Fluid({ root: project.root, env: { SECRET_KEY: 'test-secret-key-for-the-db-tests', DATABASE_URL, DATABASE_BINDS: binds }, logger: explicit });
    expect(named.config.DATABASE_BINDS).toEqual(config.DATABASE_BINDS);
    expect(explicit.lines).toEqual(['warn DATABASE_URL is set in the environment but not used: DATABASE_BINDS is set there too, and names every bind']);
    await named.close();

    // A URL of another family than the bind's schema and migrations stops the app and fw migrate, naming DATABASE_URL.
    await writeFile(path.join(project.root, 'fw.json'), JSON.stringify({ name: 'notes', config: { ...config, SECURITY_MODELS_DB_BIND: 'main' } }));
    const mismatch = /DATABASE_URL: a postgresql URL, but bind "main" is sqlite in DATABASE_BINDS, and its schema, client and migrations were made for sqlite/;
    const error = (() => {
      try {
        return new Fluid({ root: project.root, env: { SECRET_KEY: 'test-secret-key-for-the-db-tests', DATABASE_URL } });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(mismatch);
    // The way out names the docs as a project has them (npx fw docs), not a path in fw's repository.
    expect((error as Error).message).toContain('(npx fw docs databases, "Moving a bind to another database")');
    expect((error as Error).message).not.toContain('s3cret');
    await expect(fwCli(['migrate', 'status'], io)).rejects.toThrow(mismatch);
  });
});

describe('DATABASE_URL in .env', () => {
  it('is the URL of bind SECURITY_MODELS_DB_BIND as in the environment: fw migrate deploy and the started app use it, the environment wins over it', async () => {
    const config = { DATABASE_BINDS: { main: 'file:./var/dev.db', reports: server.url('reports_dev') }, SECURITY_MODELS_DB_BIND: 'reports' };
    await writeFile(path.join(project.root, 'fw.json'), JSON.stringify({ name: 'notes', config }));
    await sql('fw_test', 'CREATE DATABASE from_dotenv');
    // The test server trusts loopback, so the password is never checked; it must not be printed.
    const DATABASE_URL = server.url('from_dotenv').replace(/^postgresql:\/\/fw_test@/, 'postgres://fw_test:s3cret@');
    const shown = DATABASE_URL.replace('s3cret', '<redacted>');
    const dotenv = path.join(project.root, '.env');
    await writeFile(dotenv, `# as Prisma's docs have it\nDATABASE_URL="${DATABASE_URL}"\n`);
    const { DATABASE_URL: _unset, DATABASE_BINDS: _none, ...base } = process.env;
    try {
      let stderr = '';
      const io = { ...testIO(project.root), env: base, stderr: new PassThrough().on('data', (chunk: Buffer) => (stderr += chunk.toString())) };
      expect(await fwCli(['migrate', 'deploy', '--bind', 'reports'], io)).toBe(0);
      expect(stderr).toContain('fw migrate: bind "reports" uses DATABASE_URL from .env\n');
      expect(stderr).not.toContain('s3cret');
      await sql('from_dotenv', `INSERT INTO "Note" (text) VALUES ('on the database of .env')`);

      const logger = memoryLogger();
      const fluid = new Fluid({ root: project.root, env: { SECRET_KEY: 'test-secret-key-for-the-db-tests' }, logger });
      const db = registerDatabase(fluid, new Database({ binds: fluid.config.DATABASE_BINDS, root: fluid.root, clients }));
      fluid.app.get('notes', '/notes', async () => ({ reports: await db.bind('reports').note.count() }));
      try {
        const started = await start(fluid);
        expect(await (await fetch(`${started}/notes`)).json()).toEqual({ reports: 1 });
        expect((await fetch(`${started}/readyz`)).status).toBe(200);
        expect(logger.lines).toContain(`info database: bind "reports" uses DATABASE_URL from .env:2 (${shown})`);
        expect(fluid.config.DATABASE_BINDS).toEqual({ main: 'file:./var/dev.db', reports: DATABASE_URL });
        expect(fluid.config).not.toHaveProperty('DATABASE_URL');
      } finally {
        await fluid.close();
      }

      // The real environment wins over .env: its DATABASE_URL, or its DATABASE_BINDS.
      const fromEnv = server.url('attached');
      const env = new Fluid({ root: project.root, env: { SECRET_KEY: 'test-secret-key-for-the-db-tests', DATABASE_URL: fromEnv }, logger: memoryLogger() });
      expect(env.config.DATABASE_BINDS.reports).toBe(fromEnv);
      await env.close();
      const binds = { main: 'file:./var/env.db', reports: fromEnv };
      const explicit = memoryLogger();
      const named = new Fluid({ root: project.root, env: { SECRET_KEY: 'test-secret-key-for-the-db-tests', DATABASE_BINDS: JSON.stringify(binds) }, logger: explicit });
      expect(named.config.DATABASE_BINDS).toEqual(binds);
      expect(explicit.lines).toEqual([]);
      await named.close();

      // A URL of another family than the bind's stops the app and fw migrate, naming DATABASE_URL, .env and its line.
      await writeFile(path.join(project.root, 'fw.json'), JSON.stringify({ name: 'notes', config: { ...config, SECURITY_MODELS_DB_BIND: 'main' } }));
      const mismatch = '.env:2: DATABASE_URL: a postgresql URL, but bind "main" is sqlite in DATABASE_BINDS, and its schema, client and migrations were made for sqlite';
      expect(() => new Fluid({ root: project.root, env: { SECRET_KEY: 'test-secret-key-for-the-db-tests' } })).toThrow(mismatch);
      await expect(fwCli(['migrate', 'status'], io)).rejects.toThrow(mismatch);
      expect(stderr).not.toContain('s3cret');
    } finally {
      await rm(dotenv);
    }
  });
});

describe('DATABASE_URL_FILE (a Docker or Kubernetes secret)', () => {
  it('the file holds DATABASE_URL: fw migrate deploy migrates its database and names the file, never the password; mistakes name the variable and the file', async () => {
    const config = { DATABASE_BINDS: { main: 'file:./var/dev.db', reports: server.url('reports_dev') }, SECURITY_MODELS_DB_BIND: 'reports' };
    await writeFile(path.join(project.root, 'fw.json'), JSON.stringify({ name: 'notes', config }));
    await sql('fw_test', 'CREATE DATABASE from_secret_file');
    // The test server trusts loopback, so the password is never checked; it must not be printed.
    const url = server.url('from_secret_file').replace(/^postgresql:\/\/fw_test@/, 'postgres://fw_test:s3cret@');
    const secret = path.join(project.root, 'database_url.secret');
    await writeFile(secret, `${url}\n`);
    const { DATABASE_URL: _unset, DATABASE_BINDS: _none, ...base } = process.env;
    let stderr = '';
    const io = { ...testIO(project.root), env: { ...base, DATABASE_URL_FILE: secret }, stderr: new PassThrough().on('data', (chunk: Buffer) => (stderr += chunk.toString())) };
    try {
      expect(await fwCli(['migrate', 'deploy', '--bind', 'reports'], io)).toBe(0);
      expect(stderr).toContain(`fw migrate: bind "reports" uses DATABASE_URL from ${secret} (DATABASE_URL_FILE in the environment)\n`);
      expect(stderr).not.toContain('s3cret');
      // Migrated there: the table exists.
      await sql('from_secret_file', `INSERT INTO "Note" (text) VALUES ('on the database of the secret')`);

      // The same file named from .env, relative to the project root.
      await writeFile(path.join(project.root, '.env'), 'DATABASE_URL_FILE=database_url.secret\n');
      stderr = '';
      expect(await fwCli(['migrate', 'status', '--bind', 'reports'], { ...io, env: base })).toBe(0);
      expect(stderr).toContain(`fw migrate: bind "reports" uses DATABASE_URL from ${secret} (DATABASE_URL_FILE at .env:1)\n`);
      await rm(path.join(project.root, '.env'));

      await expect(fwCli(['migrate', 'status'], { ...io, env: { ...io.env, DATABASE_URL: url } })).rejects.toThrow(
        'environment: both DATABASE_URL and DATABASE_URL_FILE are set; set only one',
      );
      const missing = path.join(project.root, 'no-such.secret');
      await expect(fwCli(['migrate', 'status'], { ...io, env: { ...base, DATABASE_URL_FILE: missing } })).rejects.toThrow(
        `environment: DATABASE_URL_FILE: cannot read ${missing} (ENOENT); DATABASE_URL is read from that file`,
      );
      // A URL of another family than the bind's names the file.
      await writeFile(path.join(project.root, 'fw.json'), JSON.stringify({ name: 'notes', config: { ...config, SECURITY_MODELS_DB_BIND: 'main' } }));
      await expect(fwCli(['migrate', 'status'], io)).rejects.toThrow(
        `${secret} (DATABASE_URL_FILE in the environment): DATABASE_URL: a postgresql URL, but bind "main" is sqlite in DATABASE_BINDS`,
      );
      expect(stderr).not.toContain('s3cret');
    } finally {
      await rm(secret);
    }
  });
});
