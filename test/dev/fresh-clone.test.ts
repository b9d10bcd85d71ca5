/**
 * A teammate's fresh clone of a Prisma app: git ignores `generated/`, so the Prisma client the
 * app imports (`generated/prisma/main/`) is not there after `git clone` and `npm install`.
 * `npm run dev`, `npm test` and `npm run typecheck` failed until something ran `prisma
 * generate`; now `fw dev`, `fw test` and `fw typecheck` (what those scripts run) generate a
 * missing client, or one older than its schema, first. A real `fw create project` + `fw migrate
 * init` project with a model, under the checkout's `.tmp/` (its packages resolve from the
 * checkout's node_modules, as an install would give them), the real Prisma CLI with the
 * schema-engine stand-in, and the project's own npm scripts.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../generators/src/commands/index.js';
import { testIO } from '../generators/helpers.js';
import { fw, linkFromCheckout, newProject } from '../generators/project-helpers.js';
import { usePrismaOffline } from '../support/prisma.js';
import { cleanupDevProjects, devProject, DevRun, linkCheckoutFw, REPO, requireBuild } from './helpers.js';

let root: string;
const GENERATED = 'generated/prisma/main';
const CLIENT = path.join(GENERATED, 'client.ts');

/** The environment of the project's scripts: this one without the outer vitest's own variables. */
function projectEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_ENV' && key !== 'FW_ENV'));
}

/** Runs the project's `npm run <script>`; its exit code and output. */
function npmRun(script: string): Promise<{ code: number | null; output: string }> {
  return command('npm', ['run', script]);
}

/** Runs `command` in the project with its environment; its exit code and output. */
function command(file: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd: root, env: projectEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** What a clone has: no generated/. */
async function clone(): Promise<void> {
  await rm(path.join(root, 'generated'), { recursive: true, force: true });
}

beforeAll(async () => {
  requireBuild();
  usePrismaOffline();
  const parent = devProject({});
  expect((await fw(parent, 'create', 'project', 'notes', '--yes')).code).toBe(0);
  root = path.join(parent, 'notes');
  expect((await fw(root, 'migrate', 'init', '--no-install')).code).toBe(0);
  linkCheckoutFw(root); // the project's own `fw`: this checkout's build
  await appendFile(path.join(root, 'prisma/main/schema.prisma'), '\nmodel Note {\n  id   Int    @id @default(autoincrement())\n  text String\n}\n');
  await writeFile(
    path.join(root, 'fluid/notes.ts'),
    [
      "import type { Fluid } from '@fw/kernel';",
      "import { Database, registerDatabase } from '@fw/kernel/db';",
      "import { PrismaClient } from '../generated/prisma/main/client.js';",
      '',
      '/** The notes route, on the main bind. */',
      'export function notes(fluid: Fluid): void {',
      '  const db = new Database({ binds: fluid.config.DATABASE_BINDS, root: fluid.root, clients: { main: PrismaClient } });',
      '  registerDatabase(fluid, db);',
      "  fluid.app.get('notes', '/notes', async () => ({ notes: await db.bind('main').note.findMany() }));",
      '}',
      '',
    ].join('\n'),
  );
  const app = await readFile(path.join(root, 'fluid/app.ts'), 'utf8');
  await writeFile(
    path.join(root, 'fluid/app.ts'),
    `import { notes } from './notes.js';\n${app.replace('export default fluid;', 'notes(fluid);\n\nexport default fluid;')}`,
  );
  await mkdir(path.join(root, 'test'), { recursive: true });
  await writeFile(
    path.join(root, 'test/notes.test.ts'),
    [
      "import { afterAll, expect, test } from 'vitest';",
      "import { testClient } from '@fw/kernel/testing';",
      "import type { Note } from '../generated/prisma/main/client.js';",
      "import fluid from '../fluid/app.js';",
      '',
      'const client = testClient(fluid);',
      '',
      'afterAll(() => client.close());',
      '',
      "test('the notes route answers from the database', async () => {",
      "  const res = await client.get('/notes', { headers: { accept: 'application/json' } });",
      '  expect(res.status).toBe(200);',
      '  const { notes } = JSON.parse(res.text) as { notes: Note[] };',
      '  expect(notes).toEqual([]);',
      '});',
      '',
    ].join('\n'),
  );
  // The migration and the SQLite database (fw migrate dev), then the clone: no generated client.
  const migrated = await fw(root, 'migrate', 'dev', '--name', 'notes', '--force');
  expect(migrated.code, migrated.error ?? migrated.out).toBe(0);
  await clone();
}, 240_000);

afterAll(() => cleanupDevProjects());

describe('a fresh clone of a Prisma app (no generated/) runs its scripts', () => {
  it('npm run typecheck generates the missing client first; a current one is left alone, a stale one regenerated', async () => {
    await clone();
    const first = await npmRun('typecheck');
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain(`fw typecheck: generated the Prisma client of prisma/main (${GENERATED} was missing)`);
    expect(existsSync(path.join(root, CLIENT))).toBe(true);

    const again = await npmRun('typecheck');
    expect(again.code, again.output).toBe(0);
    expect(again.output).not.toContain('generated the Prisma client');

    // A schema edited (or pulled) after the client was generated: the client is the older file.
    const earlier = new Date(Date.now() - 3_600_000);
    await utimes(path.join(root, CLIENT), earlier, earlier);
    const stale = await npmRun('typecheck');
    expect(stale.code, stale.output).toBe(0);
    expect(stale.output).toContain(`fw typecheck: generated the Prisma client of prisma/main (${GENERATED} was older than prisma/main/schema.prisma)`);
  }, 180_000);

  it("npm test generates the missing client, then the project's tests pass", async () => {
    await clone();
    const result = await npmRun('test');
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain(`fw test: generated the Prisma client of prisma/main (${GENERATED} was missing)`);
    expect(result.output).toMatch(/notes\.test\.ts/);
  }, 180_000);

  it("npx vitest run (not npm test) generates the missing client in the project's globalSetup, then the tests pass", async () => {
    await clone();
    // The project's own vitest, run directly as `npx vitest run` would (the checkout's install).
    const result = await command(path.join(REPO, 'node_modules/.bin/vitest'), ['run']);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain(`vitest: generated the Prisma client of prisma/main (${GENERATED} was missing)`);
    expect(result.output).toMatch(/notes\.test\.ts/);

    // npm test checked the clients itself: its vitest does not check (or say anything) again.
    await clone();
    const viaScript = await npmRun('test');
    expect(viaScript.code, viaScript.output).toBe(0);
    expect(viaScript.output).toContain('fw test: generated the Prisma client of prisma/main');
    expect(viaScript.output).not.toContain('vitest: generated');
  }, 180_000);

  it('npm run dev generates the missing client, then serves a route using the model', async () => {
    await clone();
    const dev = await DevRun.npm(root, 'dev', projectEnv());
    try {
      await dev.waitForBoot();
      expect(dev.output).toContain(`fw dev: generated the Prisma client of prisma/main (${GENERATED} was missing)`);
      const res = await fetch(`${dev.base}/notes`, { headers: { accept: 'application/json' } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ notes: [] });
    } finally {
      await dev.stop();
    }
  }, 180_000);
});

describe('without the Prisma CLI installed', () => {
  it('fw typecheck warns what to install, naming the client it could not generate, and goes on (nothing imports the client yet)', async () => {
    const project = await newProject('noprisma');
    expect((await fw(project, 'migrate', 'init', '--no-install')).code).toBe(0);
    await linkFromCheckout(project, ['typescript', '@types/node', '@fw/kernel', 'vitest']);
    const io = testIO(project);
    let said = '';
    io.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
    expect(await run(['typecheck'], io), said + io.out()).toBe(0);
    expect(said).toBe(
      `warning: fw typecheck: prisma CLI not found in node_modules/.bin of ${project} or above; install it: npm install --save-dev --save-exact prisma@7 ` +
        '(so the Prisma client is not generated: prisma/main: generated/prisma/main was missing)\n',
    );
  });
});

describe('a client generated to a custom output (not generated/prisma/<bind>)', () => {
  it('npm run typecheck, npm test and npm run build generate it there, and the build compiles it from there', async () => {
    const schema = path.join(root, 'prisma/main/schema.prisma');
    await writeFile(schema, (await readFile(schema, 'utf8')).replace('"../../generated/prisma/main"', '"../../lib/db/main"'));
    for (const file of ['fluid/notes.ts', 'test/notes.test.ts']) {
      const abs = path.join(root, file);
      await writeFile(abs, (await readFile(abs, 'utf8')).replace('../generated/prisma/main/client.js', '../lib/db/main/client.js'));
    }
    await clone();

    const typecheck = await npmRun('typecheck');
    expect(typecheck.code, typecheck.output).toBe(0);
    expect(typecheck.output).toContain('fw typecheck: generated the Prisma client of prisma/main (lib/db/main was missing)');

    await rm(path.join(root, 'lib'), { recursive: true, force: true });
    const tests = await npmRun('test');
    expect(tests.code, tests.output).toBe(0);
    expect(tests.output).toContain('fw test: generated the Prisma client of prisma/main (lib/db/main was missing)');

    await rm(path.join(root, 'lib'), { recursive: true, force: true });
    const build = await npmRun('build');
    expect(build.code, build.output).toBe(0);
    expect(existsSync(path.join(root, 'lib/db/main/client.ts'))).toBe(true);
    expect(existsSync(path.join(root, 'dist/lib/db/main/client.js'))).toBe(true);
    expect(existsSync(path.join(root, 'generated'))).toBe(false);
  }, 240_000);
});
