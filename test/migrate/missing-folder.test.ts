/**
 * An applied migration whose folder is gone (deleted, or never pulled): `prisma migrate status`
 * says "Database schema is up to date!" (its history check returns early when the database is only
 * ahead of the folder), so `fw migrate status` compares the database's `_prisma_migrations` with
 * `prisma/<bind>/migrations` itself and exits 1, naming each migration, its folder and the way out.
 * Real databases (a SQLite file and PostgreSQL), the Prisma CLI with the schema-engine stand-in,
 * `fw migrate` as the CLI runs it.
 */
import { cp, mkdir, mkdtemp, readdir, rm, appendFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../generators/src/commands/index.js';
import { editConfig, fw } from '../generators/project-helpers.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { REPO_ROOT, usePrismaOffline } from '../support/prisma.js';

const MODELS = (name: string) => `
model ${name} {
  id    Int    @id @default(autoincrement())
  title String
}
`;

let server: TestPostgres;
let work = '';
let root = '';

/** `fw migrate <argv>` in the project as the CLI runs it; its exit code and what it printed (both streams). */
async function migrate(...argv: string[]): Promise<{ code: number; out: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  for (const stream of [stdout, stderr]) stream.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await run(['migrate', ...argv], { cwd: root, stdin: new PassThrough(), stdout, stderr, env: { ...process.env } });
  return { code, out };
}

/** The migration folders of a bind, oldest first. */
async function folders(bind: string): Promise<string[]> {
  const entries = await readdir(path.join(root, 'prisma', bind, 'migrations'), { withFileTypes: true });
  return entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
}

beforeAll(async () => {
  usePrismaOffline();
  server = await startPostgres();
  // Inside the checkout, so the project resolves fw's node_modules (prisma, pg, @libsql/client, @fw/kernel).
  const parent = path.join(REPO_ROOT, '.tmp', 'migrate-missing');
  await mkdir(parent, { recursive: true });
  work = await mkdtemp(path.join(parent, 'app-'));
  const made = await fw(work, 'create', 'project', 'app', '--yes', '--surface', 'none');
  expect(made.error, 'create project').toBeUndefined();
  root = path.join(work, 'app');
  await editConfig(root, (json) => {
    json.config.DATABASE_BINDS = { main: 'file:./var/main.db', reports: server.url('reports') };
  });
  expect((await fw(root, 'migrate', 'init', '--no-install')).code).toBe(0);
  for (const bind of ['main', 'reports']) {
    await appendFile(path.join(root, 'prisma', bind, 'schema.prisma'), MODELS('Post'));
    expect((await migrate('dev', '--bind', bind, '--name', 'init', '--force')).code).toBe(0);
    await appendFile(path.join(root, 'prisma', bind, 'schema.prisma'), MODELS('Note'));
    expect((await migrate('dev', '--bind', bind, '--name', 'add_note', '--force')).code).toBe(0);
  }
});
afterAll(async () => {
  if (work !== '') await rm(work, { recursive: true, force: true });
  await server?.stop();
});

describe('fw migrate status', () => {
  it('is 0 while every applied migration has its folder', async () => {
    const status = await migrate('status');
    expect(status.code, status.out).toBe(0);
    expect(status.out).not.toContain('is missing');
  });

  it.each(['main', 'reports'])('names an applied migration of bind %s whose folder was deleted, and exits 1; restored, it is 0 again', async (bind) => {
    const [, added] = await folders(bind);
    expect(added).toMatch(/_add_note$/);
    const dir = path.join(root, 'prisma', bind, 'migrations', added!);
    const aside = path.join(work, `${bind}-${added}`);
    await cp(dir, aside, { recursive: true });
    await rm(dir, { recursive: true });

    const status = await migrate('status', '--bind', bind);
    expect(status.code, status.out).toBe(1);
    expect(status.out).toContain(`fw migrate status: bind "${bind}": migration ${added} is applied to the database, but prisma/${bind}/migrations/${added}/migration.sql is missing`);
    expect(status.out).toContain(`restore the missing folder from version control (git pull, or git checkout -- prisma/${bind}/migrations)`);
    expect(status.out).toContain(`npx fw migrate reset --force --bind ${bind}`);
    // Every bind: the other one is fine, this one still fails the run.
    expect((await migrate('status')).code).toBe(1);

    await cp(aside, dir, { recursive: true });
    const restored = await migrate('status', '--bind', bind);
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).not.toContain('is missing');
  });
});
