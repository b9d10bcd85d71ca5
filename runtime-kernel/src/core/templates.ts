/**
 * The template engine: handlebars, one isolated environment per Fluid, every template compiled
 * once and cached.
 *
 * Escaping follows the template's suffix: `.html .htm .xml .xhtml .svg` and string sources are
 * autoescaped; `.txt .md .json` (and any other suffix) are not.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, isAbsolute, join, normalize, sep } from 'node:path';
import { createRequire } from 'node:module';
import type Handlebars from 'handlebars';
import { FrameworkException } from './errors.js';
import { ConflictMarkerError, findConflictMarker } from './errors/conflict-markers.js';
import { Markup } from './markup.js';

/** Suffixes whose output is HTML-escaped. */
export const AUTOESCAPE_SUFFIXES: ReadonlySet<string> = new Set(['.html', '.htm', '.xml', '.xhtml', '.svg']);

/** A helper function as handlebars calls it. */
export type TemplateHelper = Handlebars.HelperDelegate;

/** Data passed to a template. */
export type TemplateData = Record<string, unknown>;

interface Compiled {
  file: string;
  fn: Handlebars.TemplateDelegate;
}

/**
 * A helper failed while a template rendered (`{{url_for "nope"}}`, `{{_n "a"}}`, a missing
 * helper, an error thrown by an app's own helper): the message leads with the template file and
 * the helper call's line and column (`<file>:3:9: {{url_for}}: ...`), and `cause` is the helper's
 * own error. `file`, `line` and `column` let the debug page show the template around that line.
 */
export class TemplateRenderError extends FrameworkException {
  /** Always `'TemplateRenderError'`. */
  override name = 'TemplateRenderError';
  /** The template file (absolute path), or `<string>` for `renderString`. */
  readonly file: string;
  /** The 1-based line of the helper call. */
  readonly line: number;
  /** The 1-based column of the helper call. */
  readonly column: number;
  constructor(file: string, line: number, column: number, helper: string, cause: unknown) {
    const message = cause instanceof Error ? cause.message : String(cause);
    super(`${file}:${line}:${column}: {{${helper}}}: ${message}`, { cause });
    this.file = file;
    this.line = line;
    this.column = column;
  }
}

/** True when a template with this name is rendered with autoescape. */
export function autoescapes(name: string): boolean {
  return AUTOESCAPE_SUFFIXES.has(extname(name).toLowerCase());
}

/**
 * Finds templates across an ordered list of folders (the first folder holding a name wins)
 * and renders them.
 */
// The handlebars compiler (and source-map under it) loads with the first template compiled, not
// at every app's boot; `Markup` needs only its runtime.
const require = createRequire(import.meta.url);
const loadHandlebars = (): typeof Handlebars => require('handlebars') as typeof Handlebars;

/** The handlebars templates of one app: looked up in its folders (highest priority first), compiled once and cached, escaped by suffix (see the module comment). `fluid.templates`; `ctx.render` and `fluid.render` use it. */
export class TemplateEngine {
  #hb: typeof Handlebars | undefined;
  readonly #helpers = new Map<string, TemplateHelper>();
  readonly #dirs: string[] = [];
  readonly #cache = new Map<string, Compiled>();
  readonly #strings = new Map<string, Handlebars.TemplateDelegate>();
  readonly #partials = new Set<string>();

  /** Template files compiled so far and their modification times (watched in reload mode). */
  readonly #files = new Map<string, number>();
  /** Re-read changed template files before rendering (development). */
  reload = false;
  #generation = 0;
  /** The template files rendering now, innermost last: where a failing helper call is. */
  readonly #running: string[] = [];

  /**
   * Grows whenever the same render may produce other output: a folder added, the templates
   * cleared, a helper (re)registered. Caches of rendered output compare it.
   */
  get generation(): number {
    return this.#generation;
  }

  /** @param dirs search folders, highest priority first. */
  constructor(dirs: string[] = [], helpers: Record<string, TemplateHelper> = {}) {
    for (const d of dirs) this.#dirs.push(d);
    for (const [name, fn] of Object.entries(helpers)) this.#helpers.set(name, fn);
  }

  /** The handlebars instance, made with the registered helpers on first use. */
  #instance(): typeof Handlebars {
    if (!this.#hb) {
      const hb = loadHandlebars().create();
      // handlebars' own helpers (`if`, `each`, `helperMissing`, ...) report where they failed too.
      for (const [name, fn] of Object.entries(hb.helpers)) hb.registerHelper(name, this.#locate(name, fn));
      for (const [name, fn] of this.#helpers) hb.registerHelper(name, this.#locate(name, fn));
      this.#hb = hb;
    }
    return this.#hb;
  }

  /** Search folders, highest priority first. */
  get directories(): readonly string[] {
    return this.#dirs;
  }

  /** Adds a search folder at `index` (default: last). Clears the lookup cache. */
  addDirectory(dir: string, index = this.#dirs.length): void {
    if (this.#dirs.includes(dir)) return;
    this.#dirs.splice(index, 0, dir);
    this.clear();
  }

  /** Registers (or replaces) a helper available to every template. */
  registerHelper(name: string, fn: TemplateHelper): void {
    this.#helpers.set(name, fn);
    this.#hb?.registerHelper(name, this.#locate(name, fn));
    this.#generation++;
  }

  /** The file a template name resolves to, or `undefined`. */
  resolve(name: string): string | undefined {
    const rel = checkName(name);
    for (const dir of this.#dirs) {
      const file = join(dir, rel);
      if (existsSync(file)) return file;
    }
    return undefined;
  }

  /** Renders the named template file with `data` and returns the result as `Markup`. */
  render(name: string, data: TemplateData = {}): Markup {
    if (this.reload && this.#changed()) this.clear();
    let compiled = this.#cache.get(name);
    if (!compiled) {
      const file = this.resolve(name);
      if (!file) {
        throw new FrameworkException(
          `Template '${name}' not found; searched: ${this.#dirs.join(', ') || '(no template folders)'}`,
        );
      }
      compiled = { file, fn: this.#compileFile(name, file) };
      this.#cache.set(name, compiled);
    }
    return new Markup(run(compiled.fn, data, compiled.file));
  }

  /** Renders a template given as a string. String sources are always autoescaped. */
  renderString(source: string, data: TemplateData = {}): Markup {
    let fn = this.#strings.get(source);
    if (!fn) {
      fn = this.#tracked('<string>', this.#compile(source, '<string>', false));
      if (this.#strings.size > 500) this.#strings.clear();
      this.#strings.set(source, fn);
    }
    return new Markup(run(fn, data, '<string>'));
  }

  /** Forgets every compiled template and partial (they are compiled again on next use). */
  clear(): void {
    this.#generation++;
    this.#cache.clear();
    this.#strings.clear();
    for (const p of this.#partials) this.#hb?.unregisterPartial(p);
    this.#partials.clear();
    this.#files.clear();
  }

  /** `fn` as a helper whose errors name the template file and the line of the call. */
  #locate(name: string, fn: TemplateHelper): TemplateHelper {
    const running = this.#running;
    return function (this: unknown, ...args: unknown[]): unknown {
      try {
        return (fn as (...a: unknown[]) => unknown).apply(this, args);
      } catch (err) {
        if (err instanceof TemplateRenderError || err instanceof ConflictMarkerError) throw err;
        const options = args.at(-1) as { name?: unknown; loc?: { start?: { line?: number; column?: number } } } | undefined;
        const start = options?.loc?.start;
        const called = typeof options?.name === 'string' && name === 'helperMissing' ? options.name : name;
        throw new TemplateRenderError(running.at(-1) ?? '<string>', start?.line ?? 1, (start?.column ?? 0) + 1, called, err);
      }
    };
  }

  /**
   * `fn` (a template or partial of `file`) keeping `#running` current while it runs. The block a
   * template hands to a layout (`{{#> layout}}...{{/layout}}`) runs inside the layout but belongs to
   * the caller, so `@partial-block` runs with the caller's file on top.
   */
  #tracked(file: string, fn: Handlebars.TemplateDelegate): Handlebars.TemplateDelegate {
    const running = this.#running;
    return (context: unknown, options?: Handlebars.RuntimeOptions) => {
      const data = options?.data as Record<string, unknown> | undefined;
      const block = data?.['partial-block'];
      const caller = running.at(-1);
      if (data && typeof block === 'function' && caller !== undefined) {
        data['partial-block'] = function (this: unknown, ...args: unknown[]): unknown {
          running.push(caller);
          try {
            return (block as (...a: unknown[]) => unknown).apply(this, args);
          } finally {
            running.pop();
          }
        };
      }
      running.push(file);
      try {
        return fn(context, options);
      } finally {
        running.pop();
      }
    };
  }

  #changed(): boolean {
    for (const [file, mtime] of this.#files) {
      let now: number;
      try {
        now = statSync(file).mtimeMs;
      } catch {
        return true;
      }
      if (now !== mtime) return true;
    }
    return false;
  }

  #compileFile(name: string, file: string): Handlebars.TemplateDelegate {
    if (this.reload) this.#files.set(file, statSync(file).mtimeMs);
    const source = readFileSync(file, 'utf8');
    const marker = findConflictMarker(source); // never render a merge conflict to a browser
    if (marker) throw new ConflictMarkerError(file, marker);
    return this.#tracked(file, this.#compile(source, file, !autoescapes(name)));
  }

  #compile(source: string, srcName: string, noEscape: boolean): Handlebars.TemplateDelegate {
    let ast: hbs.AST.Program;
    try {
      // Parse now, so a syntax error surfaces here with the file name, not mid-request.
      ast = this.#instance().parse(source, { srcName });
    } catch (err) {
      throw new FrameworkException(`Template ${srcName} failed to compile: ${(err as Error).message}`, {
        cause: err,
      });
    }
    for (const partial of partialNames(ast)) this.#loadPartial(partial, srcName);
    return this.#instance().compile(ast, { noEscape });
  }

  /**
   * Registers the partial `{{> name}}` from the template folders (`name`, else `name.html`), so
   * layouts and includes follow the same lookup (and overrides) as templates.
   */
  #loadPartial(name: string, usedBy: string): void {
    if (this.#partials.has(name) || Object.hasOwn(this.#instance().partials, name)) return;
    const candidates = extname(name) ? [name] : [name, `${name}.html`];
    const found = candidates.map((c) => ({ c, file: this.resolve(c) })).find((x) => x.file !== undefined);
    if (!found?.file) {
      throw new FrameworkException(
        `Template ${usedBy} uses the partial '${name}', which was not found (tried ${candidates.join(', ')} in ${this.#dirs.join(', ')})`,
      );
    }
    this.#partials.add(name); // before compiling it, so a partial that includes itself terminates
    this.#instance().registerPartial(name, this.#compileFile(found.c, found.file));
  }
}

function run(fn: Handlebars.TemplateDelegate, data: TemplateData, file: string): string {
  try {
    return fn(data);
  } catch (err) {
    if (err instanceof FrameworkException) throw err;
    throw new FrameworkException(`Template ${file} failed to render: ${(err as Error).message}`, { cause: err });
  }
}

function checkName(name: string): string {
  const rel = normalize(name);
  if (!name || isAbsolute(name) || rel === '..' || rel.startsWith('..' + sep) || name.includes('\0')) {
    throw new FrameworkException(`Invalid template name '${name}': use a relative path inside a templates folder`);
  }
  return rel;
}

/** The static names of every `{{> partial}}` and `{{#> partial}}` in a parsed template. */
function partialNames(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const child of node) partialNames(child, out);
  } else if (node !== null && typeof node === 'object') {
    const n = node as { type?: unknown; name?: { type?: unknown; original?: unknown; value?: unknown } };
    if (n.type === 'PartialStatement' || n.type === 'PartialBlockStatement') {
      const name = n.name?.type === 'StringLiteral' ? n.name.value : n.name?.type === 'PathExpression' ? n.name.original : undefined;
      if (typeof name === 'string' && !name.startsWith('@')) out.add(name);
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'loc') partialNames(value, out);
  }
  return out;
}
