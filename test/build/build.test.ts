/**
 * `fw build` (generators/src/commands/build.ts) on a small project with the repository's own
 * TypeScript linked in: what it compiles, what it copies beside the compiled modules, what it
 * leaves out, and how it fails.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { run } from '../../generators/src/commands/build.js';
import { listFiles, REPO, tempDir, testIO } from '../generators/helpers.js';
import { fw, linkFromCheckout, newProject } from '../generators/project-helpers.js';
import { ensurePrismaOffline } from '../support/prisma.js';

const TSCONFIG = JSON.stringify({
  compilerOptions: { target: 'ES2023', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: [], rootDir: '.', outDir: 'dist' },
  include: ['fluid', 'additives'],
  exclude: ['fluid/frontend', 'additives/*/frontend', '**/*.test.ts', 'node_modules', 'dist'],
});

async function project(files: Record<string, string>): Promise<string> {
  const root = await tempDir('fw-build-');
  await mkdir(path.join(root, 'node_modules'));
  await symlink(path.join(REPO, 'node_modules/typescript'), path.join(root, 'node_modules/typescript'), 'dir');
  const all: Record<string, string> = { 'fw.json': '{ "name": "b" }\n', 'package.json': '{ "name": "b", "type": "module" }\n', 'tsconfig.build.json': TSCONFIG, ...files };
  for (const [file, content] of Object.entries(all)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), content);
  }
  return root;
}

test('compiles fluid/ and additives/ into dist/, copies their other files beside the modules, leaves tests and Vite workspaces out', async () => {
  const root = await project({
    'fluid/app.ts': "import { greet } from '../additives/blog/index.js';\nexport default greet('fw');\n",
    'fluid/server.ts': "import app from './app.js';\nconsole.log(app);\n",
    'fluid/templates/index.html': '<h1>{{title}}</h1>\n',
    'fluid/static/app.css': 'body {}\n',
    'fluid/home.test.ts': "throw new Error('a test is not compiled');\n",
    'fluid/frontend/src/main.ts': "document.title = 'built by Vite';\n",
    'fluid/frontend/index.html': '<div id="app"></div>\n',
    'additives/blog/index.ts': 'export const greet = (name: string): string => `hello ${name}`;\n',
    'additives/blog/manifest.json': '{ "name": "blog" }\n',
    'additives/blog/templates/blog/index.html': '<p>blog</p>\n',
    'additives/blog/frontend/src/main.ts': 'export {};\n',
    'dist/stale.js': "// from a source deleted since the last build\n",
  });
  const io = testIO(root);
  expect(await run([], io)).toBe(0);
  expect((await listFiles(path.join(root, 'dist'))).sort()).toEqual([
    'additives/blog/index.js',
    'additives/blog/manifest.json',
    'additives/blog/templates/blog/index.html',
    'fluid/app.js',
    'fluid/server.js',
    'fluid/static/app.css',
    'fluid/templates/index.html',
  ]);
  expect(await readFile(path.join(root, 'dist/fluid/app.js'), 'utf8')).toContain("from '../additives/blog/index.js'");
  expect(io.out()).toContain('copied 4 other files beside them');
  expect(io.out()).toContain('npm start (node dist/fluid/server.js)');
});

test('a type error fails the build, naming tsc, and nothing says it can start', async () => {
  const root = await project({ 'fluid/app.ts': "export const n: number = 'not a number';\n" });
  const io = testIO(root);
  await expect(run([], io)).rejects.toThrow(/fw build: "tsc -p tsconfig\.build\.json" failed \(exit 2\)/);
  expect(io.out()).toContain("fluid/app.ts(1,14): error TS2322");
  expect(io.out()).not.toContain('Start it with');
});

test('without tsconfig.build.json or TypeScript it says what is missing and how to get it', async () => {
  const root = await project({ 'fluid/app.ts': 'export {};\n' });
  await rm(path.join(root, 'tsconfig.build.json'));
  await expect(run([], testIO(root))).rejects.toThrow(/tsconfig\.build\.json not found in .*run "fw generate" to restore it/);
  await writeFile(path.join(root, 'tsconfig.build.json'), TSCONFIG);
  await rm(path.join(root, 'node_modules/typescript'));
  await expect(run([], testIO(root))).rejects.toThrow(/typescript is not installed in .*run "npm install"/);
  expect(existsSync(path.join(root, 'dist'))).toBe(false);
});

test('a tsconfig.build.json fw generated and you deleted: the error says how to get it back, and that way works', async () => {
  const root = await newProject('deleted', '--yes');
  await rm(path.join(root, 'tsconfig.build.json'));
  const error = await run([], testIO(root)).then(() => '', (e: unknown) => (e instanceof Error ? e.message : String(e)));
  expect(error).toContain('fw build: tsconfig.build.json not found in ');
  // fw generate alone keeps a file you deleted deleted, so the error must not send you there alone.
  expect((await fw(root, 'generate')).out).toMatch(/skip-deleted\s+tsconfig\.build\.json/);
  expect(existsSync(path.join(root, 'tsconfig.build.json'))).toBe(false);
  expect(error).toContain(
    'you deleted it, and "fw generate" keeps a generated file you deleted deleted: restore it from git, or delete its "tsconfig.build.json" entry from .fw/record.json and run "fw generate"',
  );
  const record = JSON.parse(await readFile(path.join(root, '.fw/record.json'), 'utf8')) as { files: Record<string, unknown> };
  delete record.files['tsconfig.build.json'];
  await writeFile(path.join(root, '.fw/record.json'), `${JSON.stringify(record, null, 2)}\n`);
  expect((await fw(root, 'generate')).out).toMatch(/create\s+tsconfig\.build\.json/);
  expect(existsSync(path.join(root, 'tsconfig.build.json'))).toBe(true);
});

test('fw build --help explains the steps; a stray argument is an error', async () => {
  const io = testIO(REPO);
  expect(await run(['--help'], io)).toBe(0);
  expect(io.out()).toMatch(/generates the Prisma client[\s\S]*compiles the server code[\s\S]*copies every other file[\s\S]*builds every Vite workspace/);
  await expect(run(['now'], testIO(REPO))).rejects.toThrow(/fw build: unexpected argument now/);
});

test('a fresh checkout of a Prisma app builds: fw build generates the git-ignored client the server code imports', async () => {
  const root = await newProject('fresh');
  expect((await fw(root, 'migrate', 'init', '--no-install')).code).toBe(0);
  await writeFile(
    path.join(root, 'prisma/main/schema.prisma'),
    (await readFile(path.join(root, 'prisma/main/schema.prisma'), 'utf8')) + '\nmodel Note {\n  id   Int    @id @default(autoincrement())\n  text String\n}\n',
  );
  // Server code that needs the generated client's types, as the auth scaffold's does.
  await writeFile(
    path.join(root, 'fluid/notes.ts'),
    "import type { Note } from '../generated/prisma/main/client.js';\n\nexport const label = (note: Note): string => note.text;\n",
  );
  // What a clone has: no generated/ (git ignores it), the packages npm ci installs.
  expect(existsSync(path.join(root, 'generated'))).toBe(false);
  await linkFromCheckout(root, ['typescript', '@types/node', '@fw/kernel', 'prisma', '@prisma/client']);
  await mkdir(path.join(root, 'node_modules/.bin'));
  await symlink('../prisma/build/index.js', path.join(root, 'node_modules/.bin/prisma'));
  const io = testIO(root);
  io.env = { ...io.env, PRISMA_SCHEMA_ENGINE_BINARY: ensurePrismaOffline(), CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1' };
  expect(await run([], io)).toBe(0);
  expect(existsSync(path.join(root, 'dist/fluid/notes.js'))).toBe(true);
  expect(existsSync(path.join(root, 'dist/generated/prisma/main/client.js'))).toBe(true);
  expect(io.out()).toContain('fw build: generated the Prisma client (main), compiled fluid/ and additives/ into dist/');
}, 120_000);

test('a Prisma app without the prisma CLI installed: the build says what to install', async () => {
  const root = await newProject('noprisma');
  expect((await fw(root, 'migrate', 'init', '--no-install')).code).toBe(0);
  await expect(run([], testIO(root))).rejects.toThrow(
    /^fw build: prisma CLI not found in node_modules\/\.bin of .*; install it: npm install --save-dev --save-exact prisma@7 \(the build generates the Prisma client of prisma\/main\)$/,
  );
});
