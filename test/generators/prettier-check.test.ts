/**
 * A user's first `npm run format` (prettier over the whole project) passes on a freshly generated
 * project, whatever wrote its files: every surface, with the auth scaffold (two-factor on and
 * off, its JSON API on a Vite surface), an Additive, the pages of `fw make page` (the app's and
 * an Additive's) and the templates of `fw make mail`. The auth scaffold's pages and mail are
 * Handlebars that prettier's HTML parser cannot read: the project's `.prettierignore` lists them,
 * and a `fw generate` keeps the line. Prettier runs as `npm run format` would, at the version the
 * project pins (this checkout's), with `--check`.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO } from './helpers.js';
import { editConfig, newProject, ok, read } from './project-helpers.js';

/** `prettier --check .` in `root` (the check of `npm run format`); fails with prettier's report unless it passes. */
function expectFormatted(root: string): void {
  const format = spawnSync(path.join(REPO, 'node_modules/.bin/prettier'), ['--check', '.'], { cwd: root, encoding: 'utf8' });
  expect(format.status, format.stdout + format.stderr).toBe(0);
}

const COMBINATIONS: Array<{ flags: string[]; twoFactor: boolean }> = [
  { flags: ['--surface', 'none'], twoFactor: true },
  { flags: ['--surface', 'htmx', '--alpine'], twoFactor: true },
  { flags: ['--surface', 'htmx', '--no-alpine'], twoFactor: false },
  { flags: ['--framework', 'react', '--typescript'], twoFactor: true },
  { flags: ['--framework', 'none', '--no-typescript'], twoFactor: false },
];

describe('npm run format on a fresh project', () => {
  test.each(COMBINATIONS.map((c) => ({ ...c, shown: `${c.flags.join(' ')}, two-factor ${c.twoFactor ? 'on' : 'off'}` })))(
    '$shown: with fw create auth, an Additive, fw make page and fw make mail, prettier --check . passes',
    async ({ flags, twoFactor }) => {
      const root = await newProject('app', '--yes', ...flags);
      if (!twoFactor) {
        await editConfig(root, (json) => {
          json.config.AUTH_TWO_FACTOR = false;
        });
      }
      await ok(root, 'create', 'auth');
      await ok(root, 'create', 'additive', 'blog', '--no-install');
      await ok(root, 'make', 'page', 'about');
      await ok(root, 'make', 'page', 'archive', '--additive', 'blog');
      await ok(root, 'make', 'mail', 'welcome');
      expectFormatted(root);
      expect(await read(root, '.prettierignore')).toMatch(/\nfluid\/templates\/auth\/\n$/);

      // fw generate keeps the line (once), and the project still passes.
      await ok(root, 'generate', '--no-install');
      expect((await read(root, '.prettierignore')).match(/^fluid\/templates\/auth\/$/gm)).toHaveLength(1);
      expectFormatted(root);
    },
    120_000,
  );

  test("with docs/make.md's controller generator and its Handlebars template, after two runs, prettier --check . passes", async () => {
    const root = await newProject('plop', '--yes');
    const page = await readFile(path.join(REPO, 'docs/make.md'), 'utf8');
    const block = (fence: string, first: string): string => {
      const found = page.split(`\n${fence}\n`).slice(1).find((b) => b.startsWith(first));
      if (found === undefined) throw new Error(`docs/make.md has no ${fence} block starting with ${first}`);
      return found.slice(0, found.indexOf('\n```\n') + 1);
    };
    await mkdir(path.join(root, 'generators/templates'), { recursive: true });
    await writeFile(path.join(root, 'generators/plopfile.ts'), block('```ts', '// generators/plopfile.ts\n'));
    await writeFile(path.join(root, 'generators/templates/controller.ts.hbs'), block('```handlebars', '{{!-- generators/templates/controller.ts.hbs --}}\n'));
    await ok(root, 'make', 'controller', 'invoices');
    await ok(root, 'make', 'controller', 'payments');
    expect(await read(root, 'fluid/controllers/index.ts')).toBe("// The app's controllers.\nexport * from './invoices.js';\nexport * from './payments.js';\n");
    expectFormatted(root);
  });

  test('a project without the auth scaffold lists no auth templates', async () => {
    const root = await newProject('plain', '--yes');
    expect(await read(root, '.prettierignore')).not.toContain('fluid/templates/auth');
    await ok(root, 'generate', '--no-install');
    expect(await read(root, '.prettierignore')).not.toContain('fluid/templates/auth');
  });
});
