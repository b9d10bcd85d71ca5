/**
 * `fw migrate` reads `DATABASE_BINDS` as the app does (the project kernel's config loader): a
 * developer's `app_configs/<app>.ini` with a local database URL is the database `fw migrate deploy`
 * migrates, the environment wins over it, a bad value there is an error naming the file and key,
 * and no `SECRET_KEY` is needed. Through the real command, on real SQLite and PostgreSQL.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { createClient } from '@libsql/client';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '@fw/kernel/core';
import { renderMigrateEnvironment } from '../../generators/src/migrate/index.js';
import { run as fwCli } from '../../generators/src/commands/index.js';
import type { CommandIO } from '../../generators/src/cli/io.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { tempProject, usePrismaOffline, writeFiles } from '../support/prisma.js';

let server: TestPostgres;
let project: { root: string; cleanup(): Promise<void> };
/** `fw.json`'s binds: what fw migrate used before it read the ini. */
let committed: Record<string, string>;

const INIT = '20250101000000_notes';
const INI = 'app_configs/notes.ini';

async function pgTables(database: string): Promise<string[]> {
  const client = new pg.Client(server.url(database));
  await client.connect();
  try {
    return (await client.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")).rows.map((r) => r.tablename);
  } finally {
    await client.end();
  }
}

async function sqliteTables(file: string): Promise<string[]> {
  const client = createClient({ url: `file:${path.join(project.root, file)}` });
  try {
    return (await client.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")).rows.map((r) => String(r.name));
  } finally {
    client.close();
  }
}

/** Runs `fw migrate <args>` with an environment holding none of fw's database keys, nor SECRET_KEY. */
async function fwMigrate(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stderr: string }> {
  const base = { ...process.env };
  for (const key of ['DATABASE_BINDS', 'DATABASE_BINDS_FILE', 'DATABASE_URL', 'SECRET_KEY', 'SECRET_KEY_FILE', 'FW_APP', 'FW_ENV']) delete base[key];
  let stderr = '';
  const err = new PassThrough().on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const io: CommandIO = { cwd: project.root, stdin: new PassThrough(), stdout: new PassThrough().resume(), stderr: err, env: { ...base, ...env } };
  const code = await fwCli(['migrate', ...args], io);
  return { code, stderr };
}

beforeAll(async () => {
  usePrismaOffline();
  server = await startPostgres();
  project = await tempProject('binds');
  committed = { main: 'file:./var/main.db', reports: server.url('reports_dev') };
  await writeFile(path.join(project.root, 'fw.json'), JSON.stringify({ name: 'notes', config: { DATABASE_BINDS: committed } }));
  await writeFiles(project.root, renderMigrateEnvironment({ binds: committed, securityBind: 'main', projectName: 'notes' }));
  const migrations: Record<string, string> = {
    main: 'CREATE TABLE "Note" ("id" INTEGER NOT NULL PRIMARY KEY, "text" TEXT NOT NULL);\n',
    reports: 'CREATE TABLE "Note" ("id" SERIAL NOT NULL, "text" TEXT NOT NULL, CONSTRAINT "Note_pkey" PRIMARY KEY ("id"));\n',
  };
  for (const [bind, text] of Object.entries(migrations)) {
    await mkdir(path.join(project.root, 'prisma', bind, 'migrations', INIT), { recursive: true });
    await writeFile(path.join(project.root, 'prisma', bind, 'migrations', INIT, 'migration.sql'), text);
  }
  const admin = new pg.Client(server.url('fw_test'));
  await admin.connect();
  for (const db of ['reports_dev', 'reports_local', 'reports_env']) await admin.query(`CREATE DATABASE ${db}`);
  await admin.end();
});
afterAll(async () => {
  await project?.cleanup();
  await server?.stop();
});
beforeEach(async () => {
  await rm(path.join(project.root, 'var'), { recursive: true, force: true });
  await rm(path.join(project.root, 'app_configs'), { recursive: true, force: true });
  await mkdir(path.join(project.root, 'app_configs'));
});

describe('fw migrate reads DATABASE_BINDS as the app does', () => {
  it('DATABASE_BINDS only in app_configs/<app>.ini: deploy migrates those databases (SQLite and PostgreSQL), names the ini, hides the password, needs no SECRET_KEY', async () => {
    // The test server trusts loopback, so the password is never checked; it must not be printed.
    const local = { main: 'file:./var/local.db', reports: server.url('reports_local').replace(/^postgresql:\/\/fw_test@/, 'postgresql://fw_test:s3cret@') };
    expect(local.reports).toContain('s3cret');
    await writeFile(path.join(project.root, INI), `; a developer's own databases, not committed\nDEBUG = true\nDATABASE_BINDS = ${JSON.stringify(local)}\n`);

    const { code, stderr } = await fwMigrate(['deploy']);
    expect(code).toBe(0);
    expect(stderr).toContain(`fw migrate: DATABASE_BINDS from ${INI}: main=file:./var/local.db, reports=${local.reports.replace('s3cret', '<redacted>')}\n`);
    expect(stderr).not.toContain('s3cret');
    expect(await sqliteTables('var/local.db')).toEqual(['Note', '_prisma_migrations']);
    expect(existsSync(path.join(project.root, 'var/main.db'))).toBe(false);
    expect(await pgTables('reports_local')).toEqual(['Note', '_prisma_migrations']);
    expect(await pgTables('reports_dev')).toEqual([]);
    // The very binds the app reads.
    expect(loadConfig({ root: project.root, env: {}, requireSecretKey: false }).DATABASE_BINDS).toEqual(local);
  });

  it('the environment wins over the ini, and the line names it', async () => {
    await writeFile(path.join(project.root, INI), `DATABASE_BINDS = ${JSON.stringify({ main: 'file:./var/local.db', reports: server.url('reports_local') })}\n`);
    const fromEnv = { main: 'file:./var/env.db', reports: server.url('reports_env') };
    const { code, stderr } = await fwMigrate(['deploy'], { DATABASE_BINDS: JSON.stringify(fromEnv) });
    expect(code).toBe(0);
    expect(stderr).toContain(`fw migrate: DATABASE_BINDS from environment: main=file:./var/env.db, reports=${fromEnv.reports}\n`);
    expect(await sqliteTables('var/env.db')).toEqual(['Note', '_prisma_migrations']);
    expect(existsSync(path.join(project.root, 'var/local.db'))).toBe(false);
    expect(await pgTables('reports_env')).toEqual(['Note', '_prisma_migrations']);
  });

  it('FW_APP picks the ini, and DATABASE_URL of the environment is still the URL of bind SECURITY_MODELS_DB_BIND over it', async () => {
    await writeFile(path.join(project.root, 'app_configs/staging.ini'), `DATABASE_BINDS = ${JSON.stringify({ main: 'file:./var/staging.db', reports: server.url('reports_local') })}\n`);
    const { code, stderr } = await fwMigrate(['deploy', '--bind', 'main'], { FW_APP: 'staging', DATABASE_URL: 'file:./var/attached.db' });
    expect(code).toBe(0);
    expect(stderr).toContain('fw migrate: bind "main" uses DATABASE_URL from the environment\n');
    expect(stderr).toContain('fw migrate: DATABASE_BINDS from app_configs/staging.ini: main=file:./var/attached.db, reports=');
    expect(await sqliteTables('var/attached.db')).toEqual(['Note', '_prisma_migrations']);
    expect(existsSync(path.join(project.root, 'var/staging.db'))).toBe(false);
  });

  it('a bad DATABASE_BINDS in the ini is an error naming the file, its line and the key; nothing is migrated', async () => {
    await writeFile(path.join(project.root, INI), 'DEBUG = true\nDATABASE_BINDS = {"main": "file:./var/local.db",\n');
    await expect(fwMigrate(['deploy'])).rejects.toThrow(/app_configs\/notes\.ini:2: DATABASE_BINDS: /);
    await writeFile(path.join(project.root, INI), 'SECURITY_MODELS_DB_BIND = main\nDATABASE_BINDS = ["file:./var/local.db"]\n');
    await expect(fwMigrate(['deploy'])).rejects.toThrow(/app_configs\/notes\.ini:2: DATABASE_BINDS: /);
    expect(existsSync(path.join(project.root, 'var'))).toBe(false);
  });

  it('fw.json alone (no ini, no environment): its binds, and no source line', async () => {
    const { code, stderr } = await fwMigrate(['deploy', '--bind', 'main']);
    expect(code).toBe(0);
    expect(stderr).not.toContain('fw migrate:');
    expect(await sqliteTables('var/main.db')).toEqual(['Note', '_prisma_migrations']);
  });
});
