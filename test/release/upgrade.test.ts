/**
 * Upgrading fw keeps your edits. A user creates an app at the released version and edits two
 * generated files; fw then publishes its next version (tag `next`), whose project blueprint
 * changes both files: one elsewhere than the user's edit, one on the very line the user edited.
 * After `npm install` of the new @fw/kernel and @fw/cli, `fw generate` merges three ways against
 * the generation record: the separate changes are both kept, the overlap is a visible conflict.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { publishAll } from '../support/registry.js';
import { fwVersion, registry, user, workDir } from './helpers.js';

const as = user();
let work = '';
let root = '';

/** The next minor version: outside the app's `^<version>` range on 0.x, so no other test picks it up. */
function nextVersion(version: string): string {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return `${major}.${minor + 1}.0`;
}

async function replaceIn(file: string, from: string, to: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} does not contain ${JSON.stringify(from)}`);
  await writeFile(file, text.replace(from, to));
}

beforeAll(async () => {
  work = await workDir('upgrade');
  root = path.join(work, 'up-app');
  as.run('npm', ['create', 'fw-app@latest', 'up-app', '--', '--yes'], work);
  as.run('npm', ['install'], root);
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

test('npm install of the next fw and fw generate: both changes kept, a real overlap a visible conflict', async () => {
  // The user's edits.
  await replaceIn(path.join(root, 'fluid/templates/index.html'), '<h1>{{title}}</h1>', '<h1>{{title}}, by me</h1>');
  await replaceIn(path.join(root, 'fluid/static/app.css'), 'max-width: 40rem;', 'max-width: 48rem;');

  // fw's next release changes the same two generated files in its blueprints.
  const next = nextVersion(fwVersion());
  const { url, dir, env } = registry();
  await publishAll({ dir, env }, {
    version: next,
    tag: 'next',
    edit: async (contents, name) => {
      if (name !== '@fw/cli' && name !== 'create-fw-app') return;
      const project = path.join(contents, 'blueprints/project');
      await replaceIn(path.join(project, 'fluid/templates/index.html.hbs'), 'initial-scale=1"', 'initial-scale=1, viewport-fit=cover"');
      await replaceIn(path.join(project, 'fluid/static/app.css'), 'max-width: 40rem;', 'max-width: 60rem;');
    },
  });
  // The run's npm prefers the metadata it cached (registry-setup.ts): ask for the new release.
  expect(as.run('npm', ['view', '@fw/cli@next', 'version', '--prefer-online', '--registry', url], work).stdout.trim()).toBe(next);

  as.run('npm', ['install', '--prefer-online', `@fw/kernel@${next}`], root);
  as.run('npm', ['install', '--prefer-online', '--save-dev', `@fw/cli@${next}`], root);
  const generated = as.run('npx', ['fw', 'generate'], root, [1]);
  const report = generated.stdout + generated.stderr;
  expect(report).toMatch(/merge\s+fluid\/templates\/index\.html/);
  expect(report).toMatch(/conflict\s+fluid\/static\/app\.css/);

  const index = await readFile(path.join(root, 'fluid/templates/index.html'), 'utf8');
  expect(index).toContain('<h1>{{title}}, by me</h1>');
  expect(index).toContain('initial-scale=1, viewport-fit=cover"');
  const css = await readFile(path.join(root, 'fluid/static/app.css'), 'utf8');
  expect(css).toMatch(/<<<<<<< [^\n]*\n[\s\S]*max-width: 48rem;[\s\S]*=======\n[\s\S]*max-width: 60rem;[\s\S]*>>>>>>> /);
  // The new CLI did it (the record names the version that last wrote it), and package.json kept the upgrade.
  const record = JSON.parse(await readFile(path.join(root, '.fw/record.json'), 'utf8')) as { generator: string };
  expect(record.generator).toBe(next);
  const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  expect(pkg.devDependencies['@fw/cli']).toBe(`^${next}`);
});
