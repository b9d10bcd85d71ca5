import { describe, expect, it } from 'vitest';
import { migrateLayout, renderMigrateEnvironment, MigrateError } from '../../generators/src/migrate/index.js';
import { prismaCli, prismaCliAsync, tempProject, writeFiles } from '../support/prisma.js';

const ONE = { main: 'file:./var/main.db' };
const THREE = {
  main: 'sqlite:///var/main.db',
  reports: 'postgresql+asyncpg://report:pw@127.0.0.1:5432/reports',
  audit: 'postgres://audit@127.0.0.1:5432/audit',
};

describe('fw migrate init: renderMigrateEnvironment', () => {
  it('renders the single-bind layout, and Prisma validates it (per-bind and root config)', async () => {
    const files = renderMigrateEnvironment({ binds: ONE, securityBind: 'main', projectName: 'shop' });
    expect(migrateLayout(ONE)).toBe('single');
    expect([...files.keys()].sort()).toEqual([
      'prisma.config.ts',
      'prisma/README.md',
      'prisma/main/migrations/migration_lock.toml',
      'prisma/main/prisma.config.ts',
      'prisma/main/schema.prisma',
    ]);
    const schema = files.get('prisma/main/schema.prisma')!;
    expect(schema).toMatch(/provider += "prisma-client"/);
    expect(schema).toContain('importFileExtension = "js"');
    expect(schema).toMatch(/output += "..\/..\/generated\/prisma\/main"/);
    expect(schema).toMatch(/datasource db \{\s+provider = "sqlite"\s+\}/);
    expect(schema).toContain('model User {');
    expect(schema).toContain('model Session {');
    // The SQLite fallback is rebased onto the config file's folder; the root config keeps it.
    expect(files.get('prisma/main/prisma.config.ts')).toContain('process.env.DATABASE_URL_MAIN ?? "file:../../var/main.db"');
    expect(files.get('prisma.config.ts')).toContain('process.env.DATABASE_URL_MAIN ?? "file:./var/main.db"');
    expect(files.get('prisma/main/migrations/migration_lock.toml')).toContain('provider = "sqlite"');
    expect(files.get('prisma/README.md')).toContain('single-bind layout');

    const project = await tempProject('render-one');
    try {
      await writeFiles(project.root, files);
      const [perBind, root] = await Promise.all([
        prismaCliAsync(['validate', '--config', 'prisma/main/prisma.config.ts'], { cwd: project.root }),
        prismaCliAsync(['validate'], { cwd: project.root }),
      ]);
      expect(perBind.output).toContain('is valid');
      expect(perBind.status).toBe(0);
      expect(root.output).toContain('prisma/main/schema.prisma is valid');
      expect(root.status).toBe(0);
    } finally {
      await project.cleanup();
    }
  });

  it('renders the multi-bind layout for three binds, each valid for Prisma, no URL with a password written', async () => {
    const files = renderMigrateEnvironment({ binds: THREE, securityBind: 'reports', projectName: 'shop' });
    expect(migrateLayout(THREE)).toBe('multi');
    expect(files.has('prisma.config.ts')).toBe(false);
    for (const bind of ['main', 'reports', 'audit']) {
      expect(files.has(`prisma/${bind}/schema.prisma`)).toBe(true);
      expect(files.has(`prisma/${bind}/prisma.config.ts`)).toBe(true);
      expect(files.has(`prisma/${bind}/migrations/migration_lock.toml`)).toBe(true);
      expect(files.get(`prisma/${bind}/schema.prisma`)).toContain(`output              = "../../generated/prisma/${bind}"`);
    }
    expect(files.get('prisma/reports/schema.prisma')).toMatch(/provider = "postgresql"/);
    expect(files.get('prisma/reports/schema.prisma')).toContain('model User {');
    expect(files.get('prisma/main/schema.prisma')).not.toContain('model User');
    expect(files.get('prisma/audit/schema.prisma')).not.toContain('model User');
    expect(files.get('prisma/reports/prisma.config.ts')).toContain('url: process.env.DATABASE_URL_REPORTS }');
    expect(files.get('prisma/main/prisma.config.ts')).toContain('?? "file:../../var/main.db"');
    for (const content of files.values()) expect(content).not.toContain('pw@');
    expect(files.get('prisma/README.md')).toContain('multi-bind layout');
    expect(files.get('prisma/README.md')).toContain('| `reports` (security models) | postgresql |');

    const project = await tempProject('render-three');
    try {
      await writeFiles(project.root, files);
      const bindsToCheck = ['main', 'reports', 'audit'];
      const results = await Promise.all(
        bindsToCheck.map((bind) => prismaCliAsync(['validate', '--config', `prisma/${bind}/prisma.config.ts`], { cwd: project.root })),
      );
      results.forEach((result, i) => {
        const bind = bindsToCheck[i]!;
        expect(result.output, bind).toContain(`prisma/${bind}/schema.prisma is valid`);
        expect(result.status, bind).toBe(0);
      });
    } finally {
      await project.cleanup();
    }
  });

  it('Prisma validation catches a broken schema (the check above can fail)', async () => {
    const files = renderMigrateEnvironment({ binds: ONE, securityBind: 'main', projectName: 'shop' });
    files.set('prisma/main/schema.prisma', `${files.get('prisma/main/schema.prisma')!}\nmodel Broken {\n  id Int\n}\n`);
    const project = await tempProject('render-broken');
    try {
      await writeFiles(project.root, files);
      const result = prismaCli(['validate', '--config', 'prisma/main/prisma.config.ts'], { cwd: project.root });
      expect(result.status).not.toBe(0);
      expect(result.output).toMatch(/unique criteria|@id/);
    } finally {
      await project.cleanup();
    }
  });

  it('is deterministic, so regenerating yields the same files for the engine to merge', () => {
    const a = renderMigrateEnvironment({ binds: THREE, securityBind: 'main', projectName: 'shop' });
    const b = renderMigrateEnvironment({ binds: THREE, securityBind: 'main', projectName: 'shop' });
    expect([...a]).toEqual([...b]);
  });

  it('rejects bad input with errors naming the key', () => {
    expect(() => renderMigrateEnvironment({ binds: {}, securityBind: 'main', projectName: 'x' })).toThrow(/DATABASE_BINDS: no binds/);
    expect(() => renderMigrateEnvironment({ binds: ONE, securityBind: 'users', projectName: 'x' })).toThrow(
      /SECURITY_MODELS_DB_BIND: "users" is not a bind of DATABASE_BINDS \(binds: main\)/,
    );
    expect(() => renderMigrateEnvironment({ binds: { main: 'mysql://h/db' }, securityBind: 'main', projectName: 'x' })).toThrow(
      /DATABASE_BINDS\.main: unsupported scheme "mysql:"/,
    );
    expect(() => renderMigrateEnvironment({ binds: { 'a-b': 'file:a.db', a_b: 'file:b.db' }, securityBind: 'a-b', projectName: 'x' })).toThrow(
      /binds "a-b" and "a_b" would share DATABASE_URL_A_B/,
    );
    expect(() => renderMigrateEnvironment({ binds: { '../x': 'file:a.db' }, securityBind: '../x', projectName: 'x' })).toThrow(MigrateError);
  });
});
