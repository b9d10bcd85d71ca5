/**
 * `.fw/cache/`: formatted renders and the i18n render are reused only while what they depend on
 * is unchanged. Each input that must invalidate them is changed once: the render (a blueprint
 * change), the prettier config, the fw version, a hand edit of a translation catalog. A property
 * test runs the same random edit sequences with and without the cache: the projects stay equal.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../generators/src/commands/index.js';
import { apply, Cache, formatConfig, Tree, type Formatter } from '../../generators/src/pipeline/index.js';
import { prettierFormatter } from '../../generators/src/pipeline/prettier.js';
import { tempDir, testIO } from './helpers.js';
import { editConfig, fw, newProject, read, snapshot } from './project-helpers.js';
import { prng } from '../support/random.js';

/** Prettier, counting the files it is asked to format. */
function counting(root: string): Formatter & { formatted: string[] } {
  const inner = prettierFormatter(root, undefined);
  const formatted: string[] = [];
  return {
    formatted,
    exact: true,
    format: async (files) => {
      formatted.push(...files.map((f) => f.path));
      return inner.format(files);
    },
  };
}

/** One run of a tree rendering `files`, formatted through the cache of `version`. */
async function generateWith(root: string, version: string, files: Record<string, string>): Promise<string[]> {
  const formatter = counting(root);
  const cache = Cache.load(root, formatConfig(root, version));
  const tree = new Tree(root, { formatter, cache });
  for (const [file, text] of Object.entries(files)) tree.render(file, text, { generator: 'g' });
  await apply(await tree.plan(), { generatorVersion: version });
  return formatter.formatted;
}

describe('the format cache is invalidated by what it depends on', () => {
  test('a changed render (a blueprint change) and a new fw version format again; an unchanged one does not', async () => {
    const root = await tempDir();
    expect(await generateWith(root, '1.0.0', { 'a.ts': 'export const a = {x:1}', 'b.ts': 'export const b = 2' })).toEqual(['a.ts', 'b.ts']);
    expect(await generateWith(root, '1.0.0', { 'a.ts': 'export const a = {x:1}', 'b.ts': 'export const b = 2' })).toEqual([]);
    expect(await generateWith(root, '1.0.0', { 'a.ts': 'export const a = {x:2}', 'b.ts': 'export const b = 2' })).toEqual(['a.ts']);
    expect(await readFile(path.join(root, 'a.ts'), 'utf8')).toBe('export const a = { x: 2 };\n');
    expect(await generateWith(root, '1.1.0', { 'a.ts': 'export const a = {x:2}', 'b.ts': 'export const b = 2' })).toEqual(['a.ts', 'b.ts']);
  });

  test('a prettier config change reformats every render (fw generate, end to end)', async () => {
    const root = await newProject();
    await writeFile(path.join(root, '.prettierrc.json'), '{ "singleQuote": true, "printWidth": 100, "semi": false }\n');
    const ran = await fw(root, 'generate');
    expect(ran.code).toBe(0);
    expect(ran.out).toMatch(/update\s+fluid\/app\.ts/);
    expect(await read(root, 'fluid/app.ts')).toContain("export const fluid = new Fluid({ root: new URL('..', import.meta.url) })\n");
    const before = await snapshot(root);
    expect((await fw(root, 'generate')).out).toMatch(/^\d+ files: \d+ unchanged\n$/);
    expect(await snapshot(root)).toEqual(before);
  });

  test('the i18n render is reused until a catalog is edited by hand', async () => {
    const root = await newProject();
    await editConfig(root, (c) => (c.config.I18N_SUPPORTED_LOCALES = ['en', 'fr']));
    expect((await fw(root, 'generate')).code).toBe(0);
    const renders = JSON.parse(await read(root, '.fw/cache/renders.json')) as { i18n: { key: string } };
    const before = await snapshot(root);
    expect((await fw(root, 'generate')).out).toMatch(/^\d+ files: \d+ unchanged\n$/);
    expect(await snapshot(root)).toEqual(before);

    const fr = path.join(root, 'fluid/locales/fr.po');
    await writeFile(fr, `${await readFile(fr, 'utf8')}\nmsgid "Good morning"\nmsgstr "Bonjour"\n`);
    const ran = await fw(root, 'generate');
    expect(ran.code).toBe(0);
    expect(ran.out).toMatch(/update\s+fluid\/i18n\/fr\/index\.ts/);
    expect(await read(root, 'fluid/i18n/fr/index.ts')).toContain('Bonjour');
    expect((JSON.parse(await read(root, '.fw/cache/renders.json')) as { i18n: { key: string } }).i18n.key).not.toBe(renders.i18n.key);
  }, 60_000);
});


describe('cached and uncached fw generate agree', () => {
  let work = '';
  let template = '';
  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'fw-cache-prop-'));
    expect(await run(['create', 'project', 'cached', '--yes'], testIO(work))).toBe(0);
    template = path.join(work, 'cached');
  }, 60_000);
  afterAll(() => rm(work, { recursive: true, force: true }));

  const SEEDS = Number(process.env.FW_PROPERTY_SEEDS ?? 8);
  test.each(Array.from({ length: SEEDS }, (_, i) => i + 1))('seed %i: the same edits give the same project and the same report', async (seed) => {
    const random = prng(seed * 104729);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const dir = await tempDir('fw-cache-seed-');
    const roots = { cached: path.join(dir, 'cached'), uncached: path.join(dir, 'uncached') };
    await cp(template, roots.cached, { recursive: true });
    await cp(template, roots.uncached, { recursive: true });
    for (let step = 0; step < 5; step++) {
      // One random edit, drawn once and made to both projects.
      const kind = random();
      const frontend = pick([{ type: 'htmx', alpine: true }, { type: 'htmx', alpine: false }, { type: 'none' }]);
      const additives = ['blog', 'shop', 'news'].filter(() => random() < 0.5);
      const roles = pick([['editor'], ['editor', 'author']]);
      const file = pick(['README.md', 'fluid/templates/index.html', 'test/home.test.ts']);
      const prettierrc = `{ "singleQuote": ${random() < 0.5}, "printWidth": ${pick([80, 100, 120])} }\n`;
      const edit = async (root: string): Promise<void> => {
        if (kind < 0.45) {
          await editConfig(root, (c) => {
            c.config.APP_FRONTEND = frontend;
            c.additives = additives;
            if (step % 2 === 0) c.config.AUTH_ROLES = roles;
          });
        } else if (kind < 0.7) {
          await writeFile(path.join(root, file), `${await readFile(path.join(root, file), 'utf8').catch(() => '')}<!-- step ${step} -->\n`);
        } else if (kind < 0.85) {
          await writeFile(path.join(root, '.prettierrc.json'), prettierrc);
        } else {
          await writeFile(path.join(root, 'fluid/app.ts'), `${(await read(root, 'fluid/app.ts').catch(() => ''))}\n// step ${step}\n`);
        }
      };
      await edit(roots.cached);
      await edit(roots.uncached);
      const io = { cached: testIO(roots.cached), uncached: testIO(roots.uncached) };
      io.uncached.env.FW_CACHE = 'off';
      const codes = { cached: await run(['generate', '--json'], io.cached).catch(() => -1), uncached: await run(['generate', '--json'], io.uncached).catch(() => -1) };
      expect(codes.cached, `seed ${seed} step ${step}`).toBe(codes.uncached);
      const report = (out: string) => (JSON.parse(out) as { files: unknown[]; registrations: unknown }).files;
      expect(report(io.cached.out()), `seed ${seed} step ${step}: same report`).toEqual(report(io.uncached.out()));
      const files = async (root: string) => new Map([...(await snapshot(root))].filter(([f]) => !f.startsWith('.fw/cache/')).map(([f, v]) => [f, v.bytes.toString('base64')]));
      expect(await files(roots.cached), `seed ${seed} step ${step}: same files`).toEqual(await files(roots.uncached));
    }
  }, 120_000);
});
