import Handlebars from 'handlebars';

/**
 * The one Handlebars instance of every fw blueprint, with one helper set:
 *
 * - `json`: `JSON.stringify(value)`, for values written into JSON (`"APP_FRONTEND": {{json frontend}}`).
 *
 * Escaping: `{{x}}` HTML-escapes only in blueprints that produce HTML (`.html`), where it protects
 * the markup; in every other blueprint (TypeScript, JSON, Markdown, Prisma, PO, ...) `{{x}}` is
 * written as is, because HTML entities would corrupt it. `{{{x}}}` is never escaped. Values put
 * into code are validated names (project, Additive, bind, role), so no blueprint needs to quote
 * them itself. Runtime templates that must reach the project untouched are escaped in the
 * blueprint: `\{{title}}` renders as `{{title}}`.
 *
 * Every template is compiled in strict mode: a value the data lacks is an error, not an empty
 * string.
 */
const hbs = Handlebars.create();
hbs.registerHelper('json', (value: unknown) => JSON.stringify(value));

/** A compiled blueprint template. */
export type Template = (data: object) => string;

/** Whether a blueprint producing `target` HTML-escapes `{{x}}` (see the module comment). */
export function escapes(target: string): boolean {
  return /\.html?$/i.test(target);
}

/** Compiles a blueprint template whose output is the file `target` (its extension picks the escaping). */
export function compileTemplate(source: string, target: string): Template {
  return hbs.compile(source, { strict: true, noEscape: !escapes(target) });
}
