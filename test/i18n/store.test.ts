/**
 * Database-backed translation keys (`I18N_DATABASE_BIND`) on a real SQLite bind through a
 * generated PrismaClient: overrides beat every catalog, the read path is cached (one query per
 * locale), and `invalidate()` reloads.
 */
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Additive, Fluid } from '@fw/kernel';
import { Database, type PrismaClientClass } from '@fw/kernel/db';
import { PrismaTranslationStore } from '@fw/kernel/i18n';
import { CachedTranslations } from '@fw/kernel/i18n';
import { migrateCommandPlan, renderMigrateEnvironment, runPrismaAll } from '../../generators/src/migrate/index.js';
import { prismaCli, tempProject, usePrismaOffline, writeFiles } from '../support/prisma.js';
import { memoryLogger, start } from '../kernel/helpers.js';
import { APP_FILES, BLOG_FILES, I18N_CONFIG } from './fixture.js';

/** The model docs/i18n.md tells apps to add to the I18N_DATABASE_BIND schema. */
const TRANSLATION_MODEL = `
model Translation {
  id      Int    @id @default(autoincrement())
  locale  String
  context String @default("")
  msgid   String
  form    Int    @default(0)
  msgstr  String

  @@unique([locale, context, msgid, form])
  @@map("fw_translations")
}
`;

interface Row {
  locale: string;
  context?: string;
  msgid: string;
  form?: number;
  msgstr: string;
}
interface TestClient {
  translation: { create(args: { data: Row }): Promise<unknown>; deleteMany(): Promise<unknown> };
  $queryRaw<T = unknown>(query: TemplateStringsArray, ...values: unknown[]): Promise<T>;
  $connect(): Promise<void>;
  $disconnect(): Promise<void>;
}
type TestClientClass = new (options: ConstructorParameters<PrismaClientClass>[0]) => TestClient;

let project: { root: string; cleanup(): Promise<void> };
let db: Database<{ main: TestClientClass }>;
const binds = { main: 'file:./var/main.db' };

beforeAll(async () => {
  usePrismaOffline();
  project = await tempProject('i18n-store');
  await writeFiles(project.root, renderMigrateEnvironment({ binds, securityBind: 'main', projectName: 'i18n' }));
  await appendFile(path.join(project.root, 'prisma/main/schema.prisma'), TRANSLATION_MODEL);
  await runPrismaAll(migrateCommandPlan({ action: 'dev', name: 'init', binds, root: project.root, interactive: false, force: true }));
  const generated = prismaCli(['generate', '--config', 'prisma/main/prisma.config.ts'], { cwd: project.root });
  expect(generated.status, generated.output).toBe(0);
  const Client = ((await import(pathToFileURL(path.join(project.root, 'generated/prisma/main/client.ts')).href)) as { PrismaClient: TestClientClass }).PrismaClient;
  db = new Database({ binds, root: project.root, clients: { main: Client } });
  await writeFiles(project.root, new Map(Object.entries({ ...APP_FILES, ...BLOG_FILES, 'fw.json': JSON.stringify({ name: 'i18n', config: { ...I18N_CONFIG, DATABASE_BINDS: binds, I18N_DATABASE_BIND: 'main' } }) })));
}, 240_000);

afterAll(async () => {
  await db?.dispose();
  await project?.cleanup();
});

function app(): Fluid {
  const fluid = new Fluid({ root: project.root, env: {}, logger: memoryLogger(), config: { SECRET_KEY: 'test' } });
  fluid.additive(new Additive('blog', { root: path.join(project.root, 'additives', 'blog') }));
  expect(fluid.config.I18N_DATABASE_BIND).toBe('main');
  fluid.i18n.useStore(new PrismaTranslationStore(db.bind('main')));
  return fluid;
}

describe('database-backed keys (I18N_DATABASE_BIND)', () => {
  it('PrismaTranslationStore reads singular, plural and context rows of one locale', async () => {
    const client = db.bind('main');
    await client.translation.deleteMany();
    await client.translation.create({ data: { locale: 'de', msgid: 'Post', msgstr: 'Artikel' } });
    await client.translation.create({ data: { locale: 'de', context: 'door', msgid: 'Open', msgstr: 'Tür auf' } });
    for (const [form, msgstr] of ['%(num)d plik!', '%(num)d pliki!', '%(num)d plików!'].entries()) {
      await client.translation.create({ data: { locale: 'pl', msgid: '%(num)d file', form, msgstr } });
    }
    const store = new PrismaTranslationStore(client);
    expect(await store.load('de')).toEqual({ Post: 'Artikel', 'door\u0004Open': 'Tür auf' });
    expect(await store.load('pl')).toEqual({ '%(num)d file': ['%(num)d plik!', '%(num)d pliki!', '%(num)d plików!'] });
    expect(await store.load('ru')).toEqual({});
  });

  it('overrides beat every domain; the read path is cached until invalidate()', async () => {
    const client = db.bind('main');
    await client.translation.deleteMany();
    await client.translation.create({ data: { locale: 'de', msgid: 'Post', msgstr: 'Artikel' } });
    const fluid = app();
    const de = fluid.i18n.translations('de');
    expect(await de.agettext('Post')).toBe('Artikel'); // over the Additive's "Beitrag"
    expect(de.gettext('Save')).toBe('Save'); // not overridden: the Additive's
    await client.translation.create({ data: { locale: 'de', context: 'door', msgid: 'Open', msgstr: 'Tür auf' } });
    expect(await de.apgettext('door', 'Open')).toBe('Aufmachen'); // cached: the new row is not read yet
    await fluid.i18n.invalidate('de');
    expect(de.pgettext('door', 'Open')).toBe('Tür auf');
    expect(await de.apfindtext('door', 'Open')).toBe('Tür auf');
    await fluid.close();
  });

  it('one query per locale however many lookups; plural rows follow the catalog plural rule', async () => {
    const client = db.bind('main');
    await client.translation.deleteMany();
    for (const [form, msgstr] of ['%(num)d plik!', '%(num)d pliki!', '%(num)d plików!'].entries()) {
      await client.translation.create({ data: { locale: 'pl', msgid: '%(num)d file', form, msgstr } });
    }
    let queries = 0;
    const counting = new PrismaTranslationStore(client);
    const cached = new CachedTranslations({ load: (l) => (queries++, counting.load(l)) });
    await Promise.all(Array.from({ length: 100 }, () => cached.ready('pl')));
    expect(queries).toBe(1);
    const fluid = app();
    const pl = fluid.i18n.translations('pl');
    expect(await Promise.all([1, 3, 5].map((n) => pl.angettext('%(num)d file', '%(num)d files', n)))).toEqual(['1 plik!', '3 pliki!', '5 plików!']);
    await fluid.close();
  });

  it('HTTP requests see the database keys through ctx.i18n (synchronous gettext)', async () => {
    const client = db.bind('main');
    await client.translation.deleteMany();
    await client.translation.create({ data: { locale: 'pl', msgid: 'Hello, %(name)s!', msgstr: 'Witaj, %(name)s!' } });
    const fluid = app();
    fluid.app.get('hello', '/hello', (ctx) => ctx.i18n.gettext('Hello, %(name)s!', { name: 'Ada' }));
    const base = await start(fluid);
    try {
      expect(await (await fetch(`${base}/hello?lang=pl`)).text()).toBe('Witaj, Ada!');
      expect(await (await fetch(`${base}/hello?lang=de`)).text()).toBe('Hallo, Ada!');
    } finally {
      await fluid.close();
    }
  });
});
