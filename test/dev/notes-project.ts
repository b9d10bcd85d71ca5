/**
 * A dev project for the tests of `fw dev` beside Prisma: a SQLite bind `main` with a `Note` model,
 * its first migration made and applied as `fw migrate dev` does, and its client generated (the
 * repository's Prisma with the schema-engine stand-in).
 */
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { migrateCommandPlan, renderMigrateEnvironment, runPrismaAll } from '../../generators/src/migrate/index.js';
import { prismaCli, usePrismaOffline, writeFiles } from '../support/prisma.js';
import { devProject } from './helpers.js';

/** The binds of {@link notesProject}. */
export const NOTES_BINDS = { main: 'file:./var/dev.db' };

/**
 * Makes the project and answers its root. `routes` are `fluid/app.ts`'s lines after the set-up,
 * with `fluid` and `db` (the registered `Database`) in scope.
 */
export async function notesProject(secret: string, routes: readonly string[]): Promise<string> {
  usePrismaOffline();
  const root = devProject({
    'package.json': JSON.stringify({ name: 'notes', private: true, type: 'module' }),
    'fw.json': JSON.stringify({ name: 'notes', config: { APP_FRONTEND: { type: 'htmx', alpine: false }, DATABASE_BINDS: NOTES_BINDS, HEALTH_CHECK_TIMEOUT: 60 } }, null, 2),
    'app_configs/notes.ini': `SECRET_KEY = ${secret}\n`,
    'fluid/app.ts': [
      "import { Fluid } from '@fw/kernel';",
      "import { Database, registerDatabase } from '@fw/kernel/db';",
      "import { PrismaClient } from '../generated/prisma/main/client.js';",
      "export const fluid = new Fluid({ root: new URL('..', import.meta.url) });",
      'const db = new Database({ binds: fluid.config.DATABASE_BINDS, root: fluid.root, clients: { main: PrismaClient } });',
      'registerDatabase(fluid, db);',
      ...routes,
      'export default fluid;',
      '',
    ].join('\n'),
  });
  await writeFiles(root, renderMigrateEnvironment({ binds: NOTES_BINDS, securityBind: 'main', projectName: 'notes' }));
  await appendFile(path.join(root, 'prisma/main/schema.prisma'), '\nmodel Note {\n  id   Int    @id @default(autoincrement())\n  text String\n}\n');
  await runPrismaAll(migrateCommandPlan({ action: 'dev', name: 'notes', binds: NOTES_BINDS, root, interactive: false, force: true }));
  const generated = prismaCli(['generate', '--config', 'prisma/main/prisma.config.ts'], { cwd: root });
  expect(generated.status, generated.output).toBe(0);
  return root;
}
