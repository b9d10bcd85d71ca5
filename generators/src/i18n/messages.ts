/// <reference path="./gettext-parser.d.ts" />
/**
 * The messages of a PO catalog as the typed-module generator sees them: context, id, plural id,
 * translated forms, and the typed key (`#. key: name`, else derived from the id).
 */
import gettextParser from 'gettext-parser';

/** One message of a catalog. */
export interface PoMessage {
  readonly context: string;
  readonly msgid: string;
  readonly plural: string | undefined;
  /** The translated forms (empty strings for untranslated). */
  readonly forms: readonly string[];
  /** The key named by a `#. key: <name>` comment, if any. */
  readonly key: string | undefined;
}

/** A parsed catalog: its `Plural-Forms` header and messages in file order. */
export interface PoFile {
  readonly pluralForms: string | undefined;
  readonly messages: readonly PoMessage[];
}

/** Parses PO (or POT) text; errors name `file`. */
export function readPo(text: string, file: string): PoFile {
  let parsed: ReturnType<typeof gettextParser.po.parse>;
  try {
    parsed = gettextParser.po.parse(text);
  } catch (err) {
    throw new Error(`${file}: not a valid PO catalog: ${(err as Error).message}`, { cause: err });
  }
  const messages: PoMessage[] = [];
  for (const [context, entries] of Object.entries(parsed.translations ?? {})) {
    for (const [msgid, entry] of Object.entries(entries)) {
      if (!msgid) continue;
      const key = /(?:^|\n)key:\s*([A-Za-z_$][\w$]*)\s*(?:\n|$)/.exec(entry.comments?.extracted ?? '')?.[1];
      messages.push({ context, msgid, plural: entry.msgid_plural, forms: entry.msgstr ?? [], key });
    }
  }
  const header = Object.entries(parsed.headers ?? {}).find(([k]) => k.toLowerCase() === 'plural-forms')?.[1];
  return { pluralForms: header, messages };
}

/** A camelCase identifier from free text (`"Hello, %(name)s!"` → `helloName`). */
export function identifier(text: string, fallback = 'message'): string {
  const words = text
    .replace(/%\((\w+)\)[sdif]|\{(\w+)\}/g, ' $1$2 ')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .slice(0, 6);
  if (words.length === 0) return fallback;
  const id = words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase())).join('');
  return /^[0-9]/.test(id) ? `_${id}` : id;
}
