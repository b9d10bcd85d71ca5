/**
 * Release, `npm create fw-app@latest app -- --yes --auth` as a user with only the registry: one
 * command writes the project, installs it, runs the app's own `fw create auth` (which installs
 * the scaffold's packages) and generates the Prisma client; the app then type-checks, its tests
 * pass, and the next step it prints (`npx fw migrate dev --name auth`) creates the tables.
 * Prisma's engine comes from the offline stand-in (test/support/prisma.ts), as a download would.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ensurePrismaOffline } from '../support/prisma.js';
import { user, workDir } from './helpers.js';

const as = user();
let work = '';
let root = '';
let created = '';

beforeAll(async () => {
  as.env.PRISMA_SCHEMA_ENGINE_BINARY = ensurePrismaOffline();
  as.env.CHECKPOINT_DISABLE = '1';
  work = await workDir('auth');
  root = path.join(work, 'app');
  const run = as.run('npm', ['create', 'fw-app@latest', 'app', '--', '--yes', '--auth'], work);
  created = stripVTControlCharacters(run.stdout);
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

test('one command writes the project, installs it, adds the auth scaffold and says what to run next', async () => {
  expect(created).toContain("--auth: installing the dependencies (npm install), then adding the auth scaffold with the project's fw (npx --no fw create auth --install).");
  // One block of next steps, at the end: the `fw create auth` it runs prints none of its own.
  expect(created.match(/^Next\b.*$/gm)).toEqual(['Next steps:']);
  expect(created).toMatch(/Next steps:\n {2}cd app\n {2}npx fw migrate dev --name auth +# the User and AuthToken tables\n {2}npm run dev +# then open \/sign-up\n$/);
  for (const file of ['fluid/db.ts', 'fluid/auth/index.ts', 'fluid/auth/users.ts', 'fluid/auth/two-factor.ts', 'fluid/templates/auth/sign-in.html', 'prisma/main/schema.prisma', 'generated/prisma/main/client.ts']) {
    expect(existsSync(path.join(root, file)), file).toBe(true);
  }
  expect(await readFile(path.join(root, 'fluid/app.ts'), 'utf8')).toContain('installAuthScaffold(fluid);');
  const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  // The scaffold's packages are in package.json and installed (fw create auth --install ran).
  for (const name of ['@prisma/client', '@node-rs/argon2', 'otplib']) {
    expect(pkg.dependencies[name], name).toBeDefined();
    expect(existsSync(path.join(root, 'node_modules', name, 'package.json')), name).toBe(true);
  }
});

test('the app type-checks, its tests pass, and npx fw migrate dev --name auth creates the tables', () => {
  // Every install script of what fw added is decided in allowScripts: npm 11 asks about no package.
  expect(as.run('npm', ['install'], root).stderr).not.toContain('install-scripts');
  expect(as.run('npx', ['tsc', '--noEmit'], root).stdout).toBe('');
  expect(stripVTControlCharacters(as.run('npm', ['test'], root).stdout)).toMatch(/Tests\s+\d+ passed \(\d+\)/);
  // No terminal here, so --force is the consent a terminal user gives at Prisma's prompt.
  as.run('npx', ['fw', 'migrate', 'dev', '--name', 'auth', '--force'], root);
  const migrations = path.join(root, 'prisma/main/migrations');
  const auth = readdirSync(migrations).find((name) => name.endsWith('_auth'));
  expect(auth, 'the auth migration').toBeDefined();
  expect(readFileSync(path.join(migrations, auth!, 'migration.sql'), 'utf8')).toMatch(/CREATE TABLE "User"/);
});
