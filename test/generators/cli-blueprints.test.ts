/**
 * The code fw generates is code the user owns (issue 16 "generated code", bugs 4, 10, 11, 12):
 * no dead files, no placeholders, helpers instead of hard-coded paths, the scripts a project
 * needs, and the documented patterns boot. Apps are booted in this process (vitest resolves
 * `@fw/kernel` to this checkout) and asked over HTTP.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, unlink, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { REPO, listFiles } from './helpers.js';
import { editConfig, fw, newProject, read } from './project-helpers.js';

interface BootedApp {
  url: string;
  close: () => Promise<void>;
}

const booted: BootedApp[] = [];
const savedEnv = { ...process.env };

afterEach(async () => {
  await Promise.all(booted.splice(0).map((app) => app.close()));
  process.env = { ...savedEnv };
});

/**
 * Imports the project's `fluid/app.ts` and serves it on a free port, in production mode with the
 * Vite build done ahead (as `npm start` after `npm run build`).
 */
async function boot(root: string): Promise<BootedApp> {
  Object.assign(process.env, { DEBUG: 'false', FW_CHECK_FRONTEND: 'false', FW_BUILD_FRONTEND: 'false' });
  const { default: fluid } = (await import(pathToFileURL(path.join(root, 'fluid/app.ts')).href)) as {
    default: { listen: (port: number, host: string) => Promise<import('node:http').Server>; close: () => Promise<void> };
  };
  const server = await fluid.listen(0, '127.0.0.1');
  const app = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => fluid.close() };
  booted.push(app);
  return app;
}

const TEMPLATE_HOME = ['fluid/templates/index.html', 'fluid/static/app.css', 'fluid/static/favicon.svg'];

describe('the project', () => {
  test('a Vite project gets no dead htmx files; htmx gets its fragment; none gets no fragment', async () => {
    const vite = await listFiles(await newProject('viteproj', '--framework', 'react'));
    for (const file of [...TEMPLATE_HOME, 'fluid/templates/hello.html']) expect(vite, file).not.toContain(file);
    const htmx = await listFiles(await newProject('htmxproj'));
    for (const file of [...TEMPLATE_HOME, 'fluid/templates/hello.html']) expect(htmx, file).toContain(file);
    const none = await listFiles(await newProject('noneproj', '--surface', 'none'));
    expect(none).toEqual(expect.arrayContaining(TEMPLATE_HOME));
    expect(none).not.toContain('fluid/templates/hello.html');
  });

  test('switching the app to Vite removes the template home page fw wrote (three-way: unedited files only)', async () => {
    const root = await newProject('switch');
    await editConfig(root, (json) => {
      json.config.APP_FRONTEND = { type: 'vite', framework: 'none' };
    });
    const ran = await fw(root, 'generate', '--no-install');
    expect(ran.error).toBeUndefined();
    for (const file of [...TEMPLATE_HOME, 'fluid/templates/hello.html']) expect(existsSync(path.join(root, file)), file).toBe(false);
  });

  test('the home page uses the static and url_for helpers, which the app resolves', async () => {
    const root = await newProject('helpers', '--surface', 'htmx');
    const template = await read(root, 'fluid/templates/index.html');
    expect(template).toContain(`href="{{static 'app.css'}}"`);
    expect(template).toContain(`hx-get="{{url_for 'hello'}}"`);
    const app = await boot(root);
    const html = await (await fetch(`${app.url}/`)).text();
    expect(html).toContain('<link rel="stylesheet" href="/static/app.css" />');
    expect(html).toContain('hx-get="/hello"');
    expect((await fetch(`${app.url}/static/app.css`)).status).toBe(200);
  });

  test('the scripts: dev, build, start, test, typecheck, lint (ESLint) and format (prettier at fw\'s own version), with their configs; the tsconfig names no script the project lacks', async () => {
    const root = await newProject('scripts');
    const pkg = JSON.parse(await read(root, 'package.json')) as { scripts: Record<string, string>; devDependencies: Record<string, string> };
    expect(Object.keys(pkg.scripts).sort()).toEqual(['build', 'dev', 'format', 'lint', 'start', 'test', 'typecheck']);
    expect(pkg.scripts.lint).toBe('eslint .');
    expect(pkg.scripts.format).toBe('prettier --write .');
    const cli = JSON.parse(await readFile(path.join(REPO, 'generators/package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.devDependencies.prettier).toBe(cli.dependencies.prettier);
    const rootPkg = JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    // The versions fw lints its tests of this file with (no platform binaries: npm ci works anywhere).
    for (const name of ['eslint', '@eslint/js', 'typescript-eslint']) expect(pkg.devDependencies[name], name).toBe(rootPkg.devDependencies[name]);
    const tsconfig = await read(root, 'tsconfig.json');
    for (const match of tsconfig.matchAll(/npm run (\w+)/g)) expect(Object.keys(pkg.scripts), `tsconfig.json names npm run ${match[1]}`).toContain(match[1]);

    // Lint and format pass on what fw wrote (the same ESLint and prettier, from this checkout).
    await symlink(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
    const lint = spawnSync(path.join(REPO, 'node_modules/.bin/eslint'), ['--max-warnings', '0', '.'], { cwd: root, encoding: 'utf8' });
    expect(lint.status, lint.stdout + lint.stderr).toBe(0);
    // ...and lint does look at the app's code.
    await writeFile(path.join(root, 'fluid/unused.ts'), 'const unused = 1;\n');
    const caught = spawnSync(path.join(REPO, 'node_modules/.bin/eslint'), ['.'], { cwd: root, encoding: 'utf8' });
    expect(caught.stdout).toMatch(/fluid\/unused\.ts[\s\S]*'unused' is assigned a value but never used/);
    await unlink(path.join(root, 'fluid/unused.ts'));
    const format = spawnSync(path.join(REPO, 'node_modules/.bin/prettier'), ['--check', '.'], { cwd: root, encoding: 'utf8' });
    expect(format.status, format.stdout + format.stderr).toBe(0);
  });

  test('.env.example is committed, .env is not (git check-ignore)', async () => {
    const root = await newProject('dotenv');
    expect(await read(root, '.env.example')).toContain('copy this file to .env');
    spawnSync('git', ['init', '-q'], { cwd: root });
    const ignored = (file: string): boolean => spawnSync('git', ['check-ignore', '-q', file], { cwd: root }).status === 0;
    expect(ignored('.env')).toBe(true);
    expect(ignored('.env.example')).toBe(false);
    expect(ignored('app_configs/dotenv.ini')).toBe(true);
  });

  test('.env.example shows DATABASE_URL and REDIS_URL and their _FILE forms, all commented out: copied as is it sets nothing, and its DATABASE_URL_FILE line works once uncommented', async () => {
    const root = await newProject('secrets');
    const example = await read(root, '.env.example');
    for (const line of ['# DATABASE_URL=postgresql://', '# REDIS_URL=redis://', '# DATABASE_URL_FILE=/run/secrets/database_url', '# REDIS_URL_FILE=/run/secrets/redis_url']) {
      expect(example).toContain(line);
    }
    const { parseEnv } = await import('node:util');
    expect(parseEnv(example)).toEqual({});
    const { loadConfigDetails } = await import('@fw/kernel/core');
    await writeFile(path.join(root, '.env'), example);
    const copied = loadConfigDetails({ root, env: {} });
    expect([copied.config.DATABASE_BINDS, copied.notices]).toEqual([{ main: 'file:./var/main.db' }, []]);
    // The secret's line, uncommented, with a file of the bind's own kind.
    const secret = path.join(root, 'database_url');
    await writeFile(secret, 'file:./var/from-the-secret.db\n');
    await writeFile(path.join(root, '.env'), example.replace('# DATABASE_URL_FILE=/run/secrets/database_url', `DATABASE_URL_FILE=${secret}`));
    expect(loadConfigDetails({ root, env: {} }).config.DATABASE_BINDS).toEqual({ main: 'file:./var/from-the-secret.db' });
  });
});

describe('an Additive', () => {
  test('has no placeholder files, no public echo websocket, a test of its own, and serves its stylesheet once under its prefix', async () => {
    const root = await newProject('adds');
    const made = await fw(root, 'create', 'additive', 'blog');
    expect(made.error).toBeUndefined();
    expect(made.out).toContain('it serves /blog/ and /api/blog/status.');
    const files = (await listFiles(path.join(root, 'additives/blog'))).sort();
    expect(files).toEqual(['api.ts', 'app.ts', 'blog.test.ts', 'index.ts', 'manifest.json', 'static/blog.css', 'templates/blog/index.html']);
    expect(await read(root, 'additives/blog/index.ts')).not.toMatch(/beforeRequest\(|afterRequest\(|beforeEnable\(|\.ws\)/);
    const app = await boot(root);
    const html = await (await fetch(`${app.url}/blog/`)).text();
    expect(html).toContain('<link rel="stylesheet" href="/blog/static/blog.css" />');
    expect((await fetch(`${app.url}/blog/static/blog.css`)).status).toBe(200);
    expect((await fetch(`${app.url}/api/blog/status`)).status).toBe(200);
  });

  test('switched to Vite, it serves its Vite index at /<additive>/, not its old template (bug 4)', async () => {
    const root = await newProject('vadd');
    expect((await fw(root, 'create', 'additive', 'shop')).error).toBeUndefined();
    const manifest = path.join(root, 'additives/shop/manifest.json');
    const json = JSON.parse(await readFile(manifest, 'utf8')) as Record<string, unknown>;
    await writeFile(manifest, `${JSON.stringify({ ...json, frontend: { type: 'vite', framework: 'none' } }, null, 2)}\n`);
    const ran = await fw(root, 'generate', '--no-install');
    expect(ran.error).toBeUndefined();
    // The template page would answer /shop/ first: fw removes it (it was never edited).
    for (const file of ['app.ts', 'templates/shop/index.html', 'static/shop.css']) expect(existsSync(path.join(root, 'additives/shop', file)), file).toBe(false);
    expect(await read(root, 'additives/shop/index.ts')).not.toContain('./app.js');
    // What `npm run build` would have built.
    await mkdir(path.join(root, 'additives/shop/frontend/dist'), { recursive: true });
    await writeFile(path.join(root, 'additives/shop/frontend/dist/index.html'), '<!doctype html><title>shop</title><div id="app">the Vite index of shop</div>');
    const app = await boot(root);
    const page = await fetch(`${app.url}/shop/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('the Vite index of shop');
  });
});

describe('bug 10: Prisma', () => {
  test('generated/ is git-ignored after fw migrate init, and the README says fw generate keeps the binds in step', async () => {
    const root = await newProject('prisma10');
    expect((await fw(root, 'migrate', 'init', '--no-install')).error).toBeUndefined();
    spawnSync('git', ['init', '-q'], { cwd: root });
    expect(spawnSync('git', ['check-ignore', '-q', 'generated/prisma/main/client.ts'], { cwd: root }).status).toBe(0);
    const readme = await read(root, 'prisma/README.md');
    expect(readme).not.toMatch(/not detected|migrate init` again/);
    expect(readme).toContain('npx fw generate');
    expect(await readFile(path.join(REPO, 'docs/databases.md'), 'utf8')).not.toMatch(/not\*\* detected|not detected/);
    // A later bind does arrive with fw generate.
    await editConfig(root, (json) => {
      json.config.DATABASE_BINDS = { main: 'file:./var/main.db', logs: 'file:./var/logs.db' };
    });
    expect((await fw(root, 'generate', '--no-install')).error).toBeUndefined();
    expect(existsSync(path.join(root, 'prisma/logs/schema.prisma'))).toBe(true);
  });
});

describe('bug 12: the documented fluid/db.ts', () => {
  /** The `// fluid/db.ts` example of docs/databases.md, as the docs show it. */
  async function documentedDb(): Promise<string> {
    const docs = await readFile(path.join(REPO, 'docs/databases.md'), 'utf8');
    const block = /```ts\n(\/\/ fluid\/db\.ts\n[\s\S]*?)```/.exec(docs)?.[1];
    if (!block) throw new Error('docs/databases.md has no // fluid/db.ts example');
    return block;
  }

  /** Generated clients stand-ins: the docs' imports resolve, and nothing here needs Prisma. */
  async function clients(root: string): Promise<void> {
    for (const bind of ['main', 'reports']) {
      await mkdir(path.join(root, `generated/prisma/${bind}`), { recursive: true });
      await writeFile(path.join(root, `generated/prisma/${bind}/client.ts`), 'export class PrismaClient {\n  async $connect(): Promise<void> {}\n  async $disconnect(): Promise<void> {}\n}\n');
    }
  }

  test('boots when fluid/app.ts imports it: it does not import the app', async () => {
    const root = await newProject('docsdb', '--surface', 'none');
    await clients(root);
    await editConfig(root, (json) => {
      json.config.DATABASE_BINDS = { main: 'file:./var/main.db', reports: 'file:./var/reports.db' };
    });
    const db = await documentedDb();
    expect(db).not.toMatch(/from '\.\/app\.js'/);
    await writeFile(path.join(root, 'fluid/db.ts'), db);
    const appFile = path.join(root, 'fluid/app.ts');
    const appText = await readFile(appFile, 'utf8');
    await writeFile(
      appFile,
      `import { registerDatabase } from '@fw/kernel/db';\nimport { db } from './db.js';\n${appText.replace(/^(export const fluid = .*)$/m, '$1\nregisterDatabase(fluid, db);')}`,
    );
    const app = await boot(root);
    expect((await fetch(`${app.url}/`)).status).toBe(200);
  });

  test('the old pattern (fluid/db.ts importing ./app.js) fails under fw run naming the file, the line and the likely cycle', async () => {
    const root = await newProject('cycle', '--surface', 'none');
    await mkdir(path.join(root, 'node_modules/@fw'), { recursive: true });
    await symlink(path.join(REPO, 'runtime-kernel'), path.join(root, 'node_modules/@fw/kernel'));
    await writeFile(path.join(root, 'fluid/db.ts'), "import fluid from './app.js';\n\nexport const binds = fluid.config.DATABASE_BINDS;\n");
    const appFile = path.join(root, 'fluid/app.ts');
    await writeFile(appFile, `import { binds } from './db.js';\n${await readFile(appFile, 'utf8')}\nvoid binds;\n`);
    const ran = spawnSync(process.execPath, [path.join(REPO, 'generators/dist/bin/fw.js'), 'run', '--port', '0'], { cwd: root, encoding: 'utf8', timeout: 30_000 });
    expect(ran.status).toBe(1);
    expect(ran.stderr).toContain("error: Cannot read properties of undefined (reading 'config')\n  at fluid/db.ts:3:");
    expect(ran.stderr).toContain('fluid/db.ts read a value of a module that was still loading');
    expect(ran.stderr).not.toMatch(/\n\s+at .*node:internal/);
  });
});

describe('bug 11: i18n', () => {
  test("the typed translation modules carry fw's header (they merge three ways), and locales with EXT_I18N = false get a note saying why nothing is translated", async () => {
    const root = await newProject('i18napp', '--surface', 'none');
    await editConfig(root, (json) => {
      json.config.I18N_SUPPORTED_LOCALES = ['en', 'fr'];
    });
    const ran = await fw(root, 'generate', '--no-install');
    expect(ran.error).toBeUndefined();
    expect(ran.out).not.toContain('note:');
    const modules = (await listFiles(path.join(root, 'fluid/i18n'))).filter((f) => f.endsWith('.ts'));
    expect(modules.length).toBeGreaterThan(3);
    for (const file of modules) {
      const text = await read(root, `fluid/i18n/${file}`);
      // typesafe-i18n's modules say what they were made from; fw's fluid-locale.ts says it too.
      expect(text, file).toMatch(/^\/\/ Generated by fw \(`fw generate`\) (from fluid\/locales\/\*\.po with typesafe-i18n|with the typed translation modules)\. You may edit it:\n\/\/ fw merges your edits/);
      expect(text, file).not.toContain('Any manual changes will be overwritten');
    }
    await editConfig(root, (json) => {
      json.config.EXT_I18N = false;
    });
    const off = await fw(root, 'generate', '--no-install');
    expect(off.out).toContain('note: fw.json sets I18N_SUPPORTED_LOCALES but also EXT_I18N = false, so the app serves the source strings untranslated');
  });
});
