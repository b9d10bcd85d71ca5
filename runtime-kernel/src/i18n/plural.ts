/**
 * Plural rules: the PO `Plural-Forms` header (`nplurals=3; plural=(n==1 ? 0 : ...);`) compiled
 * into a function from a count to a form index, and, for catalogs without the header, the
 * locale's CLDR rules from `Intl.PluralRules`.
 */
import { FrameworkException } from '../core/errors.js';

/** Maps a count to the index of the plural form to use. */
export type PluralFunction = (n: number) => number;

/** A compiled plural rule: how many forms a catalog has and which one a count takes. */
export interface PluralRule {
  /** How many plural forms a message has in this locale (`nplurals` of `Plural-Forms`). */
  readonly nplurals: number;
  /** The index of the form a count takes (0 to `nplurals - 1`). */
  readonly select: PluralFunction;
}

/** The CLDR plural categories, in the order their forms are listed. */
export const CLDR_ORDER: readonly Intl.LDMLPluralRule[] = ['zero', 'one', 'two', 'few', 'many', 'other'];

const EXPRESSION = /^[\sn0-9()?:<>=!&|%+\-*/]*$/;
const cache = new Map<string, PluralRule>();

/**
 * Compiles a `Plural-Forms` header value. Only the C-expression alphabet gettext allows (`n`,
 * digits, arithmetic, comparisons, `&& || ! ?:`) is accepted; anything else is an error naming
 * the header, so a catalog can never inject code.
 */
export function parsePluralForms(header: string, where = 'Plural-Forms'): PluralRule {
  const hit = cache.get(header);
  if (hit) return hit;
  const nplurals = /nplurals\s*=\s*(\d+)/.exec(header);
  const plural = /plural\s*=\s*([^;]+);?/.exec(header);
  if (!nplurals || !plural || !EXPRESSION.test(plural[1] ?? '')) {
    throw new FrameworkException(`${where}: invalid Plural-Forms header ${JSON.stringify(header)} (expected "nplurals=N; plural=EXPR;")`);
  }
  const count = Number(nplurals[1]);
  let fn: (n: number) => number | boolean;
  try {
    fn = new Function('n', `return (${plural[1]});`) as (n: number) => number | boolean;
    fn(1);
  } catch (err) {
    throw new FrameworkException(`${where}: the plural expression of ${JSON.stringify(header)} does not compile`, { cause: err });
  }
  const rule: PluralRule = {
    nplurals: count,
    select: (n) => {
      const i = Number(fn(Math.abs(Math.trunc(n))));
      return i >= 0 && i < count ? i : count - 1;
    },
  };
  cache.set(header, rule);
  return rule;
}

/** The plural rule of a locale from `Intl.PluralRules` (forms in CLDR order). */
export function localePluralRule(locale: string): PluralRule {
  const key = `intl:${locale}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const rules = new Intl.PluralRules(locale);
  const categories = CLDR_ORDER.filter((c) => rules.resolvedOptions().pluralCategories.includes(c));
  const rule: PluralRule = { nplurals: categories.length, select: (n) => categories.indexOf(rules.select(n)) };
  cache.set(key, rule);
  return rule;
}

/**
 * Which form index each CLDR category of `locale` takes under `rule`, found by sampling counts
 * 0..1000; a category no whole count reaches takes the last form (the browser client picks forms
 * with `Intl.PluralRules` and this map, without `eval`).
 */
export function categoryIndexes(locale: string, rule: PluralRule): Partial<Record<Intl.LDMLPluralRule, number>> {
  const rules = new Intl.PluralRules(locale);
  const out: Partial<Record<Intl.LDMLPluralRule, number>> = {};
  for (let n = 0; n <= 1000; n++) {
    const category = rules.select(n);
    out[category] ??= rule.select(n);
  }
  // Categories no whole count reaches (Polish "other" is for fractions) take the last form.
  for (const c of rules.resolvedOptions().pluralCategories) out[c] ??= rule.nplurals - 1;
  return out;
}

/** A `Plural-Forms` header for a new catalog of `locale`, from its CLDR categories. */
export function defaultPluralForms(locale: string): string {
  const lang = locale.split(/[-_]/)[0]?.toLowerCase() ?? '';
  return KNOWN_PLURAL_FORMS[lang] ?? 'nplurals=2; plural=(n != 1);';
}

/** The usual gettext `Plural-Forms` of common languages. */
export const KNOWN_PLURAL_FORMS: Readonly<Record<string, string>> = {
  en: 'nplurals=2; plural=(n != 1);',
  de: 'nplurals=2; plural=(n != 1);',
  nl: 'nplurals=2; plural=(n != 1);',
  it: 'nplurals=2; plural=(n != 1);',
  es: 'nplurals=2; plural=(n != 1);',
  fr: 'nplurals=2; plural=(n > 1);',
  pt: 'nplurals=2; plural=(n != 1);',
  ja: 'nplurals=1; plural=0;',
  zh: 'nplurals=1; plural=0;',
  ko: 'nplurals=1; plural=0;',
  tr: 'nplurals=2; plural=(n != 1);',
  pl: 'nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  ru: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  uk: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  cs: 'nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;',
  ar: 'nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);',
};
