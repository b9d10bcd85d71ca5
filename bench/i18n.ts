/**
 * Translation lookups in this process: `MergedTranslations` of the kernel (three domains: an
 * Additive, the app, the framework) for a hit in the first and in the last domain, a miss through
 * all three, `%(name)s` interpolation and a plural, each against the least hand-written code
 * doing the same: a plain object lookup (`messages[id] ?? id`), plus a `replace` for the
 * placeholder, plus `Intl.PluralRules` for the plural.
 *
 *   npm run bench -- i18n        # BENCH_ROUNDS=5 BENCH_LOOKUPS=3000000
 */
import { join } from 'node:path';
import { Additive, Fluid } from '@fw/kernel';
import { compareOps, type Operation } from './lib/micro.ts';
import { kernelProject } from './lib/project.ts';
import { report } from './lib/report.ts';
import { knob, rounds } from './lib/settings.ts';

const ROUNDS = rounds(5);
const LOOKUPS = knob('BENCH_LOOKUPS', 3_000_000, 100_000);
const po = (body: string): string => `msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n${body}`;
const root = kernelProject(
  { EXT_I18N: true, I18N_SUPPORTED_LOCALES: ['en', 'de'] },
  {
    'fluid/locales/de.po': po(
      'msgid "Hello, %(name)s!"\nmsgstr "Hallo, %(name)s!"\n\nmsgid "%(num)d file"\nmsgid_plural "%(num)d files"\nmsgstr[0] "%(num)d Datei"\nmsgstr[1] "%(num)d Dateien"\n',
    ),
    'additives/blog/locales/de.po': po('msgid "Post"\nmsgstr "Beitrag"\n'),
  },
);
const fluid = new Fluid({ root, env: {} });
fluid.additive(new Additive('blog', { root: join(root, 'additives/blog') }));
const de = fluid.i18n.translations('de');
const plain: Record<string, string> = { 'Not Found': 'Nicht gefunden', Post: 'Beitrag', 'Hello, %(name)s!': 'Hallo, %(name)s!' };
const lookup = (id: string): string => plain[id] ?? id;
const op = (label: string, run: () => unknown): Operation => ({ label, run });
const baseline = (id: string): Operation => op('plain object lookup', () => lookup(id));
const vars: Record<string, string> = { name: 'Ada' };
const interpolated = op('lookup + replace', () => lookup('Hello, %(name)s!').replace(/%\((\w+)\)s/g, (_, k: string) => vars[k] ?? ''));
const rules = new Intl.PluralRules('de');
const forms: Record<string, string> = { one: '%(num)d Datei', other: '%(num)d Dateien' };
const plural = op('Intl.PluralRules + lookup + replace', () => (forms[rules.select(3)] ?? '').replace('%(num)d', String(3)));

const rows = await compareOps(
  'i18n',
  [
    { name: 'gettext, hit in the Additive (first domain)', fw: op('fw gettext', () => de.gettext('Post')), baseline: baseline('Post'), ops: LOOKUPS },
    { name: 'gettext, hit in the framework (third domain)', fw: op('fw gettext', () => de.gettext('Not Found')), baseline: baseline('Not Found'), ops: LOOKUPS },
    { name: 'gettext, miss through three domains', fw: op('fw gettext', () => de.gettext('Nope')), baseline: baseline('Nope'), ops: LOOKUPS },
    { name: 'gettext with %(name)s', fw: op('fw gettext', () => de.gettext('Hello, %(name)s!', { name: 'Ada' })), baseline: interpolated, ops: LOOKUPS },
    { name: 'ngettext (Plural-Forms rule)', fw: op('fw ngettext', () => de.ngettext('%(num)d file', '%(num)d files', 3)), baseline: plural, ops: LOOKUPS },
  ],
  { rounds: ROUNDS },
);
await fluid.close();
report('i18n lookups (in process)', `${ROUNDS} interleaved rounds of ${LOOKUPS.toLocaleString('en-US')} lookups per side; CPU = this process's per lookup`, rows);
