/**
 * A migration that arrives while `fw dev` runs without `fw migrate dev` regenerating the client
 * (a `git pull` or a checkout: the schema, its new migration and the app's code change at once).
 * `fw dev` waited for a client that never came and restarted the app on what it had: with the
 * generator's `output` moved in the same pull, the app could not start (`Cannot find module
 * lib/db/main/client.js`) and stayed down; with the `output` unchanged, it ran the stale client,
 * without the new model. Now the migration's batch brings the clients up to date first. A real
 * `fw dev` (the built CLI) on a SQLite bind, the repository's Prisma with the schema-engine
 * stand-in; `fw migrate deploy` applies what was pulled.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupDevProjects, DevRun, fwCli, requireBuild } from './helpers.js';
import { notesProject } from './notes-project.js';

let root: string;
const SCHEMA = 'prisma/main/schema.prisma';

/** What a pull brings, written at once: the schema (a new model, maybe a new `output`), its migration, the app's code. */
async function pull(files: { model: string; table: string; migration: string; output?: string; route: string }): Promise<void> {
  let schema = await readFile(path.join(root, SCHEMA), 'utf8');
  if (files.output) schema = schema.replace(/output(\s*)= "[^"]+"/, `output$1= "${files.output}"`);
  schema += `\nmodel ${files.model} {\n  id   Int    @id @default(autoincrement())\n  name String\n}\n`;
  let app = await readFile(path.join(root, 'fluid/app.ts'), 'utf8');
  if (files.output) app = app.replace(/'\.\.\/[^']+\/client\.js'/, `'../${files.output.replace('../../', '')}/client.js'`);
  app = app.replace('export default fluid;', `${files.route}\nexport default fluid;`);
  const migration = path.join(root, 'prisma/main/migrations', files.migration);
  await mkdir(migration, { recursive: true });
  await Promise.all([
    writeFile(path.join(root, SCHEMA), schema),
    writeFile(path.join(migration, 'migration.sql'), `CREATE TABLE "${files.table}" ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL);\n`),
    writeFile(path.join(root, 'fluid/app.ts'), app),
  ]);
}

/** A route listing the rows of `model` (its client property), e.g. `labels` for `label`. */
const listRoute = (model: string): string =>
  `fluid.app.get('${model}s', '/${model}s', async () => ({ rows: await (db.bind('main') as unknown as Record<string, { findMany(): Promise<unknown[]> }>)['${model}']!.findMany() }));`;

beforeAll(async () => {
  requireBuild();
  root = await notesProject('dev-loop-pulled-migration-secret', ["fluid.app.get('notes', '/notes', async () => ({ notes: await db.bind('main').note.findMany() }));"]);
}, 180_000);

afterAll(() => cleanupDevProjects());

describe('fw dev when a pull brings a migration without its client', () => {
  it('generates the client (at a moved output too) before it restarts the app, which serves the new model once deployed', async () => {
    const dev = await DevRun.start(root, ['dev']);
    const get = async (pathname: string) => {
      const res = await fetch(`${dev.base}${pathname}`, {
        headers: { accept: 'application/json' },
      }).catch(() => undefined);
      return res
        ? {
            status: res.status,
            body: (await res.json().catch(() => undefined)) as unknown,
          }
        : undefined;
    };
    try {
      await dev.waitForBoot();
      expect(await get('/notes')).toEqual({ status: 200, body: { notes: [] } });

      // The output moves to lib/db/main in the same pull: the client is generated there.
      let boots = dev.boots;
      await pull({
        model: 'Label',
        table: 'Label',
        migration: '20300101000000_labels',
        output: '../../lib/db/main',
        route: listRoute('label'),
      });
      await dev.waitFor(() => dev.output.includes('fw dev: generated the Prisma client of prisma/main (lib/db/main was missing)'), 'the client generated at the new output');
      await dev.waitFor(() => dev.boots > boots, 'the app restarted');
      expect(dev.output).not.toContain('Cannot find module');
      // The old folder is still there, and nothing regenerates it any more.
      expect(dev.output).toContain(
        "fw dev: generated/prisma/main is no longer any schema's output (the client is now generated into lib/db/main): code that imports it gets a client nothing regenerates; import the new one, then delete generated/prisma/main\n",
      );
      expect(existsSync(path.join(root, 'lib/db/main/models/Label.ts'))).toBe(true);
      const deployed = await fwCli(root, 'migrate', 'deploy');
      expect(deployed.code, deployed.output).toBe(0);
      await dev.waitFor(async () => (await get('/labels'))?.status === 200, 'the pulled model answering');
      expect(await get('/labels')).toEqual({ status: 200, body: { rows: [] } });

      // The output stays: the stale client is generated again before the restart.
      boots = dev.boots;
      await pull({
        model: 'Tag',
        table: 'Tag',
        migration: '20300102000000_tags',
        route: listRoute('tag'),
      });
      await dev.waitFor(() => dev.output.includes('fw dev: generated the Prisma client of prisma/main (lib/db/main was older than prisma/main/schema.prisma)'), 'the stale client generated');
      await dev.waitFor(() => dev.boots > boots, 'the app restarted');
      const deployedTags = await fwCli(root, 'migrate', 'deploy');
      expect(deployedTags.code, deployedTags.output).toBe(0);
      await dev.waitFor(async () => (await get('/tags'))?.status === 200, 'the second pulled model answering');
      expect(await get('/tags')).toEqual({ status: 200, body: { rows: [] } });
      expect(await get('/notes')).toEqual({ status: 200, body: { notes: [] } });
    } finally {
      expect(await dev.stop()).toBe(0);
    }
  }, 240_000);
});
