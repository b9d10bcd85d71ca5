/**
 * Creating a Vite app the way a newcomer does (`create-fw-app --framework ...`, then Additives
 * with their own Vite surfaces): the mistakes they make are named, and what is generated passes
 * the project's own `npm run format` check and boots its tests in time.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { check, getFileInfo, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';
import { listFiles, tempDir } from '../generators/helpers.js';
import { fw, newProject, read } from '../generators/project-helpers.js';

describe('--framework', () => {
  it('a mistyped framework is named as the flag, with a did-you-mean, before asking for anything else', async () => {
    const cwd = await tempDir();
    // Without --typescript: the flag's own mistake comes first, not the missing answer.
    for (const [given, near] of [['reakt', 'react, preact'], ['React', 'react'], ['svelt', 'svelte']] as const) {
      const made = await fw(cwd, 'create', 'project', 'my-app', '--framework', given);
      expect(made.code).toBe(1);
      expect(made.error).toBe(
        `--framework: got "${given}"; expected one of lit, none, preact, qwik, react, solid, svelte, vue (did you mean ${near}?)`,
      );
    }
    expect(await listFiles(cwd)).toEqual([]);
  });

  it('so is a mistyped --surface', async () => {
    const cwd = await tempDir();
    for (const [given, near] of [['htmz', 'htmx'], ['Vite', 'vite']] as const) {
      const made = await fw(cwd, 'create', 'project', 'my-app', '--surface', given, '--yes');
      expect(made.code).toBe(1);
      expect(made.error).toBe(`--surface: got "${given}"; expected one of none, htmx, vite (did you mean ${near}?)`);
    }
    expect(await listFiles(cwd)).toEqual([]);
  });
});

/** The files of `root` that prettier formats under `npm run format` (its ignore files and config), and those it would change. */
async function unformatted(root: string): Promise<{ checked: string[]; changed: string[] }> {
  const ignorePath = [path.join(root, '.gitignore'), path.join(root, '.prettierignore')];
  const checked: string[] = [];
  const changed: string[] = [];
  for (const rel of await listFiles(root)) {
    if (rel.startsWith('node_modules/')) continue;
    const file = path.join(root, rel);
    const info = await getFileInfo(file, { ignorePath });
    if (info.ignored || info.inferredParser === null) continue;
    checked.push(rel);
    const options = { ...(await resolveConfig(file)), filepath: file };
    if (!(await check(await readFile(file, 'utf8'), options))) changed.push(rel);
  }
  return { checked, changed };
}

describe('a Vite app with Vite Additives', () => {
  it("passes its own prettier check, and each Additive's test boots the app before its first request", async () => {
    const root = await newProject('my-app', '--framework', 'react', '--typescript');
    for (const [name, framework] of [['shop', 'vue'], ['blog', 'svelte']] as const) {
      expect((await fw(root, 'create', 'additive', name)).code).toBe(0);
      const manifest = path.join(root, 'additives', name, 'manifest.json');
      const json = JSON.parse(await readFile(manifest, 'utf8')) as Record<string, unknown>;
      await writeFile(manifest, `${JSON.stringify({ ...json, frontend: { type: 'vite', framework, typescript: true } }, null, 2)}\n`);
    }
    const generated = await fw(root, 'generate');
    expect(generated.code, generated.error).toBe(0);
    expect(await read(root, 'additives/shop/frontend/src/App.vue')).toBeTruthy();

    // create-vite's files are kept as they come (their own tooling), so `npm run format` leaves
    // them alone; every other file the frontend render writes is formatted. (fw.json is the
    // config edit of `fw create additive`, whose layout test/generators covers.)
    const { checked, changed } = await unformatted(root);
    expect(checked).toEqual(expect.arrayContaining(['fluid/app.ts', 'package.json', 'vite.config.js', 'additives/shop/shop.test.ts']));
    expect(checked.filter((f) => f.includes('/frontend/'))).toEqual([]);
    expect(changed.filter((f) => f !== 'fw.json')).toEqual([]);

    // The boot happens in beforeAll, once per file; the frontend it serves is built once for
    // every file, by the globalSetup of the app's vitest.config.ts.
    for (const name of ['shop', 'blog']) {
      const test = await read(root, `additives/${name}/${name}.test.ts`);
      expect(test).toContain('beforeAll(() => client.start());');
      expect(test.indexOf('beforeAll(() => client.start());')).toBeLessThan(test.indexOf('\ntest('));
    }
    expect(await read(root, 'vitest.config.ts')).toContain("globalSetup: ['@fw/cli/vitest-setup', 'test/build-frontend.ts'],");
    expect(await read(root, 'test/build-frontend.ts')).toContain('await buildFrontend();');
    // The README's map of the project shows where the frontend is.
    expect(await read(root, 'README.md')).toMatch(/^\| `fluid\/frontend\/` +\| The Vite app/m);
  });
});

describe('an htmx app with a Vite Additive', () => {
  it("has its tests build the Additive's frontend and boot before the first request", async () => {
    const root = await newProject('my-app', '--surface', 'htmx', '--no-alpine');
    expect(await read(root, 'vitest.config.ts')).toContain("globalSetup: ['@fw/cli/vitest-setup'],");
    expect(await listFiles(root)).not.toContain('test/build-frontend.ts');
    expect((await fw(root, 'create', 'additive', 'shop')).code).toBe(0);
    const manifest = path.join(root, 'additives/shop/manifest.json');
    const json = JSON.parse(await readFile(manifest, 'utf8')) as Record<string, unknown>;
    await writeFile(manifest, `${JSON.stringify({ ...json, frontend: { type: 'vite', framework: 'react' } }, null, 2)}\n`);
    const generated = await fw(root, 'generate');
    expect(generated.code, generated.error).toBe(0);

    // Without the build, the production boot of `npm test` stops: the Additive's index is missing.
    expect(await read(root, 'vitest.config.ts')).toContain("globalSetup: ['@fw/cli/vitest-setup', 'test/build-frontend.ts'],");
    expect(await listFiles(root)).toContain('test/build-frontend.ts');
    const home = await read(root, 'test/home.test.ts');
    expect(home).toContain('beforeAll(() => client.start());');
    expect(home).toContain("expect(home.text).toContain('<h1>my-app</h1>');");
    expect((await unformatted(root)).changed.filter((f) => f !== 'fw.json')).toEqual([]);
    expect(await read(root, 'README.md')).not.toContain('`fluid/frontend/`');
  });
});
