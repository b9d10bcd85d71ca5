/**
 * A Prisma client generated to a custom `output` (not `generated/prisma/<bind>`). `fw dev` read the
 * client folders on a migration or a restart only, so after `output` moved in `schema.prisma` it
 * neither generated the client there nor watched the new folder (a folder the watcher had skipped
 * stayed skipped). Now a schema change re-reads them: the client is generated at the new `output`,
 * the app imports it from there, and a later `prisma generate` or `fw migrate dev` restarts the
 * app with the client regenerated there. A real `fw dev` (the built CLI) on a SQLite bind, the repository's Prisma with
 * the schema-engine stand-in.
 */
import { existsSync } from 'node:fs';
import { appendFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staleClients } from '../../generators/src/migrate/client.js';
import { prismaCli } from '../support/prisma.js';
import { cleanupDevProjects, devProject, DevRun, edit, fwCli, requireBuild } from './helpers.js';
import { notesProject } from './notes-project.js';

let root: string;
const SCHEMA = 'prisma/main/schema.prisma';
const OLD_OUTPUT = 'output              = "../../generated/prisma/main"';
/** In a folder that exists before fw dev starts, two levels down, holding nothing it watches. */
const NEW_OUTPUT = 'output              = "../../lib/db/main"';


beforeAll(async () => {
  requireBuild();
  root = await notesProject('dev-loop-client-output-secret', [
    "fluid.app.get('notes', '/notes', async () => ({ notes: await db.bind('main').note.findMany() }));",
    "fluid.app.get('labels', '/labels', async () => ({ labels: await (db.bind('main') as unknown as { label: { findMany(): Promise<unknown[]> } }).label.findMany() }));",
  ]);
  await mkdir(path.join(root, 'lib/db'), { recursive: true });
  await writeFile(path.join(root, 'lib/db/README.md'), 'Database code.\n');
}, 180_000);

afterAll(() => cleanupDevProjects());

describe('fw dev when schema.prisma moves the client (generator output)', () => {
  it('generates the client at the new output, serves from it, and restarts on its regeneration after fw migrate dev', async () => {
    const dev = await DevRun.start(root, ['dev']);
    const get = async (pathname: string) => {
      const res = await fetch(`${dev.base}${pathname}`, { headers: { accept: 'application/json' } }).catch(() => undefined);
      return res ? { status: res.status, body: (await res.json().catch(() => undefined)) as unknown } : undefined;
    };
    try {
      await dev.waitForBoot();
      expect(await get('/notes')).toEqual({ status: 200, body: { notes: [] } });

      edit(root, SCHEMA, OLD_OUTPUT, NEW_OUTPUT);
      await dev.waitFor(() => dev.output.includes('fw dev: generated the Prisma client of prisma/main (lib/db/main was missing)'), 'the client generated at the new output');
      expect(existsSync(path.join(root, 'lib/db/main/client.ts'))).toBe(true);

      // The app imports it from there; the old folder is gone, so what answers uses the new one.
      await rm(path.join(root, 'generated'), { recursive: true, force: true });
      const boots = dev.boots;
      edit(root, 'fluid/app.ts', "'../generated/prisma/main/client.js'", "'../lib/db/main/client.js'");
      await dev.waitFor(() => dev.boots > boots, 'the app restarted on its import');
      await dev.waitFor(async () => (await get('/notes'))?.status === 200, 'the notes route answering');
      expect(await get('/notes')).toEqual({ status: 200, body: { notes: [] } });
      expect((await get('/labels'))?.status).toBe(500); // the client has no Label model yet

      // A client regenerated there restarts the app (the watcher had skipped lib/ at its start).
      await appendFile(path.join(root, SCHEMA), '\nmodel Label {\n  id   Int    @id @default(autoincrement())\n  name String\n}\n');
      const before = dev.boots;
      const generated = prismaCli(['generate', '--config', 'prisma/main/prisma.config.ts'], { cwd: root });
      expect(generated.status, generated.output).toBe(0);
      await dev.waitFor(() => dev.boots > before, 'a restart on the regenerated client');
      expect(dev.output).toMatch(/fw dev: lib\/db\/main\/\S+ changed, restarting/);

      // fw migrate dev regenerates the client at the new output: fw dev waits for it there.
      const migrated = await fwCli(root, 'migrate', 'dev', '--name', 'labels', '--force');
      expect(migrated.code, migrated.output).toBe(0);
      await dev.waitFor(async () => (await get('/labels'))?.status === 200, 'the new model answering after fw migrate dev');
      expect(await get('/labels')).toEqual({ status: 200, body: { labels: [] } });
      expect(existsSync(path.join(root, 'generated'))).toBe(false);
    } finally {
      expect(await dev.stop()).toBe(0);
    }
  }, 240_000);
});

describe('the client check of fw dev, fw test, fw typecheck', () => {
  it("reads the output of the prisma-client generator, not of another generator's block before it", async () => {
    const project = devProject({
      'prisma/main/prisma.config.ts': "export default { schema: './schema.prisma' };\n",
      'prisma/main/schema.prisma': [
        'generator erd {\n  provider = "prisma-erd-generator"\n  output   = "../../docs/erd.svg"\n}',
        'generator client {\n  provider = "prisma-client"\n  output   = "../../lib/db/main"\n}',
        '',
      ].join('\n'),
    });
    expect(await staleClients(project)).toEqual([{ bind: 'main', reason: 'lib/db/main was missing' }]);
  });
});
