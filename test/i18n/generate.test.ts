/**
 * The typed translation modules: rendered with typesafe-i18n from PO catalogs into a temp
 * project, type-checked with the project's TypeScript, run, and a compile-fail test (a wrong key
 * and a missing parameter are `tsc` errors). Adding a locale and re-rendering writes its modules.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { readFile, appendFile } from 'node:fs/promises';
import { renderTranslationModules } from '../../generators/src/i18n/index.js';
import { hasConflicts } from '../../generators/src/pipeline/index.js';
import { applyToDisk, planRendered } from '../regen/helpers.js';

const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../..');
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const POT = `msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "Hello, %(name)s!"
msgstr ""

#. key: fileCount
msgid "%(num)d file"
msgid_plural "%(num)d files"
msgstr[0] ""
msgstr[1] ""

msgctxt "door"
msgid "Open"
msgstr ""

msgid "You have %(count)d points"
msgstr ""
`;

const PL = `msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"

msgid "Hello, %(name)s!"
msgstr "Cześć, %(name)s!"

msgid "%(num)d file"
msgid_plural "%(num)d files"
msgstr[0] "%(num)d plik"
msgstr[1] "%(num)d pliki"
msgstr[2] "%(num)d plików"

msgctxt "door"
msgid "Open"
msgstr "Otwórz"
`;

const FILES = new Map([
  ['fluid/locales/messages.pot', POT],
  ['fluid/locales/pl.po', PL],
]);

function project(files: Map<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'fw-i18n-gen-'));
  made.push(root);
  for (const [rel, text] of files) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'gen', type: 'module', private: true }));
  writeFileSync(
    path.join(root, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: [] },
      include: ['fluid/**/*.ts', '*.ts'],
    }),
  );
  return root;
}

async function tsc(root: string): Promise<{ code: number; output: string }> {
  try {
    const r = await run(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', root], { cwd: root });
    return { code: 0, output: r.stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

const GOOD = `import { i18nObject } from './fluid/i18n/i18n-util.js';
import { loadAllLocales } from './fluid/i18n/i18n-util.sync.js';
loadAllLocales();
const pl = i18nObject('pl');
const en = i18nObject('en');
console.log(JSON.stringify([
  pl.helloName({ name: 'Ada' }), en.helloName({ name: 'Ada' }),
  pl.fileCount({ num: 1 }), pl.fileCount({ num: 3 }), pl.fileCount({ num: 5 }), pl.fileCount({ num: 22 }),
  en.fileCount({ num: 1 }), en.fileCount({ num: 2 }),
  pl.door.open(), en.door.open(), pl.youHaveCountPoints({ count: 7 }),
]));
`;

describe('renderTranslationModules', () => {
  it('renders typesafe-i18n modules that type-check and translate (Polish plurals, context)', async () => {
    const out = await renderTranslationModules({ config: { I18N_DEFAULT_LOCALE: 'en', I18N_SUPPORTED_LOCALES: ['en', 'pl'] }, files: FILES, projectName: 'gen' });
    expect([...out.keys()]).toEqual(
      expect.arrayContaining([
        'fluid/locales/en.po',
        'fluid/i18n/i18n-types.ts',
        'fluid/i18n/i18n-util.ts',
        'fluid/i18n/i18n-util.sync.ts',
        'fluid/i18n/en/index.ts',
        'fluid/i18n/pl/index.ts',
        'fluid/i18n/fluid-locale.ts',
      ]),
    );
    expect(out.get('fluid/locales/pl.po')).toBe(PL); // an existing catalog is rendered as it is
    expect(out.get('fluid/locales/en.po')).toContain('msgctxt "door"\nmsgid "Open"\nmsgstr ""');
    const types = out.get('fluid/i18n/i18n-types.ts')!;
    expect(types).toContain('helloName: (arg: { name: string }) => LocalizedString');
    expect(types).toContain('youHaveCountPoints: (arg: { count: number }) => LocalizedString');

    const root = project(new Map([...FILES, ...out, ['main.ts', GOOD]]));
    const checked = await tsc(root);
    expect(checked.output).toBe('');
    expect(checked.code).toBe(0);
    const ran = await run(process.execPath, ['--import', 'tsx', 'main.ts'], { cwd: root });
    expect(JSON.parse(ran.stdout)).toEqual([
      'Cześć, Ada!', 'Hello, Ada!', '1 plik', '3 pliki', '5 plików', '22 pliki', '1 file', '2 files', 'Otwórz', 'Open', 'You have 7 points',
    ]);
  });

  it('a locale configured gettext-style (pt_BR) is the BCP 47 tag pt-BR in the typed modules; its pt_BR.po is read and kept', async () => {
    const ptBr = `msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n > 1);\n"\n\nmsgid "Hello, %(name)s!"\nmsgstr "Olá, %(name)s!"\n\nmsgid "%(num)d file"\nmsgid_plural "%(num)d files"\nmsgstr[0] "%(num)d arquivo"\nmsgstr[1] "%(num)d arquivos"\n`;
    const files = new Map([...FILES, ['fluid/locales/pt_BR.po', ptBr]]);
    // typesafe-i18n's runtime and generator take the locale to Intl, which throws on pt_BR.
    const out = await renderTranslationModules({ config: { I18N_DEFAULT_LOCALE: 'en', I18N_SUPPORTED_LOCALES: ['en', 'pt_BR'] }, files, projectName: 'gen' });
    expect(out.get('fluid/locales/pt_BR.po')).toBe(ptBr);
    expect(out.has('fluid/locales/pt-BR.po')).toBe(false);
    expect(out.get('fluid/i18n/i18n-types.ts')).toMatch(/export type Locales =\s*\|\s*'en'\s*\|\s*'pt-BR'\n/);
    expect(out.has('fluid/i18n/pt-BR/index.ts')).toBe(true);
    const main = `import { i18nObject } from './fluid/i18n/i18n-util.js';
import { loadAllLocales } from './fluid/i18n/i18n-util.sync.js';
loadAllLocales();
const LL = i18nObject('pt-BR');
console.log(JSON.stringify([LL.helloName({ name: 'Ada' }), LL.fileCount({ num: 1 }), LL.fileCount({ num: 3 })]));
`;
    const root = project(new Map([...files, ...out, ['main.ts', main]]));
    expect((await tsc(root)).output).toBe('');
    const ran = await run(process.execPath, ['--import', 'tsx', 'main.ts'], { cwd: root });
    expect(JSON.parse(ran.stdout)).toEqual(['Olá, Ada!', '1 arquivo', '3 arquivos']);
  });

  it('compile-fail: tsc rejects a wrong key and a missing parameter', async () => {
    const out = await renderTranslationModules({ config: { I18N_DEFAULT_LOCALE: 'en', I18N_SUPPORTED_LOCALES: ['en', 'pl'] }, files: FILES, projectName: 'gen' });
    const bad = `import { i18nObject } from './fluid/i18n/i18n-util.js';
const LL = i18nObject('pl');
LL.helloNmae({ name: 'x' });
LL.helloName();
LL.fileCount({ count: 3 });
`;
    const root = project(new Map([...FILES, ...out, ['bad.ts', bad]]));
    const checked = await tsc(root);
    expect(checked.code).not.toBe(0);
    expect(checked.output).toMatch(/bad\.ts\(3,4\): error TS2551: Property 'helloNmae' does not exist/);
    expect(checked.output).toMatch(/bad\.ts\(4,4\): error TS2554: Expected 1 arguments, but got 0/);
    expect(checked.output).toMatch(/bad\.ts\(5,\d+\): error TS2353: Object literal may only specify known properties, and 'count' does not exist/);
  });

  it("types ctx.locale as the app's Locales: i18nObject(ctx.locale) needs no cast, another tag is a tsc error", async () => {
    const out = await renderTranslationModules({ config: { I18N_DEFAULT_LOCALE: 'en', I18N_SUPPORTED_LOCALES: ['en', 'pl'] }, files: FILES, projectName: 'gen' });
    expect(out.get('fluid/i18n/fluid-locale.ts')).toContain("declare module '@fw/kernel/i18n'");
    const routes = `import type { FluidContext } from '@fw/kernel';
import { i18nObject } from './fluid/i18n/i18n-util.js';
export function greet(ctx: FluidContext): string {
  const locale: 'en' | 'pl' = ctx.locale;
  return i18nObject(ctx.locale).helloName({ name: 'Ada' }) + i18nObject(locale).door.open();
}
export function german(ctx: FluidContext): 'de' {
  return ctx.locale;
}
`;
    const root = project(new Map([...FILES, ...out, ['routes.ts', routes]]));
    const checked = await tsc(root);
    // Only the function that claims a locale the app does not have fails (a plain string would fail all three lines).
    expect(checked.output.trim().split('\n')).toEqual([
      `routes.ts(8,3): error TS2322: Type 'Locales' is not assignable to type '"de"'.`,
      `  Type '"en"' is not assignable to type '"de"'.`,
    ]);
  });

  it('adding a locale to the config and re-rendering writes its catalog and typed module', async () => {
    const before = await renderTranslationModules({ config: { I18N_DEFAULT_LOCALE: 'en', I18N_SUPPORTED_LOCALES: ['en', 'pl'] }, files: FILES, projectName: 'gen' });
    expect(before.has('fluid/i18n/ru/index.ts')).toBe(false);
    const after = await renderTranslationModules({ config: { I18N_DEFAULT_LOCALE: 'en', I18N_SUPPORTED_LOCALES: ['en', 'pl', 'ru'] }, files: FILES, projectName: 'gen' });
    const ru = after.get('fluid/locales/ru.po')!;
    expect(ru).toContain('"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 :');
    expect(ru).toContain('msgid "%(num)d file"\nmsgid_plural "%(num)d files"\nmsgstr[0] ""\nmsgstr[1] ""\nmsgstr[2] ""');
    expect(after.get('fluid/i18n/ru/index.ts')).toContain('satisfies Translation');
    expect(after.get('fluid/i18n/i18n-types.ts')).toMatch(/\| 'ru'/);
    const root = project(new Map([...FILES, ...after, ['main.ts', GOOD]]));
    expect((await tsc(root)).output).toBe('');
  });

  it('errors name the file or the message', async () => {
    await expect(
      renderTranslationModules({ config: { I18N_DEFAULT_LOCALE: 'en', I18N_SUPPORTED_LOCALES: ['en'] }, files: new Map([['fluid/locales/en.po', 'garbage\n']]), projectName: 'gen' }),
    ).rejects.toThrow(/fluid\/locales\/en\.po: not a valid PO catalog/);
    const pot = 'msgid "%(name)s has %(num)d file"\nmsgid_plural "%(name)s has %(num)d files"\nmsgstr[0] ""\nmsgstr[1] ""\n';
    await expect(
      renderTranslationModules({ config: { I18N_DEFAULT_LOCALE: 'en', I18N_SUPPORTED_LOCALES: ['en'] }, files: new Map([['fluid/locales/messages.pot', pot]]), projectName: 'gen' }),
    ).rejects.toThrow(/plural message "%\(name\)s has %\(num\)d file" \(en\): a plural form may use only the count/);
  });

  it('regeneration through the engine: a new locale lands, hand edits and translated catalogs stay', async () => {
    const root = project(FILES);
    const generate = async (locales: string[]) => {
      const files = new Map<string, string>();
      for (const rel of ['fluid/locales/messages.pot', ...locales.map((l) => `fluid/locales/${l}.po`)]) {
        const text = await readFile(path.join(root, rel), 'utf8').catch(() => undefined);
        if (text !== undefined) files.set(rel, text);
      }
      const out = await renderTranslationModules({ config: { I18N_DEFAULT_LOCALE: 'en', I18N_SUPPORTED_LOCALES: locales }, files, projectName: 'gen' });
      const plan = await planRendered({ projectRoot: root, rendered: new Map([...out].map(([k, v]) => [k, Buffer.from(v)])), generatorId: 'i18n' });
      expect(hasConflicts(plan)).toBe(false);
      await applyToDisk(plan);
      return plan;
    };
    await generate(['en', 'pl']);
    await appendFile(path.join(root, 'fluid/i18n/formatters.ts'), '// my formatter notes\n');
    const enPo = path.join(root, 'fluid/locales/en.po');
    const translated = (await readFile(enPo, 'utf8')).replace('msgctxt "door"\nmsgid "Open"\nmsgstr ""', 'msgctxt "door"\nmsgid "Open"\nmsgstr "Open the door"');
    writeFileSync(enPo, translated);

    await generate(['en', 'pl', 'ru']);
    expect(await readFile(path.join(root, 'fluid/i18n/ru/index.ts'), 'utf8')).toContain('satisfies Translation');
    expect(await readFile(path.join(root, 'fluid/locales/ru.po'), 'utf8')).toContain('msgstr[2] ""');
    expect(await readFile(path.join(root, 'fluid/i18n/formatters.ts'), 'utf8')).toContain('// my formatter notes');
    expect(await readFile(enPo, 'utf8')).toBe(translated);
    expect(await readFile(path.join(root, 'fluid/i18n/en/index.ts'), 'utf8')).toContain("open: 'Open the door'");
    writeFileSync(path.join(root, 'main.ts'), GOOD.replace("pl.door.open(), en.door.open()", "pl.door.open(), en.door.open().replace(' the door', '')"));
    expect((await tsc(root)).output).toBe('');
  });
});
