/**
 * Translation lookups per second: `MergedTranslations` (three domains: an Additive, the app, the
 * framework; a hit in the last domain, a miss through all, a plural, interpolation) against the
 * baseline of a plain object lookup (`messages[msgid] ?? msgid`), run side by side in this process.
 *
 *   npx tsx bench/i18n.ts
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Additive, Fluid } from '../runtime-kernel/src/index.js';

const PO = (body: string) => `msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n${body}`;
const root = mkdtempSync(path.join(tmpdir(), 'fw-bench-i18n-'));
const write = (rel: string, text: string) => {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
};
write('fw.json', JSON.stringify({ name: 'bench', config: { EXT_I18N: true, I18N_SUPPORTED_LOCALES: ['en', 'de'], SECRET_KEY: 'x' } }));
write('fluid/locales/de.po', PO('msgid "Hello, %(name)s!"\nmsgstr "Hallo, %(name)s!"\n\nmsgid "%(num)d file"\nmsgid_plural "%(num)d files"\nmsgstr[0] "%(num)d Datei"\nmsgstr[1] "%(num)d Dateien"\n'));
write('additives/blog/locales/de.po', PO('msgid "Post"\nmsgstr "Beitrag"\n'));

const fluid = new Fluid({ root, env: {}, logger: { debug() {}, info() {}, warn() {}, error() {} } });
fluid.additive(new Additive('blog', { root: path.join(root, 'additives/blog') }));
const de = fluid.i18n.translations('de');
const plain: Record<string, string> = { 'Not Found': 'Nicht gefunden', Post: 'Beitrag' };

function rate(fn: () => unknown): number {
  const N = 2_000_000;
  for (let i = 0; i < 200_000; i++) fn(); // warm-up
  const t = performance.now();
  for (let i = 0; i < N; i++) fn();
  return N / ((performance.now() - t) / 1000);
}

let sink: unknown;
const keys = ['Not Found', 'Post'];
let k = 0;
const baseline = rate(() => {
  const key = keys[k++ & 1]!;
  sink = plain[key] ?? key;
});
const rows: [string, number][] = [
  ['baseline: plain object lookup', baseline],
  ['gettext: hit in the Additive (first domain)', rate(() => (sink = de.gettext('Post')))],
  ['gettext: hit in the framework (third domain)', rate(() => (sink = de.gettext('Not Found')))],
  ['gettext: miss through all three domains', rate(() => (sink = de.gettext('Nope')))],
  ['gettext with %(name)s interpolation', rate(() => (sink = de.gettext('Hello, %(name)s!', { name: 'Ada' })))],
  ['ngettext (Plural-Forms rule)', rate(() => (sink = de.ngettext('%(num)d file', '%(num)d files', 3)))],
  ['findtext: miss', rate(() => (sink = de.findtext('Nope')))],
];
void sink;
console.log('| lookup | lookups/s | vs baseline |\n| --- | ---: | ---: |');
for (const [name, r] of rows) console.log(`| ${name} | ${Math.round(r).toLocaleString('en')} | ${(r / baseline).toFixed(2)}x |`);
rmSync(root, { recursive: true, force: true });
