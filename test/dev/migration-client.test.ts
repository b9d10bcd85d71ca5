/**
 * `fw dev` and `fw migrate dev` in another terminal: Prisma writes the migration's
 * `migration.sql` before fw regenerates the client (`generated/prisma/<bind>/`, the schema's
 * `output`), so an app restarted on the migration alone loaded the old client, and a route using
 * the new model failed until the next unrelated change. fw dev now watches the client folder
 * too and waits for it after a migration. A real `fw dev` (the built CLI) on a SQLite bind, and a
 * real `fw migrate dev` (the repository's Prisma with the schema-engine stand-in) run beside it.
 */
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupDevProjects, DevRun, fwCli, requireBuild } from './helpers.js';
import { notesProject } from './notes-project.js';

let root: string;


beforeAll(async () => {
  requireBuild();
  root = await notesProject('dev-loop-migration-client-secret', [
    "fluid.app.get('notes', '/notes', async () => ({ notes: await db.bind('main').note.findMany() }));",
    '// The model the migration below adds: the client the app loaded must know it.',
    "fluid.app.get('labels', '/labels', async () => ({ labels: await (db.bind('main') as unknown as { label: { findMany(): Promise<unknown[]> } }).label.findMany() }));",
  ]);
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
      const migrated = await fwCli(root, 'migrate', 'dev', '--name', 'labels', '--force');
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
