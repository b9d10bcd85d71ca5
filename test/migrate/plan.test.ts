import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrateCommandPlan, MigrateError, runPrisma } from '../../generators/src/migrate/index.js';

const binds = { main: 'file:./var/main.db', reports: 'postgres://r:pw@127.0.0.1:5432/rep' };
const root = '/srv/app';

describe('migrateCommandPlan', () => {
  it('plans one Prisma run per bind, in DATABASE_BINDS order, with its config and URL variable', () => {
    const plan = migrateCommandPlan({ action: 'deploy', binds, root, interactive: false });
    expect(plan).toEqual([
      {
        bind: 'main',
        action: 'deploy',
        argv: ['migrate', 'deploy', '--config', 'prisma/main/prisma.config.ts'],
        env: { DATABASE_URL_MAIN: 'file:/srv/app/var/main.db' },
        cwd: root,
        interactive: false,
        snapshot: '/srv/app/var/main.db',
      },
      {
        bind: 'reports',
        action: 'deploy',
        argv: ['migrate', 'deploy', '--config', 'prisma/reports/prisma.config.ts'],
        env: { DATABASE_URL_REPORTS: 'postgresql://r:pw@127.0.0.1:5432/rep' },
        cwd: root,
        interactive: false,
        trial: { url: 'postgresql://r:pw@127.0.0.1:5432/rep', migrations: '/srv/app/prisma/reports/migrations' },
      },
    ]);
  });

  it('--bind selects one bind; dev takes --name; diff compares the database with the schema', () => {
    const dev = migrateCommandPlan({ action: 'dev', bind: 'reports', binds, root, interactive: true, name: 'add_totals' });
    expect(dev.map((i) => i.argv)).toEqual([
      ['migrate', 'dev', '--config', 'prisma/reports/prisma.config.ts', '--name', 'add_totals'],
      ['generate', '--config', 'prisma/reports/prisma.config.ts'], // Prisma 7's migrate dev no longer generates the client
    ]);
    expect(dev[1]!.env).toEqual(dev[0]!.env);
    const diff = migrateCommandPlan({ action: 'diff', bind: 'main', binds, root, interactive: false });
    expect(diff[0]!.argv).toEqual([
      'migrate', 'diff', '--from-config-datasource', '--to-schema', 'prisma/main/schema.prisma', '--script',
      '--config', 'prisma/main/prisma.config.ts',
    ]);
    expect(migrateCommandPlan({ action: 'status', binds, root, interactive: false }).map((i) => i.bind)).toEqual(['main', 'reports']);
    // only writing actions on a SQLite file are snapshotted
    expect(diff[0]!.snapshot).toBeUndefined();
    expect(dev[0]!.snapshot).toBeUndefined();
    expect(migrateCommandPlan({ action: 'dev', bind: 'main', binds, root, interactive: true })[0]!.snapshot).toBe('/srv/app/var/main.db');
  });

  it('reset always needs --force, interactive or not, and then passes --force to Prisma', () => {
    for (const interactive of [true, false]) {
      expect(() => migrateCommandPlan({ action: 'reset', binds, root, interactive })).toThrow(
        /fw migrate reset drops every table of every bind \(main, reports\) .*refusing without --force/,
      );
    }
    expect(() => migrateCommandPlan({ action: 'reset', bind: 'main', binds, root, interactive: true })).toThrow(/of bind "main"/);
    const plan = migrateCommandPlan({ action: 'reset', bind: 'main', binds, root, interactive: false, force: true });
    expect(plan[0]!.argv).toEqual(['migrate', 'reset', '--config', 'prisma/main/prisma.config.ts', '--force']);
  });

  it('dev never runs unattended without --force; on a terminal Prisma itself asks before data loss', () => {
    expect(() => migrateCommandPlan({ action: 'dev', binds, root, interactive: false })).toThrow(
      /fw migrate dev may drop data of every bind .*no terminal is attached.*refusing without --force/,
    );
    expect(migrateCommandPlan({ action: 'dev', binds, root, interactive: true }).filter((i) => i.argv[0] === 'migrate')).toHaveLength(2);
    expect(migrateCommandPlan({ action: 'dev', binds, root, interactive: false, force: true }).filter((i) => i.argv[0] === 'migrate')).toHaveLength(2);
  });

  it('bad arguments are errors naming them', () => {
    expect(() => migrateCommandPlan({ action: 'deploy', bind: 'users', binds, root, interactive: false })).toThrow(
      /--bind users: no such bind in DATABASE_BINDS \(binds: main, reports\)/,
    );
    expect(() => migrateCommandPlan({ action: 'deploy', binds, root, interactive: false, name: 'x' })).toThrow(/--name applies to "fw migrate dev" only/);
    expect(() => migrateCommandPlan({ action: 'deploy', binds: {}, root, interactive: false })).toThrow(/no binds are configured/);
    expect(() => migrateCommandPlan({ action: 'deploy', binds: { x: 'mongodb://h/db' }, root, interactive: false })).toThrow(
      /DATABASE_BINDS\.x: unsupported scheme "mongodb:"/,
    );
    // @ts-expect-error an action outside the union is refused at runtime too
    expect(() => migrateCommandPlan({ action: 'push', binds, root, interactive: false })).toThrow(/unknown action "push"/);
  });

  it('runPrisma names the bind when the CLI cannot be found or started', async () => {
    const [invocation] = migrateCommandPlan({ action: 'status', bind: 'main', binds, root: '/', interactive: false });
    await expect(runPrisma(invocation!)).rejects.toThrow(/^bind "main": prisma CLI not found in node_modules\/\.bin of \/ or above/);
    const project = mkdtempSync(path.join(tmpdir(), 'fw-migrate-start-'));
    try {
      mkdirSync(path.join(project, 'prisma', 'main'), { recursive: true });
      writeFileSync(path.join(project, 'prisma', 'main', 'prisma.config.ts'), '');
      const [inProject] = migrateCommandPlan({ action: 'status', bind: 'main', binds, root: project, interactive: false });
      const error = await runPrisma(inProject!, { binary: '/nonexistent/prisma' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MigrateError);
      expect((error as MigrateError).message).toMatch(/^bind "main": could not start prisma migrate status/);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('runPrisma names the missing migration environment and the command that writes it, before Prisma runs', async () => {
    const project = mkdtempSync(path.join(tmpdir(), 'fw-migrate-noenv-'));
    try {
      const [invocation] = migrateCommandPlan({ action: 'status', bind: 'main', binds, root: project, interactive: false });
      const error = await runPrisma(invocation!, { binary: '/nonexistent/prisma' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MigrateError);
      expect((error as MigrateError).message).toMatch(
        /^bind "main": prisma\/main\/prisma\.config\.ts not found, so this bind has no migration environment yet\. Run "npx fw migrate init"/,
      );
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
