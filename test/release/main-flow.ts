/**
 * The README's quick start, as a user with only a registry: `npm create fw-app@latest my-app --
 * --yes`, `npm install`, a type check with the kernel's real types, a teammate's fresh clone
 * (`npm ci && npm test`, no app config), and production (`npm run build`, `npm ci --omit=dev`,
 * `npm start`). Registered by htmx-app.test.ts (Node 24) and node22.test.ts (the oldest Node).
 */
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { folderBytes, fwVersion, installedPackages, startServer, user, workDir, type User } from './helpers.js';

/** What the main flow leaves for the tests that follow it in the same file. */
export interface MainFlow {
  /** The app the user created and installed (dev dependencies included, app config present). */
  root: () => string;
  user: User;
}

/** The wrong handler of issue 14: it must fail `tsc` in a generated app. */
export const WRONG_HANDLER = "import type { Handler } from '@fw/kernel';\n\nexport const wrong: Handler = (ctx: number) => ctx;\n";

/** Registers the main flow's tests in the calling file; `nodeBin` runs npm and the app on that Node. */
export function mainFlow(label: string, nodeBin?: string): MainFlow {
  const as = user(nodeBin);
  let work = '';
  let root = '';
  let clone = '';

  beforeAll(async () => {
    work = await workDir(label);
    root = path.join(work, 'my-app');
    as.run('npm', ['create', 'fw-app@latest', 'my-app', '--', '--yes'], work);
    as.run('npm', ['install'], root);
  });

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  test(`${label}: the app runs on this Node`, () => {
    const version = as.run('node', ['--version'], root).stdout.trim();
    expect(version).toBe(nodeBin === undefined ? process.version : as.run(nodeBin, ['--version'], root).stdout.trim());
  });

  test(`${label}: the app depends on the released fw (caret ranges, no file: specs) and has its app config`, async () => {
    const text = await readFile(path.join(root, 'package.json'), 'utf8');
    const pkg = JSON.parse(text) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(pkg.dependencies['@fw/kernel']).toBe(`^${fwVersion()}`);
    expect(pkg.devDependencies['@fw/cli']).toBe(`^${fwVersion()}`);
    expect(text).not.toContain('file:');
    expect(await readFile(path.join(root, 'app_configs/my-app.ini'), 'utf8')).toMatch(/^SECRET_KEY = [0-9a-f]{64}$/m);
    // The editor's schema is a file the installed app really has.
    const schema = (JSON.parse(await readFile(path.join(root, 'fw.json'), 'utf8')) as { $schema: string }).$schema;
    expect(existsSync(path.join(root, schema)), `$schema ${schema}`).toBe(true);
  });

  test(`${label}: the app type-checks with the kernel's real types, and a wrong handler fails tsc`, async () => {
    expect(as.run('npx', ['tsc', '--noEmit'], root).stdout).toBe('');
    const wrong = path.join(root, 'fluid/wrong.ts');
    await writeFile(wrong, WRONG_HANDLER);
    try {
      const failed = as.run('npx', ['tsc', '--noEmit'], root, [1, 2]);
      expect(failed.stdout).toMatch(/fluid\/wrong\.ts\(3,14\): error TS2322/);
    } finally {
      await rm(wrong);
    }
  });

  test(`${label}: a fresh clone passes npm ci && npm test with no app config`, () => {
    as.run('git', ['init', '--quiet', '--initial-branch=main'], root);
    as.run('git', ['add', '.'], root);
    as.run('git', ['-c', 'user.name=fw test', '-c', 'user.email=test@example.invalid', 'commit', '--quiet', '-m', 'my-app'], root);
    clone = path.join(work, 'clone');
    as.run('git', ['clone', '--quiet', root, clone], work);
    expect(existsSync(path.join(clone, 'app_configs/my-app.ini'))).toBe(false);
    as.run('npm', ['ci'], clone);
    expect(stripVTControlCharacters(as.run('npm', ['test'], clone).stdout)).toMatch(/Tests\s+\d+ passed \(\d+\)/);
  });

  test(`${label}: npm run build, npm ci --omit=dev, npm start serves / from compiled JavaScript`, async () => {
    as.run('npm', ['run', 'build'], clone);
    expect(existsSync(path.join(clone, 'dist/fluid/server.js'))).toBe(true);
    as.run('npm', ['ci', '--omit=dev'], clone);

    // Production reads its secret from a file named in the environment; there is no ini here.
    const secret = path.join(work, 'secret-key');
    await writeFile(secret, `${'ab'.repeat(32)}\n`, { mode: 0o600 });
    const server = await startServer('npm', ['start'], clone, { ...as.env, SECRET_KEY_FILE: secret });
    try {
      const home = await fetch(`${server.base}/`);
      expect(home.status).toBe(200);
      expect(await home.text()).toContain('<h1>my-app</h1>');
      expect(server.output()).not.toMatch(/tsx|frontend built/);
    } finally {
      await server.stop();
    }
    // Nothing of the development loop is installed: no CLI, no TypeScript, no tsx, no vitest.
    const installed = installedPackages(clone);
    console.info(`${label}: production node_modules of the htmx app: ${(folderBytes(path.join(clone, 'node_modules')) / 1e6).toFixed(1)} MB, ${installed.length} packages`);
    for (const dev of ['@fw/cli', 'typescript', 'tsx', 'vitest']) expect(installed).not.toContain(dev);
  });

  return { root: () => root, user: as };
}
