import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseProjectConfig, validateProjectName } from '@fw/schemas';
import { format } from 'prettier';
import { createApp } from '../../generators/src/commands/create-app.js';
import { createProject, dependencySpecs, run } from '../../generators/src/commands/create-project.js';
import { readRecord, readStored } from '../../generators/src/pipeline/index.js';
import { listFiles, REPO, tempDir, testIO } from './helpers.js';

const PROJECT_FILES = [
  '.env.example', '.gitignore', '.prettierignore', '.prettierrc.json', 'README.md', 'eslint.config.js', 'fluid/app.ts', 'fluid/server.ts', 'fluid/static/app.css', 'fluid/static/favicon.svg',
  'fluid/templates/hello.html', 'fluid/templates/index.html', 'fw.json', 'package.json',
  'test/home.test.ts', 'tsconfig.build.json', 'tsconfig.json', 'vitest.config.ts',
];
const FW_VERSION = (JSON.parse(readFileSync(path.join(REPO, 'generators/package.json'), 'utf8')) as { version: string }).version;
/** Every file create writes for the project `name`: the project files and its app config (a secret, never recorded). */
const filesOf = (name: string): string[] => [...PROJECT_FILES, `app_configs/${name}.ini`].sort();

describe('create project', () => {
  test('--yes writes the htmx project layout, its record, and nothing else', async () => {
    const cwd = await tempDir();
    const io = testIO(cwd);
    expect(await run(['my-app', '--yes'], io)).toBe(0);
    const root = path.join(cwd, 'my-app');
    const files = await listFiles(root);
    expect(files.filter((f) => !f.startsWith('.fw/'))).toEqual(filesOf('my-app'));
    const fw = JSON.parse(await readFile(path.join(root, 'fw.json'), 'utf8'));
    expect(fw).toEqual({
      $schema: './node_modules/@fw/schemas/json/fw.schema.json',
      name: 'my-app',
      additives: [],
      config: { APP_FRONTEND: { type: 'htmx', alpine: false } },
    });
    expect(parseProjectConfig(fw, 'fw.json').config.APP_FRONTEND).toEqual({ type: 'htmx', alpine: false });
    const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
    // The released versions by default, even from this checkout: file: specs only with --local.
    expect(pkg.dependencies['@fw/kernel']).toBe(`^${FW_VERSION}`);
    expect(pkg.devDependencies['@fw/cli']).toBe(`^${FW_VERSION}`);
    expect(pkg.devDependencies).toMatchObject({ typescript: '6.0.3', vitest: '5.1.1' });
    expect(pkg.scripts).toEqual({
      dev: 'fw run --watch',
      build: 'fw build',
      start: 'node --enable-source-maps dist/fluid/server.js',
      test: 'fw test',
      typecheck: 'fw typecheck',
      lint: 'eslint .',
      format: 'prettier --write .',
    });
    const index = await readFile(path.join(root, 'fluid/templates/index.html'), 'utf8');
    expect(index).toContain('{{frontend}}');
    expect(index).toContain(`hx-get="{{url_for 'hello'}}"`);
    expect(index).not.toContain('x-data');
    expect(await readFile(path.join(root, '.gitignore'), 'utf8')).toMatch(/node_modules\/\nvar\/\n\.env\n[\s\S]*fluid\/static\/tailwind\.css/);
    const record = await readRecord(root);
    // fw.json is the input of every later render, yours alone: written once, never recorded.
    expect(Object.keys(record!.files)).toEqual(PROJECT_FILES.filter((f) => f !== 'fw.json'));
    for (const [file, entry] of Object.entries(record!.files)) {
      expect(entry.generator).toBe('blueprint:project');
      expect(await readStored(root, entry.sha256)).toEqual(await readFile(path.join(root, file)));
    }
    expect(io.out()).toContain('Created my-app');
  });

  test('generated sources are prettier-formatted with the project\'s own .prettierrc.json', async () => {
    const cwd = await tempDir();
    await run(['pretty', '--yes', '--alpine'], testIO(cwd));
    const root = path.join(cwd, 'pretty');
    const options = JSON.parse(await readFile(path.join(root, '.prettierrc.json'), 'utf8'));
    for (const file of PROJECT_FILES.filter((f) => /\.(ts|json|md|html)$/.test(f))) {
      const text = await readFile(path.join(root, file), 'utf8');
      expect(await format(text, { ...options, filepath: path.join(root, file) }), file).toBe(text);
    }
  });

  test('--alpine adds the Alpine counter; --surface none drops the htmx parts', async () => {
    const cwd = await tempDir();
    await run(['with-alpine', '--surface', 'htmx', '--alpine'], testIO(cwd));
    const alpine = await readFile(path.join(cwd, 'with-alpine/fluid/templates/index.html'), 'utf8');
    expect(alpine).toContain('x-data="{ count: 0 }"');
    expect(JSON.parse(await readFile(path.join(cwd, 'with-alpine/fw.json'), 'utf8')).config.APP_FRONTEND).toEqual({ type: 'htmx', alpine: true });
    await run(['plain', '--surface', 'none'], testIO(cwd));
    const plain = await readFile(path.join(cwd, 'plain/fluid/templates/index.html'), 'utf8');
    expect(plain).not.toContain('hx-get');
    expect(await readFile(path.join(cwd, 'plain/fluid/app.ts'), 'utf8')).not.toContain("'/hello'");
    expect(JSON.parse(await readFile(path.join(cwd, 'plain/fw.json'), 'utf8')).config.APP_FRONTEND).toEqual({ type: 'none' });
  });

  test('--dry-run prints the plan and writes nothing (no directory, no .fw/)', async () => {
    const cwd = await tempDir();
    const io = testIO(cwd);
    expect(await run(['dry', '--yes', '--dry-run'], io)).toBe(0);
    expect(await listFiles(cwd)).toEqual([]);
    for (const file of filesOf('dry')) expect(io.out()).toMatch(new RegExp(`create\\s+${file.replace(/\./g, '\\.')}`));
    expect(io.out()).toContain('Dry run: nothing was written.');
  });

  test('regenerating over an unchanged project with --force writes nothing (mtimes unchanged)', async () => {
    const cwd = await tempDir();
    await run(['same', '--yes'], testIO(cwd));
    const root = path.join(cwd, 'same');
    const files = await listFiles(root);
    const before = await Promise.all(files.map((f) => stat(path.join(root, f))));
    const result = await createProject({ dir: 'same', yes: true, force: true }, testIO(cwd));
    expect(result.committed).toMatchObject({ created: [], updated: [], deleted: [] });
    expect(result.committed?.unchanged).toEqual(filesOf('same'));
    const after = await Promise.all(files.map((f) => stat(path.join(root, f))));
    expect(after.map((s) => s.mtimeMs)).toEqual(before.map((s) => s.mtimeMs));
  });

  test('refuses a non-empty directory unless --force', async () => {
    const cwd = await tempDir();
    await mkdir(path.join(cwd, 'busy'));
    await writeFile(path.join(cwd, 'busy/notes.txt'), 'mine\n');
    await expect(run(['busy', '--yes'], testIO(cwd))).rejects.toThrow(/busy is not empty.*--force/);
    expect(await listFiles(path.join(cwd, 'busy'))).toEqual(['notes.txt']);
    expect(await run(['busy', '--yes', '--force'], testIO(cwd))).toBe(0);
    expect(await readFile(path.join(cwd, 'busy/notes.txt'), 'utf8')).toBe('mine\n');
  });

  test('without a TTY, missing answers are an error naming the flags', async () => {
    const cwd = await tempDir();
    await expect(run(['app'], testIO(cwd))).rejects.toThrow(
      'missing input and no terminal to ask: give --surface <none|htmx|vite>, --alpine or --no-alpine',
    );
    await expect(run(['app', '--surface', 'htmx'], testIO(cwd))).rejects.toThrow(/give --alpine or --no-alpine \(or --yes/);
    expect(await run(['app', '--surface', 'htmx', '--no-alpine'], testIO(cwd))).toBe(0);
  });

  test('bad vite flags are refused clearly, before anything is written', async () => {
    const cwd = await tempDir();
    await expect(run(['v', '--surface', 'vite', '--framework', 'angular', '--yes'], testIO(cwd))).rejects.toThrow(
      /--framework: got "angular"; expected one of lit, none/,
    );
    await expect(run(['v', '--surface', 'vue'], testIO(cwd))).rejects.toThrow(/--surface: got "vue"; expected one of none, htmx, vite/);
    expect(await listFiles(cwd)).toEqual([]);
  });

  test.each([
    ['My-App', 'contains uppercase letters'],
    ['http', 'Node.js core module'],
    ['.hidden', 'starts with "."'],
    ['sp ace', 'contains " "'],
    ['node_modules', 'reserved by npm'],
  ])('refuses the project name %j: %s', async (name, reason) => {
    const cwd = await tempDir();
    await expect(run([name, '--yes'], testIO(cwd))).rejects.toThrow(reason);
    expect(await listFiles(cwd)).toEqual([]);
  });

  test.each([
    ['../x', 'contains a path separator'],
    ['a/b', 'contains a path separator'],
    ['', 'is empty'],
    ['Upper', 'contains uppercase letters'],
    ['node_modules', 'reserved by npm'],
  ])('the shared name rules reject %j (%s)', (name, reason) => {
    const [ok, message] = validateProjectName(name);
    expect(ok).toBe(false);
    expect(message).toContain(reason);
  });

  test('writes app_configs/<name>.ini with a fresh SECRET_KEY and no DEBUG (FW_ENV decides), outside the record; --force keeps it', async () => {
    const cwd = await tempDir();
    const io = testIO(cwd);
    expect(await run(['dev-app', '--yes'], io)).toBe(0);
    const root = path.join(cwd, 'dev-app');
    const text = await readFile(path.join(root, 'app_configs/dev-app.ini'), 'utf8');
    const key = /^SECRET_KEY = ([0-9a-f]{64})$/m.exec(text)?.[1];
    expect(key).toBeDefined();
    expect(text).not.toMatch(/^DEBUG\s*=/m); // only the comment that says FW_ENV decides
    expect(text).toMatch(/^; DEBUG: on under "npm run dev"/m);
    expect((await stat(path.join(root, 'app_configs/dev-app.ini'))).mode & 0o777).toBe(0o600);
    expect(Object.keys((await readRecord(root))!.files)).not.toContain('app_configs/dev-app.ini');
    expect(io.out()).toContain('Next steps:\n  cd dev-app\n  npm install\n  npm run dev\n');
    await createProject({ dir: 'dev-app', yes: true, force: true }, testIO(cwd));
    expect(await readFile(path.join(root, 'app_configs/dev-app.ini'), 'utf8')).toBe(text);
  });

  test('--framework implies --surface vite, and --surface vite --yes takes the defaults (framework none)', async () => {
    const cwd = await tempDir();
    expect(await run(['implied', '--framework', 'react', '--yes'], testIO(cwd))).toBe(0);
    expect(JSON.parse(await readFile(path.join(cwd, 'implied/fw.json'), 'utf8')).config.APP_FRONTEND).toMatchObject({ type: 'vite', framework: 'react', typescript: false });
    expect(await run(['defaults', '--surface', 'vite', '--yes'], testIO(cwd))).toBe(0);
    expect(JSON.parse(await readFile(path.join(cwd, 'defaults/fw.json'), 'utf8')).config.APP_FRONTEND).toMatchObject({ type: 'vite', framework: 'none', typescript: false });
    expect(await listFiles(path.join(cwd, 'defaults'))).toContain('fluid/frontend/package.json');
    await expect(run(['mixed', '--surface', 'htmx', '--framework', 'react', '--yes'], testIO(cwd))).rejects.toThrow(
      '--framework react: a framework is for --surface vite, not --surface htmx',
    );
  });

  test('--kernel overrides the kernel spec; --local links this checkout (file: specs)', async () => {
    const cwd = await tempDir();
    await run(['k', '--yes', '--kernel', '^0.1.0'], testIO(cwd));
    const pkg = JSON.parse(await readFile(path.join(cwd, 'k/package.json'), 'utf8'));
    expect(pkg.dependencies['@fw/kernel']).toBe('^0.1.0');
    expect(dependencySpecs('/somewhere/else', { kernel: '1.2.3' }).kernelSpec).toBe('1.2.3');
    await run(['l', '--yes', '--local'], testIO(cwd));
    const local = JSON.parse(await readFile(path.join(cwd, 'l/package.json'), 'utf8'));
    const root = path.join(cwd, 'l');
    expect(local.dependencies['@fw/kernel']).toBe(`file:${path.relative(root, path.join(REPO, 'runtime-kernel'))}`);
    expect(local.devDependencies['@fw/cli']).toBe(`file:${path.relative(root, path.join(REPO, 'generators'))}`);
  });
});

describe('create project --auth', () => {
  /** npm kept off the network: offline, with an empty cache, so an install fails at once. */
  const offline = (io: ReturnType<typeof testIO>, cwd: string): ReturnType<typeof testIO> => {
    io.env = { ...io.env, npm_config_offline: 'true', npm_config_cache: path.join(cwd, '.npm-cache'), npm_config_user_agent: '' };
    return io;
  };

  test('refuses --auth with --no-install or --json, naming both flags, before writing anything', async () => {
    const cwd = await tempDir();
    await expect(run(['a', '--yes', '--auth', '--no-install'], testIO(cwd))).rejects.toThrow(/^--auth needs the install .*drop --no-install, or drop --auth and run "npx fw create auth" later\.$/);
    await expect(run(['a', '--yes', '--auth', '--json'], testIO(cwd))).rejects.toThrow(/^--auth runs npm install and fw create auth, whose output is not JSON: drop --json/);
    await expect(createProject({ dir: 'a', yes: true, auth: true, install: false }, testIO(cwd))).rejects.toThrow(/--auth needs the install/);
    await expect(run(['a', '--auth', '--no-auth'], testIO(cwd))).rejects.toThrow(/--auth.*--no-auth|--no-auth.*--auth/);
    expect(existsSync(path.join(cwd, 'a'))).toBe(false);
  });

  test('--help says --auth implies --install; a dry run says what --auth would run and writes nothing', async () => {
    const cwd = await tempDir();
    const help = testIO(cwd);
    await run(['--help'], help);
    expect(help.out()).toMatch(/--auth, --no-auth[\s\S]*"fw create auth"[\s\S]*Implies --install, so it\s+cannot go with --no-install or --json/);
    const io = testIO(cwd);
    expect(await run(['a', '--yes', '--auth', '--dry-run'], io)).toBe(0);
    expect(io.out()).toContain('With --auth it would then run "npm install", "npx --no fw create auth --install" and, for each database bind, "npx --no prisma generate --config prisma/<bind>/prisma.config.ts" there.');
    expect(existsSync(path.join(cwd, 'a'))).toBe(false);
    // Without a terminal and without --auth, nothing asks about auth and none is added.
    expect((await createProject({ dir: 'b', yes: false, surface: 'none' }, testIO(cwd))).auth).toBe(false);
  });

  test('a failed install leaves the project written and names both commands to run again', async () => {
    const cwd = await tempDir();
    const io = offline(testIO(cwd), cwd);
    await expect(run(['a', '--yes', '--auth'], io)).rejects.toThrow(
      `"npm install" failed (exit 1) in ${path.join(cwd, 'a')}; the project is written: fix the cause, then run "npm install" and "npx --no fw create auth --install" in ${path.join(cwd, 'a')}.`,
    );
    expect(existsSync(path.join(cwd, 'a/fluid/app.ts'))).toBe(true);
    expect(io.out()).toContain('--auth: installing the dependencies (npm install), then adding the auth scaffold');
  });

  test('a failed fw create auth (here: no fw installed) leaves the project written and names the command to run again', async () => {
    const cwd = await tempDir();
    // The one fault faked: an npm that "installs" nothing, so the project has no fw for npx to run.
    const bin = path.join(cwd, 'bin');
    await mkdir(bin);
    await writeFile(path.join(bin, 'npm'), '#!/bin/sh\nexit 0\n');
    await chmod(path.join(bin, 'npm'), 0o755);
    const io = offline(testIO(cwd), cwd);
    io.env.PATH = `${bin}${path.delimiter}${io.env.PATH ?? ''}`;
    await expect(run(['a', '--yes', '--auth'], io)).rejects.toThrow(
      `"npx --no fw create auth --install" failed (exit 1) in ${path.join(cwd, 'a')}; the project is written and installed: fix the cause, then run "npx --no fw create auth --install" in ${path.join(cwd, 'a')}.`,
    );
    expect(existsSync(path.join(cwd, 'a/fw.json'))).toBe(true);
    expect(existsSync(path.join(cwd, 'a/fluid/auth'))).toBe(false);
  });
});

describe('create app', () => {
  test('writes app_configs/<name>.ini with a fresh 64-hex SECRET_KEY and no DEBUG (it follows FW_ENV), outside the record', async () => {
    const cwd = await tempDir();
    await run(['proj', '--yes'], testIO(cwd));
    const root = path.join(cwd, 'proj');
    await createApp({ name: 'staging' }, testIO(path.join(root, 'fluid')));
    const text = await readFile(path.join(root, 'app_configs/staging.ini'), 'utf8');
    const key = /^SECRET_KEY = ([0-9a-f]+)$/m.exec(text)?.[1];
    expect(key).toHaveLength(64);
    expect(text).not.toMatch(/^DEBUG/m); // on under npm run dev (FW_ENV=development), off under npm start
    expect((await stat(path.join(root, 'app_configs/staging.ini'))).mode & 0o777).toBe(0o600);
    expect(Object.keys((await readRecord(root))!.files)).not.toContain('app_configs/staging.ini');

    await expect(createApp({ name: 'staging' }, testIO(root))).rejects.toThrow(/app_configs\/staging\.ini already exists; pass --force/);
    await createApp({ name: 'staging', force: true }, testIO(root));
    const replaced = /^SECRET_KEY = ([0-9a-f]+)$/m.exec(await readFile(path.join(root, 'app_configs/staging.ini'), 'utf8'))?.[1];
    expect(replaced).toHaveLength(64);
    expect(replaced).not.toBe(key);
  });

  test.each([
    ['../x', 'app name "../x" contains a path separator'],
    ['a/b', 'app name "a/b" contains a path separator'],
    ['', 'app name "" is empty'],
    ['Prod', 'app name "Prod" contains uppercase letters'],
  ])('refuses the app name %j', async (name, message) => {
    const cwd = await tempDir();
    await run(['proj', '--yes'], testIO(cwd));
    await expect(createApp({ name }, testIO(path.join(cwd, 'proj')))).rejects.toThrow(message);
    expect((await listFiles(path.join(cwd, 'proj'))).filter((f) => f.startsWith('app_configs'))).toEqual(['app_configs/proj.ini']);
  });

  test('outside a project it says so', async () => {
    const cwd = await tempDir();
    await expect(createApp({ name: 'x' }, testIO(cwd))).rejects.toThrow(/no fw\.json found in .* run this inside an fw project/);
  });
});
