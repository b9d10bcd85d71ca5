/**
 * `fw dev` and `fw migrate dev` in another terminal: Prisma writes the migration's
 * `migration.sql` before fw regenerates the client (`generated/prisma/<bind>/`, the schema's
 * `output`), so an app restarted on the migration alone loaded the old client, and a route using
 * the new model failed until the next unrelated change. fw dev now watches the client folder
 * too and waits for it after a migration. A real `fw dev` (the built CLI) on a SQLite bind, and a
 * real `fw migrate dev` (the repository's Prisma with the schema-engine stand-in) run beside it.
 */
import { spawn } from 'node:child_process';
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateCommandPlan, renderMigrateEnvironment, runPrismaAll } from '../../generators/src/migrate/index.js';
import { prismaCli, usePrismaOffline, writeFiles } from '../support/prisma.js';
import { cleanupDevProjects, devProject, DevRun, FW_BIN, requireBuild } from './helpers.js';

const BINDS = { main: 'file:./var/dev.db' };
let root: string;

/** Runs the built `fw <argv>` in `root` (asynchronously: fw dev's output keeps flowing); its exit code and output. */
function fwCli(...argv: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [FW_BIN, ...argv], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

beforeAll(async () => {
  requireBuild();
  usePrismaOffline();
  root = devProject({
    'package.json': JSON.stringify({ name: 'notes', private: true, type: 'module' }),
    'fw.json': JSON.stringify({ name: 'notes', config: { APP_FRONTEND: { type: 'htmx', alpine: false }, DATABASE_BINDS: BINDS, HEALTH_CHECK_TIMEOUT: 60 } }, null, 2),
    'app_configs/notes.ini': 'SECRET_KEY = dev-loop-migration-client-secret\n',
    'fluid/app.ts': [
      "import { Fluid } from '@fw/kernel';",
      "import { Database, registerDatabase } from '@fw/kernel/db';",
      "import { PrismaClient } from '../generated/prisma/main/client.js';",
      "export const fluid = new Fluid({ root: new URL('..', import.meta.url) });",
      'const db = new Database({ binds: fluid.config.DATABASE_BINDS, root: fluid.root, clients: { main: PrismaClient } });',
      'registerDatabase(fluid, db);',
      "fluid.app.get('notes', '/notes', async () => ({ notes: await db.bind('main').note.findMany() }));",
      '// The model the migration below adds: the client the app loaded must know it.',
      "fluid.app.get('labels', '/labels', async () => ({ labels: await (db.bind('main') as unknown as { label: { findMany(): Promise<unknown[]> } }).label.findMany() }));",
      'export default fluid;',
      '',
    ].join('\n'),
  });
  await writeFiles(root, renderMigrateEnvironment({ binds: BINDS, securityBind: 'main', projectName: 'notes' }));
  await appendFile(path.join(root, 'prisma/main/schema.prisma'), '\nmodel Note {\n  id   Int    @id @default(autoincrement())\n  text String\n}\n');
  await runPrismaAll(migrateCommandPlan({ action: 'dev', name: 'notes', binds: BINDS, root, interactive: false, force: true }));
  const generated = prismaCli(['generate', '--config', 'prisma/main/prisma.config.ts'], { cwd: root });
  expect(generated.status, generated.output).toBe(0);
}, 180_000);

afterAll(() => cleanupDevProjects());

describe('fw dev and fw migrate dev run beside it', () => {
  it('restarts the app with the regenerated client: the new model answers', async () => {
    const dev = await DevRun.start(root, ['dev']);
    try {
      await dev.waitForBoot();
      const get = async (pathname: string) => {
        const res = await fetch(`${dev.base}${pathname}`, { headers: { accept: 'application/json' } }).catch(() => undefined);
        return res ? { status: res.status, body: (await res.json().catch(() => undefined)) as unknown } : undefined;
      };
      expect(await get('/notes')).toEqual({ status: 200, body: { notes: [] } });
      expect((await get('/labels'))?.status).toBe(500); // the client has no Label model yet

      await appendFile(path.join(root, 'prisma/main/schema.prisma'), '\nmodel Label {\n  id   Int    @id @default(autoincrement())\n  name String\n}\n');
      const migrated = await fwCli('migrate', 'dev', '--name', 'labels', '--force');
      expect(migrated.code, migrated.output).toBe(0);
      expect(migrated.output).toMatch(/generate/i);
      await dev.waitFor(async () => (await get('/labels'))?.status === 200, 'the new model answering after fw migrate dev');
      expect(await get('/labels')).toEqual({ status: 200, body: { labels: [] } });
      expect(dev.output).toMatch(/fw dev: prisma\/main\/migrations\/\d+_labels\/migration\.sql changed, restarting/);
      expect(await get('/notes')).toEqual({ status: 200, body: { notes: [] } });
    } finally {
      expect(await dev.stop()).toBe(0);
    }
  }, 180_000);
});
