import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateCommandPlan, MigrateError, renderMigrateEnvironment, runPrismaAll, type MigrateAction } from '../../generators/src/migrate/index.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { tempProject, usePrismaOffline, writeFiles } from '../support/prisma.js';

const REPORT_MODELS = `
model Author {
  id    Int    @id @default(autoincrement())
  email String @unique
  posts Post[]
}

model Post {
  id       Int     @id @default(autoincrement())
  title    String
  body     String?
  authorId Int
  author   Author  @relation(fields: [authorId], references: [id], onDelete: Cascade)

  @@index([authorId])
}
`;

let server: TestPostgres;
let project: { root: string; cleanup(): Promise<void> };
let binds: Record<string, string>;

function migrate(action: MigrateAction, options: { bind?: string; name?: string; binds?: Record<string, string> } = {}) {
  const { binds: override, ...rest } = options;
  return runPrismaAll(migrateCommandPlan({ action, binds: override ?? binds, root: project.root, interactive: false, force: true, ...rest }));
}

async function sql<T extends Record<string, unknown>>(database: string, text: string): Promise<T[]> {
  const client = new pg.Client(server.url(database));
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  usePrismaOffline();
  server = await startPostgres();
  project = await tempProject('postgres');
  // A SQLAlchemy spelling with a driver suffix: only the leading scheme is rewritten.
  binds = { main: 'file:./var/main.db', reports: server.url('reports').replace(/^postgresql:/, 'postgresql+asyncpg:') };
  await writeFiles(project.root, renderMigrateEnvironment({ binds, securityBind: 'main', projectName: 'shop' }));
  await appendFile(path.join(project.root, 'prisma/reports/schema.prisma'), REPORT_MODELS);
});
afterAll(async () => {
  await project?.cleanup();
  await server?.stop();
});

describe('fw migrate on PostgreSQL, next to a SQLite bind', () => {
  it('dev --bind reports creates the database and migrates that bind only', async () => {
    const results = await migrate('dev', { bind: 'reports', name: 'init' });
    expect(results.map((r) => r.bind)).toEqual(['reports', 'reports']); // migrate dev, then prisma generate (the client)
    expect(results[1]!.stdout).toMatch(/Generated Prisma Client/i);
    expect(results[0]!.stdout).toContain('in sync with your schema');
    const tables = await sql<{ table_name: string }>('reports', "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
    expect(tables.map((t) => t.table_name).sort()).toEqual(['Author', 'Post', '_prisma_migrations']);
    expect(existsSync(path.join(project.root, 'var/main.db'))).toBe(false);
  });

  it('dev applies an ALTER on PostgreSQL and keeps the existing rows', async () => {
    await sql('reports', `INSERT INTO "Author" (email) VALUES ('a@example.com');
      INSERT INTO "Post" (title, body, "authorId") VALUES ('p1', NULL, 1), ('p2', 'text', 1);`);
    const file = path.join(project.root, 'prisma/reports/schema.prisma');
    await writeFile(file, readFileSync(file, 'utf8').replace('  body     String?\n', '  body     String? @default("n/a")\n  views    Int     @default(0)\n'));
    await migrate('dev', { bind: 'reports', name: 'alter_post' });
    const dir = readdirSync(path.join(project.root, 'prisma/reports/migrations')).find((d) => d.endsWith('_alter_post'))!;
    expect(readFileSync(path.join(project.root, 'prisma/reports/migrations', dir, 'migration.sql'), 'utf8')).toContain('ALTER TABLE "Post"');
    expect(await sql('reports', 'SELECT title, body, views FROM "Post" ORDER BY id')).toEqual([
      { title: 'p1', body: null, views: 0 },
      { title: 'p2', body: 'text', views: 0 },
    ]);
  });

  it('the SQLite bind migrates on its own; then status and deploy cover both binds', async () => {
    const [main] = await migrate('dev', { bind: 'main', name: 'init' });
    expect(main!.bind).toBe('main');
    expect(existsSync(path.join(project.root, 'var/main.db'))).toBe(true);
    expect(await sql('reports', 'SELECT count(*)::int AS n FROM _prisma_migrations')).toEqual([{ n: 2 }]);

    const status = await migrate('status');
    expect(status.map((r) => r.bind)).toEqual(['main', 'reports']);
    for (const result of status) expect(result.stdout, result.bind).toContain('Database schema is up to date');
    const deployed = await migrate('deploy');
    for (const result of deployed) expect(result.stdout, result.bind).toContain('No pending migrations');
  });

  it('deploy applies the migrations to a fresh PostgreSQL database', async () => {
    await sql('fw_test', 'CREATE DATABASE reports_fresh');
    const [result] = await migrate('deploy', { bind: 'reports', binds: { ...binds, reports: server.url('reports_fresh') } });
    expect(result!.stdout).toMatch(/successfully applied/);
    expect(await sql('reports_fresh', 'SELECT count(*)::int AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL')).toEqual([{ n: 2 }]);
    expect(await sql('reports_fresh', 'SELECT count(*)::int AS n FROM "Post"')).toEqual([{ n: 0 }]);
  });

  it('a failed migration is a clear error naming the bind, and leaves the tables and rows untouched', async () => {
    const shape = "SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations' ORDER BY 1, 2";
    const before = [await sql('reports', shape), await sql('reports', 'SELECT * FROM "Post" ORDER BY id'), await sql('reports', 'SELECT * FROM "Author" ORDER BY id')];
    const broken = path.join(project.root, 'prisma/reports/migrations/29990101000000_broken');
    await mkdir(broken);
    await writeFile(
      path.join(broken, 'migration.sql'),
      'CREATE TABLE "Scratch" ("id" INTEGER);\nINSERT INTO "Author" ("email") VALUES (\'x@example.com\');\nALTER TABLE "Post" ADD COLUMN "rating" INTEGER NOT NULL REFERENCES;\n',
    );
    const error = await migrate('deploy', { bind: 'reports' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrateError);
    expect((error as MigrateError).bind).toBe('reports');
    const message = (error as MigrateError).message;
    expect(message).toMatch(
      /^bind "reports": migration 29990101000000_broken failed on a trial run inside a transaction, so nothing was applied and the database is untouched: syntax error/,
    );
    expect([await sql('reports', shape), await sql('reports', 'SELECT * FROM "Post" ORDER BY id'), await sql('reports', 'SELECT * FROM "Author" ORDER BY id')]).toEqual(before);
    expect(await sql('reports', "SELECT count(*)::int AS n FROM _prisma_migrations WHERE migration_name = '29990101000000_broken'")).toEqual([{ n: 0 }]);

    // Fixed, the same migration applies (no failed record to resolve first).
    await writeFile(path.join(broken, 'migration.sql'), 'ALTER TABLE "Post" ADD COLUMN "rating" INTEGER NOT NULL DEFAULT 0;\n');
    await migrate('deploy', { bind: 'reports' });
    expect(await sql('reports', 'SELECT title, rating FROM "Post" ORDER BY id')).toEqual([
      { title: 'p1', rating: 0 },
      { title: 'p2', rating: 0 },
    ]);
    // A statement that cannot run in a transaction skips the trial; Prisma applies it as usual.
    const concurrent = path.join(project.root, 'prisma/reports/migrations/29990102000000_concurrent');
    await mkdir(concurrent);
    await writeFile(path.join(concurrent, 'migration.sql'), 'CREATE INDEX CONCURRENTLY "Post_title_idx" ON "Post"("title");\n');
    await migrate('deploy', { bind: 'reports' });
    expect(await sql('reports', "SELECT indexname FROM pg_indexes WHERE indexname = 'Post_title_idx'")).toEqual([{ indexname: 'Post_title_idx' }]);

    // The SQLite bind is not affected by the other bind's failure.
    const [main] = await migrate('status', { bind: 'main' });
    expect(main!.stdout).toContain('Database schema is up to date');
  });
});
