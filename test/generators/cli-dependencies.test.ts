/**
 * Lean by default (issue 14 §5) and "commands that change dependencies say so" (issue 16 bug 9):
 * an app's package.json lists a subsystem's optional packages only while fw.json uses it, at the
 * versions @fw/kernel declares, in the field where they run; the command that changed them lists
 * them and prints the install command, or runs it with --install.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { run } from '../../generators/src/commands/index.js';
import { pinsFrom } from '../../generators/src/project/pins.js';
import { REPO, tempDir, testIO } from './helpers.js';
import { editConfig, newProject } from './project-helpers.js';

const readJson = (file: string): Record<string, Record<string, string>> => JSON.parse(readFileSync(file, 'utf8'));
const KERNEL = readJson(path.join(REPO, 'runtime-kernel/package.json'));
const CLI = readJson(path.join(REPO, 'generators/package.json'));
const PINS = pinsFrom(KERNEL, CLI);

/** `fw <argv>` in-process with `env` added, stdout captured; a thrown error is `{ code: 1, error }`. */
async function fw(cwd: string, env: NodeJS.ProcessEnv, ...argv: string[]): Promise<{ code: number; out: string; error?: string }> {
  const io = testIO(cwd);
  io.env = { ...io.env, ...env };
  try {
    return { code: await run(argv, io), out: io.out() };
  } catch (error) {
    return { code: 1, out: io.out(), error: error instanceof Error ? error.message : String(error) };
  }
}

async function packageJson(root: string): Promise<{ dependencies: Record<string, string>; devDependencies: Record<string, string>; allowScripts?: Record<string, boolean> }> {
  return JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
}

/** An `npm` that records `<cwd>: <args>` and exits 0 (see cli.test.ts: fw's choice of command is under test, not npm). */
async function fakeNpm(): Promise<{ env: NodeJS.ProcessEnv; calls: () => string[] }> {
  const bin = path.join(await tempDir('fw-npm-'), 'bin');
  await mkdir(bin);
  await writeFile(path.join(bin, 'npm'), `#!/bin/sh\necho "$PWD: $*" >> "${bin}/calls"\n`, { mode: 0o755 });
  const calls = (): string[] => (existsSync(path.join(bin, 'calls')) ? readFileSync(path.join(bin, 'calls'), 'utf8').trim().split('\n') : []);
  return { env: { PATH: `${bin}:${process.env.PATH}` }, calls };
}

const OPTIONAL = ['vite', 'http-proxy', 'koa-proxies', 'tailwindcss', '@tailwindcss/node', '@tailwindcss/oxide', 'nodemailer', 'ioredis', '@prisma/client', 'prisma', 'pg', 'typesafe-i18n'];

describe('the pins', () => {
  test('are the kernel\'s optional peer dependencies (range start) and fwDevPackages plus the CLI\'s own prettier, prisma and typesafe-i18n; the build ships exactly them', () => {
    const optional = Object.keys(KERNEL.peerDependencies!).filter((name) => (KERNEL.peerDependenciesMeta as unknown as Record<string, { optional?: boolean }>)[name]?.optional);
    expect(optional.sort()).toEqual(Object.keys(KERNEL.peerDependencies!).sort());
    for (const name of optional) expect(PINS[name]).toBe(KERNEL.peerDependencies![name]!.replace(/^\^/, ''));
    // Vite and its dev proxy: the kernel's development-only packages (not peers; see optional.ts).
    expect(Object.keys(KERNEL.fwDevPackages!).sort()).toEqual(['http-proxy', 'koa-proxies', 'vite']);
    for (const [name, version] of Object.entries(KERNEL.fwDevPackages!)) expect(PINS[name]).toBe(version);
    expect(PINS.prisma).toBe(CLI.devDependencies!.prisma);
    expect(PINS.prettier).toBe(CLI.dependencies!.prettier);
    expect(PINS['typesafe-i18n']).toBe(CLI.dependencies!['typesafe-i18n']);
    // Prisma's client and CLI must be one version.
    expect(PINS.prisma).toBe(PINS['@prisma/client']);
    for (const built of ['generators/pins.json', 'generators/create-fw-app/pins.json']) {
      expect(readJson(path.join(REPO, built)), `${built} (npm run build writes it)`).toEqual(PINS);
    }
  });
});

describe('lean by default', () => {
  test('a new htmx app has none of the optional packages', async () => {
    const root = await newProject('lean');
    const pkg = await packageJson(root);
    for (const name of OPTIONAL) {
      expect(pkg.dependencies[name], name).toBeUndefined();
      expect(pkg.devDependencies[name], name).toBeUndefined();
    }
  });

  test('a Vite app devDepends on vite and the dev proxy at the kernel\'s versions', async () => {
    const root = await newProject('viteapp', '--framework', 'react');
    const pkg = await packageJson(root);
    expect(pkg.devDependencies).toMatchObject(KERNEL.fwDevPackages!);
    expect(Object.keys(pkg.dependencies)).toEqual(['@fw/kernel']);
  });

  test('turning subsystems on adds their packages (fw generate says so, --install runs the install); turning them off removes them', async () => {
    const root = await newProject('subsystems');
    const npm = await fakeNpm();
    await editConfig(root, (json) => {
      json.config.FW_TAILWIND = true;
      json.config.MAIL_DEFAULT_SENDER = 'App <noreply@example.com>';
      json.config.CACHE_TYPE = 'redis';
      json.config.CACHE_REDIS_URL = 'redis://127.0.0.1:6379/0';
    });
    const said = await fw(root, npm.env, 'generate');
    expect(said.error).toBeUndefined();
    expect(said.out).toContain(
      ['package.json dependencies changed:', `  + @tailwindcss/node@${PINS['@tailwindcss/node']}`, `  + @tailwindcss/oxide@${PINS['@tailwindcss/oxide']}`, `  + ioredis@${PINS.ioredis}`, `  + nodemailer@${PINS.nodemailer}`, `  + tailwindcss@${PINS.tailwindcss}`, 'Run "npm install" to install them (tsc and the app need them), or pass --install.'].join('\n'),
    );
    expect(npm.calls()).toEqual([]);
    // Production runs them: dependencies, not devDependencies.
    expect((await packageJson(root)).dependencies).toMatchObject({ tailwindcss: PINS.tailwindcss, nodemailer: PINS.nodemailer, ioredis: PINS.ioredis });

    await editConfig(root, (json) => {
      delete json.config.FW_TAILWIND;
      json.config.EVENTS_REDIS_URL = 'redis://127.0.0.1:6379/1';
      json.config.CACHE_TYPE = 'file';
    });
    const installed = await fw(root, npm.env, 'generate', '--install');
    expect(installed.error).toBeUndefined();
    expect(installed.out).toContain(`  - tailwindcss@${PINS.tailwindcss}`);
    expect(installed.out).toContain('Installed with npm install.');
    expect(npm.calls()).toEqual([`${root}: install`]);
    const pkg = await packageJson(root);
    expect(pkg.dependencies.tailwindcss).toBeUndefined();
    expect(pkg.dependencies.ioredis).toBe(PINS.ioredis); // still used, by EVENTS_REDIS_URL

    // Nothing changed: nothing said, nothing run.
    const again = await fw(root, npm.env, 'generate', '--install');
    expect(again.out).not.toContain('dependencies');
    expect(npm.calls()).toHaveLength(1);
  });

  test('fw make mail adds nodemailer and says so; --install runs the install', async () => {
    const root = await newProject('makemail');
    const npm = await fakeNpm();
    const said = await fw(root, npm.env, 'make', 'mail', 'welcome', '--subject', 'Hi', '--fields', 'name', '--dry-run');
    expect(said.error).toBeUndefined();
    expect(said.out).toContain(`package.json dependencies would change:\n  + nodemailer@${PINS.nodemailer}\n`);
    const ran = await fw(root, npm.env, 'make', 'mail', 'welcome', '--subject', 'Hi', '--fields', 'name', '--install');
    expect(ran.error).toBeUndefined();
    expect(ran.out).toContain('Installed with npm install.');
    expect(npm.calls()).toEqual([`${root}: install`]);
    expect((await packageJson(root)).dependencies.nodemailer).toBe(PINS.nodemailer);
  });

  test('a package line you edited stays yours when the subsystem goes away (three-way)', async () => {
    const root = await newProject('edited');
    await editConfig(root, (json) => {
      json.config.MAIL_SERVER = 'smtp.example.com';
    });
    expect((await fw(root, {}, 'generate', '--no-install')).code).toBe(0);
    const file = path.join(root, 'package.json');
    await writeFile(file, (await readFile(file, 'utf8')).replace(`"nodemailer": "${PINS.nodemailer}"`, '"nodemailer": "^10.0.0"'));
    await editConfig(root, (json) => {
      delete json.config.MAIL_SERVER;
    });
    const ran = await fw(root, {}, 'generate', '--no-install');
    expect(ran.code, ran.error).toBe(1); // your line against fw's removal: a visible conflict
    expect(await readFile(file, 'utf8')).toContain('"nodemailer": "^10.0.0"');
  });

  test('fw migrate init adds Prisma, each bind\'s adapter and the CLI (bug 9: and says "npm install"); --json carries the changes', async () => {
    const root = await newProject('prismaapp');
    await editConfig(root, (json) => {
      json.config.DATABASE_BINDS = { main: 'file:./var/main.db', reports: 'postgresql://u@127.0.0.1:5432/reports' };
    });
    const ran = await fw(root, {}, 'migrate', 'init', '--json');
    expect(ran.error).toBeUndefined();
    const doc = JSON.parse(ran.out) as { dependencies: { added: string[]; command: string; installed: boolean } };
    expect(doc.dependencies.command).toBe('npm install');
    expect(doc.dependencies.installed).toBe(false);
    expect(doc.dependencies.added).toEqual(
      expect.arrayContaining([`@prisma/client@${PINS['@prisma/client']}`, `@prisma/adapter-libsql@${PINS['@prisma/adapter-libsql']}`, `@libsql/client@${PINS['@libsql/client']}`, `@prisma/adapter-pg@${PINS['@prisma/adapter-pg']}`, `pg@${PINS.pg}`, `prisma@${PINS.prisma}`]),
    );
    const pkg = await packageJson(root);
    expect(pkg.devDependencies.prisma).toBe(PINS.prisma);
    expect(pkg.dependencies.pg).toBe(PINS.pg);
    // Prisma's install scripts are decided (denied), so npm 11 does not ask about them on every install.
    expect(pkg.allowScripts).toEqual({ esbuild: false, prisma: false, '@prisma/engines': false });
    // Only SQLite left: the PostgreSQL adapter goes.
    await editConfig(root, (json) => {
      json.config.DATABASE_BINDS = { main: 'file:./var/main.db' };
    });
    const text = await fw(root, {}, 'generate');
    expect(text.out).toContain(`  - @prisma/adapter-pg@${PINS['@prisma/adapter-pg']}\n  - pg@${PINS.pg}\nRun "npm install"`);
  });
});

describe('fw migrate without pg installed (bug 9)', () => {
  test('says which package is missing and that npm install adds it, not that the kernel has it', async () => {
    const { trialRunPostgres } = await import('../../generators/src/migrate/trial.js');
    const root = await tempDir('fw-nopg-');
    const migrations = path.join(root, 'prisma/reports/migrations');
    await mkdir(path.join(migrations, '20250101000000_init'), { recursive: true });
    await writeFile(path.join(migrations, '20250101000000_init/migration.sql'), 'CREATE TABLE t (id int);\n');
    await expect(trialRunPostgres('reports', root, { url: 'postgresql://u@127.0.0.1:1/reports', migrations })).rejects.toThrow(
      `bind "reports": fw migrate needs the "pg" package, which is not installed in ${root}/node_modules; fw generate lists it in package.json for a PostgreSQL bind: run "npm install"`,
    );
  });
});
