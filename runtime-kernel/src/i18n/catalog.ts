/// <reference path="./gettext-parser.d.ts" />
/**
 * `Catalog`: one domain's translations for one locale, read from a PO file with gettext-parser.
 * Messages are keyed by `msgid`, or `msgctxt + "\u0004" + msgid` (gettext's own context key).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { po as PoApi } from 'gettext-parser';
import { FrameworkException } from '../core/errors.js';
import { localePluralRule, parsePluralForms, type PluralRule } from './plural.js';

/** The separator gettext puts between a message context and its id. */
export const CONTEXT_SEPARATOR = '\u0004';

/** The lookup key of a message: its id, prefixed by its context when it has one. */
export function messageKey(context: string | null | undefined, msgid: string): string {
  return context ? context + CONTEXT_SEPARATOR + msgid : msgid;
}

/** Translations by message key: one string, or the plural forms in catalog order. */
export type CatalogMessages = ReadonlyMap<string, readonly string[]>;

/** One domain's translations for one locale. */
export class Catalog {
  /** The locale the catalog translates to. */
  readonly locale: string;
  /** The plural rule (the `Plural-Forms` header, else the locale's CLDR rules). */
  readonly plural: PluralRule;
  /** The messages: only those with a non-empty translation. */
  readonly messages: CatalogMessages;

  /** A catalog of `messages` (already parsed: `parsePo`, `loadPoFile`) for `locale`; `plural` defaults to the locale's CLDR rules. */
  constructor(locale: string, messages: CatalogMessages, plural: PluralRule = localePluralRule(locale)) {
    this.locale = locale;
    this.messages = messages;
    this.plural = plural;
  }

  /** The translation of a singular message, or `null` when the catalog lacks it. */
  find(key: string): string | null {
    return this.messages.get(key)?.[0] ?? null;
  }

  /** Every translated message. */
  entries(): Iterable<readonly [string, readonly string[]]> {
    return this.messages.entries();
  }

  /** The plural form for count `n`, or `null` when the catalog lacks the message. */
  findPlural(key: string, n: number): string | null {
    const forms = this.messages.get(key);
    if (!forms) return null;
    return forms[this.plural.select(n)] ?? forms[forms.length - 1] ?? null;
  }
}

/** Parses PO text into a `Catalog`; errors name `file`. Untranslated entries are left out. */
export function parsePo(text: string | Buffer, locale: string, file = '<po>'): Catalog {
  let parsed: ReturnType<typeof PoApi.parse>;
  try {
    parsed = poParser().parse(text);
  } catch (err) {
    throw new FrameworkException(`${file}: not a valid PO catalog: ${(err as Error).message}`, { cause: err });
  }
  const header = Object.entries(parsed.headers ?? {}).find(([k]) => k.toLowerCase() === 'plural-forms')?.[1];
  const plural = header ? parsePluralForms(header, `${file}: Plural-Forms`) : localePluralRule(locale);
  const messages = new Map<string, string[]>();
  for (const [context, entries] of Object.entries(parsed.translations ?? {})) {
    for (const [msgid, entry] of Object.entries(entries)) {
      if (!msgid) continue; // the header entry
      const forms = entry.msgstr ?? [];
      if (forms.length === 0 || forms.some((f) => f === '')) continue; // untranslated (or partly): a miss
      if (entry.comments?.flag?.split(/[,\s]+/).includes('fuzzy')) continue;
      messages.set(messageKey(context, msgid), forms);
    }
  }
  return new Catalog(locale, messages, plural);
}

/** Reads `file` as a catalog; `undefined` when the file does not exist. */
export function loadPoFile(file: string, locale: string): Catalog | undefined {
  if (!existsSync(file)) return undefined;
  return parsePo(readFileSync(file), locale, file);
}

let parser: typeof PoApi | undefined;

/**
 * gettext-parser, loaded on the first catalog parsed (about 70 ms of imports an app without
 * catalogs never pays). Synchronous, so catalogs load in `translations()`; Node >= 20.19 requires
 * the ES module directly.
 */
function poParser(): typeof PoApi {
  parser ??= (createRequire(import.meta.url)('gettext-parser') as { po: typeof PoApi }).po;
  return parser;
}
