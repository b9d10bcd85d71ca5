/**
 * `Markup`: HTML the framework (or the app) vouches for. Templates print it unescaped.
 *
 * It is a handlebars `SafeString`, so `{{value}}` in an autoescaped template leaves it alone,
 * while every plain string is escaped on output.
 */
import { createRequire } from 'node:module';
import type HandlebarsTypes from 'handlebars';

// Handlebars' runtime only (SafeString, escapeExpression; its own types declare nothing): the
// compiler loads with the first template compiled (templates.ts), not at every app's boot.
const Handlebars = createRequire(import.meta.url)('handlebars/runtime') as typeof HandlebarsTypes;

/** Trusted HTML. Never wrap request-derived data in it. */
export class Markup extends Handlebars.SafeString {
  readonly #html: string;
  constructor(html: string) {
    super(html);
    this.#html = html;
  }
  /** The raw HTML. */
  override toString(): string {
    return this.#html;
  }
  /** The raw HTML (used by `JSON.stringify`). */
  toJSON(): string {
    return this.#html;
  }
  /** Its length in characters. */
  get length(): number {
    return this.#html.length;
  }
}

/** True when `value` is already safe HTML (a `Markup` or any handlebars `SafeString`). */
export function isMarkup(value: unknown): value is HandlebarsTypes.SafeString {
  return value instanceof Handlebars.SafeString;
}

/**
 * Escapes `value` for HTML and returns it as `Markup`. A value that is already `Markup` is returned
 * unchanged, so escaping twice never double-escapes. `null`/`undefined` become empty markup.
 */
export function escape(value: unknown): Markup {
  if (value instanceof Markup) return value;
  if (isMarkup(value)) return new Markup(value.toString());
  if (value === null || value === undefined) return new Markup('');
  return new Markup(Handlebars.escapeExpression(String(value)));
}

/**
 * Joins pieces with a plain string separator. As in the reference, the result is a plain
 * string, even when every piece is `Markup`: it is escaped when a template prints it.
 * To build trusted HTML from pieces, use `joinHtml` instead.
 */
export function joinMarkup(pieces: Iterable<Markup | string>, separator: string): string {
  return Array.from(pieces, (p) => p.toString()).join(separator);
}

/**
 * Joins pieces into `Markup`: `Markup` pieces are kept as they are and plain strings (pieces and
 * separator alike) are escaped first.
 */
export function joinHtml(pieces: Iterable<Markup | string>, separator: Markup | string = ''): Markup {
  const sep = escape(separator).toString();
  return new Markup(Array.from(pieces, (p) => escape(p).toString()).join(sep));
}
