/**
 * The template helpers of the four gettext forms, named as the reference's Jinja callables:
 *
 * | Helper | Alias | Call |
 * |---|---|---|
 * | `_` | `gettext` | `{{_ "Hello, %(name)s!" name=user}}` |
 * | `_n` | `ngettext` | `{{_n "%(num)d file" "%(num)d files" count}}` (`n` and `num` are the count) |
 * | `_p` | `pgettext` | `{{_p "menu" "Open"}}` |
 * | `_np` | `npgettext` | `{{_np "inbox" "%(num)d message" "%(num)d messages" count}}` |
 *
 * Hash arguments are the variables. They translate to the request's locale (the default
 * off-request). `{{current_locale}}` answers that locale (a BCP 47 tag: config spells
 * `pt_BR` as `pt-BR`), for `<html lang="{{current_locale}}">`. With `EXT_I18N` off they answer the source strings, interpolated the same way, so a
 * plural placeholder `%(num)d` and `%(n)d` both work (the reference raised `KeyError: 'num'`).
 */
import type { HelperOptions } from 'handlebars';
import { FrameworkException } from '../core/errors.js';
import type { TemplateEngine } from '../core/templates.js';
import type { MergedTranslations } from './merged.js';
import type { TranslationVars } from './interpolate.js';

/** Registers `_`, `_n`, `_p`, `_np`, their gettext-named aliases and `current_locale` on an engine. */
export function registerTranslationHelpers(engine: TemplateEngine, translations: () => MergedTranslations): void {
  const gettext = (...args: unknown[]): string => {
    const [msgid, vars] = split('_', args, ['string']);
    return translations().gettext(msgid[0] as string, vars);
  };
  const ngettext = (...args: unknown[]): string => {
    const [a, vars] = split('_n', args, ['string', 'string', 'number']);
    return translations().ngettext(a[0] as string, a[1] as string, a[2] as number, vars);
  };
  const pgettext = (...args: unknown[]): string => {
    const [a, vars] = split('_p', args, ['string', 'string']);
    return translations().pgettext(a[0] as string, a[1] as string, vars);
  };
  const npgettext = (...args: unknown[]): string => {
    const [a, vars] = split('_np', args, ['string', 'string', 'string', 'number']);
    return translations().npgettext(a[0] as string, a[1] as string, a[2] as string, a[3] as number, vars);
  };
  // A helper, not a render variable: every template (layouts and partials included) has it, and
  // a `locale` the app passes in its data stays the app's own.
  engine.registerHelper('current_locale', () => translations().locale);
  for (const [names, fn] of [
    [['_', 'gettext'], gettext],
    [['_n', 'ngettext'], ngettext],
    [['_p', 'pgettext'], pgettext],
    [['_np', 'npgettext'], npgettext],
  ] as const) {
    for (const name of names) engine.registerHelper(name, fn);
  }
}

const USAGE: Readonly<Record<string, string>> = {
  _: '{{_ "text" name=value}}',
  _n: '{{_n "singular" "plural" count}}',
  _p: '{{_p "context" "text"}}',
  _np: '{{_np "context" "singular" "plural" count}}',
};

/** Checks the positional arguments (numbers may come as numeric strings) and returns them with the hash. */
function split(helper: string, args: unknown[], kinds: readonly ('string' | 'number')[]): [unknown[], TranslationVars] {
  const options = args[args.length - 1] as HelperOptions | undefined;
  const positional = args.slice(0, -1);
  if (positional.length !== kinds.length) {
    throw new FrameworkException(`{{${helper}}} takes ${kinds.length} argument(s), got ${positional.length}: ${USAGE[helper]}`);
  }
  const values = positional.map((v, i) => {
    if (kinds[i] === 'number') {
      const n = typeof v === 'number' ? v : Number(v);
      if (!Number.isFinite(n)) throw new FrameworkException(`{{${helper}}} argument ${i + 1} must be a count, got ${JSON.stringify(v)}: ${USAGE[helper]}`);
      return n;
    }
    if (typeof v !== 'string') throw new FrameworkException(`{{${helper}}} argument ${i + 1} must be a string, got ${JSON.stringify(v)}: ${USAGE[helper]}`);
    return v;
  });
  return [values, (options?.hash ?? {}) as TranslationVars];
}
