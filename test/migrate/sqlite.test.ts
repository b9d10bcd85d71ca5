import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { mkdir, writeFile, appendFile } from 'node:fs/promises';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateCommandPlan, MigrateError, renderMigrateEnvironment, runPrismaAll, type MigrateAction } from '../../generators/src/migrate/index.js';
import { tempProject, usePrismaOffline, writeFiles } from '../support/prisma.js';

const MODELS = `
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

let project: { root: string; cleanup(): Promise<void> };
const binds = { main: 'file:./var/main.db' };

function migrate(action: MigrateAction, extra: { name?: string; binds?: Record<string, string> } = {}) {
  const plan = migrateCommandPlan({ action, binds: extra.binds ?? binds, root: project.root, interactive: false, force: true, ...(extra.name ? { name: extra.name } : {}) });
  return runPrismaAll(plan);
}

async function query(file: string, sql: string): Promise<Record<string, unknown>[]> {
  const client = createClient({ url: `file:${path.join(project.root, file)}` });
  try {
    return (await client.execute(sql)).rows.map((row) => ({ ...row }));
  } finally {
    client.close();
  }
}

beforeAll(async () => {
  usePrismaOffline();
  project = await tempProject('sqlite');
  await writeFiles(project.root, renderMigrateEnvironment({ binds, securityBind: 'main', projectName: 'blog' }));
  await appendFile(path.join(project.root, 'prisma/main/schema.prisma'), MODELS);
});
afterAll(() => project?.cleanup());

describe('fw migrate on SQLite (Prisma CLI through runPrisma)', () => {
  it('dev creates the database and the first migration', async () => {
    const [result] = await migrate('dev', { name: 'init' });
    expect(result!.stdout).toContain('in sync with your schema');
    expect(existsSync(path.join(project.root, 'var/main.db'))).toBe(true);
    const tables = await query('var/main.db', "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['Author', 'Post', 'User', 'Session', '_prisma_migrations']));
  });

  it('dev applies an ALTER that needs a table redefinition and keeps the existing rows', async () => {
    const client = createClient({ url: `file:${path.join(project.root, 'var/main.db')}` });
    await client.executeMultiple(`
      INSERT INTO "Author" (email) VALUES ('a@example.com');
      INSERT INTO "Post" (title, body, authorId) VALUES ('p1', NULL, 1);
      INSERT INTO "Post" (title, body, authorId) VALUES ('p2', 'text', 1);`);
    client.close();
    const schemaFile = path.join(project.root, 'prisma/main/schema.prisma');
    const schema = readFileSync(schemaFile, 'utf8').replace('  body     String?\n', '  body     String  @default("")\n  views    Int     @default(0)\n');
    await writeFile(schemaFile, schema);

    await migrate('dev', { name: 'alter_post' });
    const dir = readdirSync(path.join(project.root, 'prisma/main/migrations')).find((d) => d.endsWith('_alter_post'))!;
    expect(readFileSync(path.join(project.root, 'prisma/main/migrations', dir, 'migration.sql'), 'utf8')).toContain('RedefineTables');
    expect(await query('var/main.db', 'SELECT title, body, views, authorId FROM "Post" ORDER BY id')).toEqual([
      { title: 'p1', body: '', views: 0, authorId: 1 },
      { title: 'p2', body: 'text', views: 0, authorId: 1 },
    ]);
    expect(await query('var/main.db', "SELECT count(*) AS n FROM pragma_foreign_key_list('Post')")).toEqual([{ n: 1 }]);
  });

  it('status and diff report no pending change', async () => {
    const [status] = await migrate('status');
    expect(status!.stdout).toContain('Database schema is up to date');
    const [diff] = await migrate('diff');
    expect(diff!.stdout).toContain('empty migration');
  });

  it('deploy applies both migrations to a fresh database', async () => {
    const fresh = { main: 'file:./var/fresh.db' };
    const [result] = await migrate('deploy', { binds: fresh });
    expect(result!.stdout).toMatch(/2 migrations? .*applied|successfully applied/s);
    expect(await query('var/fresh.db', 'SELECT count(*) AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL')).toEqual([{ n: 2 }]);
    expect((await query('var/fresh.db', 'SELECT name FROM pragma_table_info(\'Post\')')).map((c) => c.name)).toContain('views');
  });

  it('a failed migration is a clear error naming the bind, and leaves the database untouched', async () => {
    const snapshot = () =>
      Promise.all([
        query('var/main.db', 'SELECT name, sql FROM sqlite_master ORDER BY name'),
        query('var/main.db', 'SELECT * FROM "Post" ORDER BY id'),
        query('var/main.db', 'SELECT * FROM "User" ORDER BY id'),
        query('var/main.db', 'SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name'),
      ]);
    const before = await snapshot();
    const broken = path.join(project.root, 'prisma/main/migrations/29990101000000_broken');
    await mkdir(broken);
    // The first two statements succeed; the third fails. SQLite runs the script without a
    // transaction, so only the runner's snapshot can undo the first two.
    await writeFile(
      path.join(broken, 'migration.sql'),
      'CREATE TABLE "Scratch" ("id" INTEGER);\nINSERT INTO "User" ("email") VALUES (\'x@example.com\');\nALTER TABLE "Post" ADD COLUMN "rating" INTEGER NOT NULL REFERENCES;\n',
    );

    const error = await migrate('deploy').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrateError);
    const message = (error as MigrateError).message;
    expect((error as MigrateError).bind).toBe('main');
    expect(message).toMatch(/^bind "main": prisma migrate deploy --config prisma\/main\/prisma\.config\.ts exited with code 1: Error: /);
    expect(message).toContain('29990101000000_broken');
    expect(message).toMatch(/syntax error/i);
    expect(await snapshot()).toEqual(before);
    expect(existsSync(path.join(project.root, 'var/main.db.fw-snapshot'))).toBe(false);
    // A failed deploy to a database that did not exist leaves no file behind.
    const fresh = await migrate('deploy', { binds: { main: 'file:./var/never.db' } }).catch((e: unknown) => e);
    expect(fresh).toBeInstanceOf(MigrateError);
    expect(existsSync(path.join(project.root, 'var/never.db'))).toBe(false);

    // Fixed, the same migration applies: no failed-migration record was left to resolve.
    await writeFile(path.join(broken, 'migration.sql'), 'ALTER TABLE "Post" ADD COLUMN "rating" INTEGER NOT NULL DEFAULT 0;\n');
    await migrate('deploy');
    expect(await query('var/main.db', 'SELECT title, rating FROM "Post" ORDER BY id')).toEqual([
      { title: 'p1', rating: 0 },
      { title: 'p2', rating: 0 },
    ]);
  });
});
