import { existsSync } from 'node:fs';
import { appendFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fluid } from '@fw/kernel';
import { Database, DatabaseError, DatabaseUnavailableError, registerDatabase, type PrismaClientClass } from '@fw/kernel/db';
import { memoryLogger } from '../kernel/helpers.js';
import { migrateCommandPlan, renderMigrateEnvironment, runPrismaAll } from '../../generators/src/migrate/index.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { prismaCli, tempProject, usePrismaOffline, writeFiles } from '../support/prisma.js';

// The generated clients are imported at run time, so this test types them structurally.
interface NoteDelegate {
  create(args: { data: { text: string } }): Promise<{ id: number; text: string }>;
  count(): Promise<number>;
}
interface TestClient {
  note: NoteDelegate;
  $connect(): Promise<void>;
  $disconnect(): Promise<void>;
  $queryRawUnsafe<T>(sql: string): Promise<T>;
}
type TestClientClass = new (options: ConstructorParameters<PrismaClientClass>[0]) => TestClient;

const NOTE = `
model Note {
  id   Int    @id @default(autoincrement())
  text String
}
`;

let server: TestPostgres;
let project: { root: string; cleanup(): Promise<void> };
let binds: Record<string, string>;
let clients: { main: TestClientClass; reports: TestClientClass };

async function pgConnections(database: string): Promise<number> {
  const admin = new pg.Client(server.url('fw_test'));
  await admin.connect();
  try {
    const { rows } = await admin.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    );
    return rows[0]!.n;
  } finally {
    await admin.end();
  }
}

/**
 * Connections of a database once they settle: a backend leaves pg_stat_activity a moment after
 * its client hung up, so a count of 0 is awaited (up to 5 s) rather than read once.
 */
async function settledConnections(database: string): Promise<number> {
  const deadline = Date.now() + 5000;
  let n = await pgConnections(database);
  while (n > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    n = await pgConnections(database);
  }
  return n;
}

beforeAll(async () => {
  usePrismaOffline();
  server = await startPostgres();
  project = await tempProject('database');
  binds = { main: 'file:./var/main.db', reports: server.url('reports').replace(/^postgresql:/, 'postgres:') };
  await writeFiles(project.root, renderMigrateEnvironment({ binds, securityBind: 'main', projectName: 'notes' }));
  for (const bind of ['main', 'reports']) await appendFile(path.join(project.root, `prisma/${bind}/schema.prisma`), NOTE);
  await runPrismaAll(migrateCommandPlan({ action: 'dev', name: 'init', binds, root: project.root, interactive: false, force: true }));
  for (const bind of ['main', 'reports']) {
    const result = prismaCli(['generate', '--config', `prisma/${bind}/prisma.config.ts`], { cwd: project.root });
    expect(result.status, result.output).toBe(0);
  }
  const load = async (bind: string) =>
    ((await import(pathToFileURL(path.join(project.root, `generated/prisma/${bind}/client.ts`)).href)) as { PrismaClient: TestClientClass })
      .PrismaClient;
  clients = { main: await load('main'), reports: await load('reports') };
});
afterAll(async () => {
  await project?.cleanup();
  await server?.stop();
});

describe('Database: one generated PrismaClient per bind through driver adapters', () => {
  it('serves each bind through its own client, SQLite (libSQL) and PostgreSQL (pg)', async () => {
    const db = new Database({ binds, root: project.root, clients });
    try {
      expect(db.names).toEqual(['main', 'reports']);
      expect(db.bind('main')).toBe(db.bind('main'));
      await db.bind('main').note.create({ data: { text: 'in sqlite' } });
      await db.bind('reports').note.create({ data: { text: 'in postgres' } });
      await db.bind('reports').note.create({ data: { text: 'again' } });
      expect(await db.bind('main').note.count()).toBe(1);
      expect(await db.bind('reports').note.count()).toBe(2);
      expect(db.uris.reports?.url.startsWith('postgresql://')).toBe(true);
    } finally {
      await db.dispose();
    }
  });

  it('connects lazily: no connection until the first query', async () => {
    const db = new Database({ binds, root: project.root, clients });
    try {
      db.bind('reports');
      expect(await settledConnections('reports')).toBe(0);
      await db.bind('reports').note.count();
      expect(await pgConnections('reports')).toBeGreaterThan(0);
    } finally {
      await db.dispose();
    }
  });

  it('dispose closes every bind, is idempotent, and a disposed bind can be used again', async () => {
    const db = new Database({ binds, root: project.root, clients });
    const reports = db.bind('reports');
    await reports.note.count();
    await db.bind('main').note.count();
    expect(await pgConnections('reports')).toBeGreaterThan(0);

    const first = db.dispose();
    expect(db.dispose()).toBe(first); // a concurrent call shares the running dispose
    await first;
    expect(await settledConnections('reports')).toBe(0);
    await db.dispose(); // again, with nothing open
    expect(await settledConnections('reports')).toBe(0);

    // Used again: the same client objects reconnect on their next query.
    expect(db.bind('reports')).toBe(reports);
    expect(await reports.note.count()).toBe(2);
    expect(await db.bind('main').note.count()).toBe(1);
    expect(await pgConnections('reports')).toBeGreaterThan(0);
    await db.dispose();
    expect(await settledConnections('reports')).toBe(0);
  });

  it('registerDatabase makes dispose a shutdown hook of the Fluid: fluid.close() closes every bind', async () => {
    await writeFile(path.join(project.root, 'fw.json'), JSON.stringify({ name: 'notes', config: { DATABASE_BINDS: binds } }));
    const fluid = new Fluid({ root: project.root, env: { SECRET_KEY: 'test-secret-key-for-the-db-tests' } });
    const db = registerDatabase(fluid, new Database({ binds: fluid.config.DATABASE_BINDS, root: fluid.root, clients }));
    await fluid.mix(); // shutdown hooks belong to a mixed (started) app
    await db.bind('reports').note.count();
    expect(await pgConnections('reports')).toBeGreaterThan(0);
    await fluid.close();
    expect(await settledConnections('reports')).toBe(0);
  });

  it('creates the folder of a new SQLite file and accepts an in-memory bind', async () => {
    const db = new Database({
      binds: { main: 'sqlite:///var/nested/dir/new.db', reports: 'sqlite://' },
      root: project.root,
      clients,
    });
    try {
      expect(await db.bind('main').$queryRawUnsafe<{ x: number }[]>('SELECT 1 AS x')).toEqual([{ x: 1 }]);
      expect(existsSync(path.join(project.root, 'var/nested/dir/new.db'))).toBe(true);
    } finally {
      await db.dispose();
    }
  });

  it('bad binds are errors naming the bind', () => {
    expect(() => new Database({ binds: { main: 'file:./a.db' }, root: project.root, clients })).toThrow(
      /a client class was given for bind "reports", but DATABASE_BINDS has no such bind \(binds: main\)/,
    );
    expect(() => new Database({ binds: { ...binds, main: 'oracle://h/db' }, root: project.root, clients })).toThrow(DatabaseError);
    const db = new Database({ binds, root: project.root, clients: { main: clients.main } });
    // @ts-expect-error "reports" has no client class in this Database
    expect(() => db.bind('reports')).toThrow(/unknown bind "reports" \(binds with a client: main\)/);
  });

  it('a bind that fails to close is reported by name, and the others are still closed', async () => {
    // A client whose disconnect fails cannot be caused for real; this one stands in for it.
    class Failing {
      constructor(_options: ConstructorParameters<PrismaClientClass>[0]) {}
      $connect(): Promise<void> {
        return Promise.resolve();
      }
      $disconnect(): Promise<void> {
        return Promise.reject(new Error('socket hang up'));
      }
    }
    const db = new Database({ binds, root: project.root, clients: { main: Failing, reports: clients.reports } });
    db.bind('main');
    await db.bind('reports').note.count();
    const error = await db.dispose().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseError);
    expect((error as DatabaseError).message).toBe('Database: closing failed for main: socket hang up');
    expect(await settledConnections('reports')).toBe(0);
  });
});

describe('outages (the last tests: they kill the server)', () => {
  it('registerDatabase gives the binds the config\'s timeouts, the logger and a readiness check each', async () => {
    await writeFile(
      path.join(project.root, 'fw.json'),
      JSON.stringify({ name: 'notes', config: { DATABASE_BINDS: binds, DATABASE_CONNECT_TIMEOUT: 2, DATABASE_STATEMENT_TIMEOUT: 3 } }),
    );
    const fluid = new Fluid({ root: project.root, env: { SECRET_KEY: 'test-secret-key-for-the-db-tests' }, logger: memoryLogger() });
    const db = registerDatabase(fluid, new Database({ binds: fluid.config.DATABASE_BINDS, root: fluid.root, clients }));
    expect(db.timeouts).toEqual({ connect: 2, statement: 3 });
    expect(fluid.health.checks).toEqual(['database.main', 'database.reports']);
    expect(new Database({ binds, root: project.root, clients, timeouts: { statement: 9 } }).timeouts).toEqual({ connect: 5, statement: 9 });
    await fluid.close();
  });

  it('a stopped PostgreSQL: queries fail with DatabaseUnavailableError (503, Retry-After), logged once; other errors stay Prisma\'s', async () => {
    const logger = memoryLogger();
    const db = new Database({ binds, root: project.root, clients, timeouts: { connect: 1, statement: 1 }, logger });
    try {
      expect(await db.bind('reports').note.count()).toBeGreaterThanOrEqual(0);
      const wrong = await db.bind('reports').$queryRawUnsafe('SELECT * FROM no_such_table').catch((e: unknown) => e);
      expect(wrong).not.toBeInstanceOf(DatabaseUnavailableError);
      expect((wrong as Error).name).toBe('PrismaClientKnownRequestError');
      server.signal('SIGKILL');
      const errors = await Promise.all([db.bind('reports').note.count(), db.bind('reports').$queryRawUnsafe('SELECT 1'), db.ping('reports')].map((p) => p.catch((e: unknown) => e)));
      for (const error of errors) {
        expect(error).toBeInstanceOf(DatabaseUnavailableError);
        expect(error).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE', bind: 'reports', headers: { 'Retry-After': '5' } });
      }
      expect(logger.lines.filter((l) => l.startsWith('error database: bind "reports" unavailable'))).toHaveLength(1);
      expect(await db.bind('main').note.count()).toBe(1); // the SQLite bind is not affected
    } finally {
      await db.dispose();
    }
  });
});
