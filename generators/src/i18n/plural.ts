/**
 * Plural rules for the typed-module generator: a catalog's `Plural-Forms` header compiled (the
 * C-expression alphabet only) and mapped onto the CLDR categories typesafe-i18n selects by.
 */

/** The CLDR categories in typesafe-i18n's slot order: `{{zero|one|two|few|many|other}}`. */
export const SLOTS: readonly Intl.LDMLPluralRule[] = ['zero', 'one', 'two', 'few', 'many', 'other'];

/** The usual gettext `Plural-Forms` of common languages (new catalogs start with these). */
export const KNOWN_PLURAL_FORMS: Readonly<Record<string, string>> = {
  en: 'nplurals=2; plural=(n != 1);',
  de: 'nplurals=2; plural=(n != 1);',
  nl: 'nplurals=2; plural=(n != 1);',
  it: 'nplurals=2; plural=(n != 1);',
  es: 'nplurals=2; plural=(n != 1);',
  pt: 'nplurals=2; plural=(n != 1);',
  tr: 'nplurals=2; plural=(n != 1);',
  fr: 'nplurals=2; plural=(n > 1);',
  ja: 'nplurals=1; plural=0;',
  zh: 'nplurals=1; plural=0;',
  ko: 'nplurals=1; plural=0;',
  pl: 'nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  ru: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  uk: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  cs: 'nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;',
  ar: 'nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);',
};

/** The `Plural-Forms` a new catalog of `locale` starts with. */
export function pluralFormsFor(locale: string): string {
  return KNOWN_PLURAL_FORMS[locale.split(/[-_]/)[0]?.toLowerCase() ?? ''] ?? 'nplurals=2; plural=(n != 1);';
}

/** Compiles a `Plural-Forms` header into count → form index; errors name `where`. */
export function compilePluralForms(header: string, where: string): { nplurals: number; select: (n: number) => number } {
  const nplurals = /nplurals\s*=\s*(\d+)/.exec(header);
  const plural = /plural\s*=\s*([^;]+);?/.exec(header);
  if (!nplurals || !plural || !/^[\sn0-9()?:<>=!&|%+\-*/]*$/.test(plural[1] ?? '')) {
    throw new Error(`${where}: invalid Plural-Forms header ${JSON.stringify(header)} (expected "nplurals=N; plural=EXPR;")`);
  }
  const count = Number(nplurals[1]);
  let fn: (n: number) => number | boolean;
  try {
    fn = new Function('n', `return (${plural[1]});`) as (n: number) => number | boolean;
  } catch (err) {
    // Only n, digits and operators passed the check above, so this is a malformed expression
    // (`(n==1 ? 0 ;`): say which header, not just JavaScript's "Unexpected token".
    throw new Error(
      `${where}: the plural expression of ${JSON.stringify(header)} does not compile (${(err as Error).message}); expected a C expression of n such as "(n != 1)"`,
      { cause: err },
    );
  }
  return {
    nplurals: count,
    select: (n) => {
      const i = Number(fn(n));
      return i >= 0 && i < count ? i : count - 1;
    },
  };
}

/**
 * Which form index each CLDR category of `locale` takes (sampling counts 0..1000); a category no
 * whole count reaches (Polish "other", for fractions) takes the last form.
 */
export function formForCategory(locale: string, rule: { nplurals: number; select: (n: number) => number }): Map<Intl.LDMLPluralRule, number> {
  const rules = new Intl.PluralRules(locale);
  const categories = rules.resolvedOptions().pluralCategories;
  const out = new Map<Intl.LDMLPluralRule, number>();
  for (let n = 0; n <= 1000 && out.size < categories.length; n++) {
    const c = rules.select(n);
    if (!out.has(c)) out.set(c, rule.select(n));
  }
  for (const c of categories) if (!out.has(c)) out.set(c, rule.nplurals - 1);
  return out;
}
