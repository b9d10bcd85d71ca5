import { createRequire } from 'node:module';
import runtime from 'handlebars/runtime.js';
import { sha256 } from '../pipeline/hash.js';

type Handlebars = typeof import('handlebars');

/**
 * The one Handlebars instance of every fw blueprint, with one helper set:
 *
 * - `json`: `JSON.stringify(value)`, for values written into JSON (`"APP_FRONTEND": {{{json frontend}}}`).
 * - `doc`: `{{#doc}}` and `{{/doc}}` on lines of their own around some text give the text as a
 *   `/** ... *\/` comment wrapped at 100 columns (prettier never rewraps comments, and the names a
 *   blueprint puts in vary in length); `{{#doc indent="  "}}` indents it, inside a block.
 *
 * Escaping: `{{x}}` HTML-escapes only in blueprints that produce HTML (`.html`), where it protects
 * the markup; in every other blueprint (TypeScript, JSON, Markdown, Prisma, PO, ...) `{{x}}` is
 * written as is, because HTML entities would corrupt it. `{{{x}}}` is never escaped. Values put
 * into code are validated names (project, Additive, bind, role), so a blueprint writes them inside
 * its own quotes. Runtime templates that must reach the project untouched are escaped in the
 * blueprint: `\{{title}}` renders as `{{title}}`.
 *
 * Every template is compiled in strict mode: a value the data lacks is an error, not an empty
 * string. Templates are precompiled, and run on Handlebars' small runtime: the compiler (and the
 * source-map library it carries) is loaded only for a template the template store does not hold.
 */
const hbs = (runtime as unknown as Handlebars).create();
hbs.registerHelper('json', (value: unknown) => JSON.stringify(value));
hbs.registerHelper('doc', function (this: unknown, options: { fn: (context: unknown) => string; hash: { indent?: unknown } }) {
  // Written on lines of their own, the block tags take their line breaks with them: give one back.
  return `${docComment(options.fn(this), typeof options.hash.indent === 'string' ? options.hash.indent : '')}\n`;
});
let compiler: Handlebars | undefined;

/**
 * Loads the Handlebars compiler (a dynamic import, so a bundle of the create path includes it).
 * `prepareBlueprint` calls it when a template is not in the store; a direct caller of a render that
 * did not prepare gets it required on first use.
 */
export async function loadCompiler(): Promise<void> {
  compiler ??= ((await import('handlebars')) as unknown as { default: Handlebars }).default;
}

/** Whether compiling `source` for `target` needs the compiler (the store does not hold it). */
export function needsCompiler(source: string, target: string): boolean {
  return compiler === undefined && store?.get(keyOf(source, !escapes(target))) === undefined;
}

function keyOf(source: string, noEscape: boolean): string {
  return sha256(hbs.VERSION, String(noEscape), source);
}

/** A compiled blueprint template. */
export type Template = (data: object) => string;

/** Precompiled templates (Handlebars' JavaScript specs) by a key of their source and options. */
export interface TemplateStore {
  get(key: string): string | undefined;
  set(key: string, spec: string): void;
}

let store: TemplateStore | undefined;

/** Where compiled templates are kept between runs (`.fw/cache`, given by the command); `undefined`: nowhere. */
export function useTemplateStore(templates: TemplateStore | undefined): void {
  store = templates;
}

/** Whether a blueprint producing `target` HTML-escapes `{{x}}` (see the module comment). */
export function escapes(target: string): boolean {
  return /\.html?$/i.test(target);
}

/** Compiles a blueprint template whose output is the file `target` (its extension picks the escaping). */
export function compileTemplate(source: string, target: string): Template {
  const noEscape = !escapes(target);
  const key = keyOf(source, noEscape);
  let spec = store?.get(key);
  if (spec === undefined) {
    compiler ??= createRequire(import.meta.url)('handlebars') as Handlebars;
    spec = compiler.precompile(source, { strict: true, noEscape }) as unknown as string;
    store?.set(key, spec);
  }
  // The spec is JavaScript Handlebars generated from fw's own blueprint (or read back from the
  // project's cache, keyed by that blueprint's hash).
  const template = hbs.template(new Function(`return ${spec};`)() as TemplateSpecification);
  return (data) => template(data);
}

/**
 * `text` as a JSDoc comment indented by `indent`, its words wrapped at 100 columns; one line when
 * it fits. A blank line starts a new paragraph; a word longer than a line stays whole.
 */
export function docComment(text: string, indent = ''): string {
  const paragraphs = text.trim().split(/\n\s*\n/).map((p) => p.split(/\s+/).filter(Boolean));
  const single = `${indent}/** ${paragraphs[0]?.join(' ') ?? ''} */`;
  if (paragraphs.length === 1 && single.length <= 100) return single;
  const lines: string[] = [];
  for (const words of paragraphs) {
    if (lines.length > 0) lines.push(`${indent} *`);
    let line = `${indent} *`;
    for (const word of words) {
      if (line.length + 1 + word.length > 100 && line !== `${indent} *`) {
        lines.push(line);
        line = `${indent} *`;
      }
      line += ` ${word}`;
    }
    lines.push(line);
  }
  return `${indent}/**\n${lines.join('\n')}\n${indent} */`;
}
