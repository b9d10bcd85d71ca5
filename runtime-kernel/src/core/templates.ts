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
      for (const [name, fn] of this.#helpers) hb.registerHelper(name, fn);
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
    this.#hb?.registerHelper(name, fn);
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
      fn = this.#compile(source, '<string>', false);
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
    return this.#compile(source, file, !autoescapes(name));
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
