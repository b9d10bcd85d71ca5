import type { ts as Ts } from 'ts-morph';
import { tsMorph } from '../../codemods/source.js';
import { didYouMean } from '../../ocean/suggest.js';
import type { MakeApi, MakeRoute } from '../api.js';
import type { Builtin } from '../builtin.js';
import { MakeError } from '../errors.js';
import { kebabCase } from '../names.js';
import { moduleCandidates } from '../../codemods/routes.js';
import { pathParams } from './route.js';

/**
 * What a route's middleware is, by where it comes from: `guard` when it is one of the kernel's
 * auth guards (`@fw/kernel/auth`) or is made from them (typed `Guard`, `guard(...)`,
 * `requireRole(...)`, a function returning `Guard`), followed through the project's modules
 * (`fluid/guards.ts`, `fluid/guards/<name>.ts`, any other); `open` when it is other kernel
 * middleware (`limit(...)`); `unknown` when it is the project's own code or a package's, which may
 * or may not refuse a request that is not signed in.
 */
type Kind = 'guard' | 'open' | 'unknown';

/** A module parsed for {@link Resolver}: its imports, declarations and exports by name. */
interface Parsed {
  file: string;
  imports: Map<string, { module: string; name: string }>;
  declarations: Map<string, Ts.Node>;
  /** Exported name → local name. */
  exports: Map<string, string>;
  /** `export { a as b } from './x.js'`: exported name → module and name there; `export *` under `*`. */
  reexports: Array<{ exported: string; module: string; name: string }>;
}

/** Follows a middleware to its definition, across the project's modules (read through the run). */
class Resolver {
  private readonly parsed = new Map<string, Promise<Parsed | undefined>>();
  private depth = 0;

  constructor(
    private readonly ts: typeof Ts,
    private readonly fw: MakeApi,
  ) {}

  /** The module at the first of `candidates` the project has (`fluid/guards.ts`). */
  private async module(candidates: readonly string[]): Promise<Parsed | undefined> {
    for (const file of candidates) {
      if (!this.parsed.has(file)) this.parsed.set(file, this.parse(file));
      const parsed = await this.parsed.get(file);
      if (parsed) return parsed;
    }
    return undefined;
  }

  private async parse(file: string): Promise<Parsed | undefined> {
    const ts = this.ts;
    const text = await this.fw.read(file).catch(() => undefined);
    if (text === undefined) return undefined;
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const out: Parsed = { file, imports: new Map(), declarations: new Map(), exports: new Map(), reexports: [] };
    const exported = (node: Ts.Node): boolean => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    for (const st of sf.statements) {
      if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier) && st.importClause?.namedBindings && ts.isNamedImports(st.importClause.namedBindings)) {
        for (const el of st.importClause.namedBindings.elements) out.imports.set(el.name.text, { module: st.moduleSpecifier.text, name: (el.propertyName ?? el.name).text });
      } else if (ts.isVariableStatement(st)) {
        for (const d of st.declarationList.declarations) {
          if (!ts.isIdentifier(d.name)) continue;
          out.declarations.set(d.name.text, d);
          if (exported(st)) out.exports.set(d.name.text, d.name.text);
        }
      } else if (ts.isFunctionDeclaration(st) && st.name) {
        out.declarations.set(st.name.text, st);
        if (exported(st)) out.exports.set(st.name.text, st.name.text);
      } else if (ts.isExportDeclaration(st) && !st.isTypeOnly) {
        const from = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text : undefined;
        if (st.exportClause && ts.isNamedExports(st.exportClause)) {
          for (const el of st.exportClause.elements) {
            const local = (el.propertyName ?? el.name).text;
            if (from === undefined) out.exports.set(el.name.text, local);
            else out.reexports.push({ exported: el.name.text, module: from, name: local });
          }
        } else if (from !== undefined && !st.exportClause) out.reexports.push({ exported: '*', module: from, name: '*' });
      }
    }
    return out;
  }

  /** What the name `name` of module `from` is, as an import of `module` (a specifier of `from`). */
  private async imported(from: string, module: string, name: string): Promise<Kind> {
    if (module === '@fw/kernel/auth') return 'guard';
    if (module === '@fw/kernel' || module.startsWith('@fw/kernel/')) return 'open';
    const target = await this.module(moduleCandidates(from, module));
    return target ? this.exported(target, name) : 'unknown';
  }

  /** What the export `name` of a module is. */
  private async exported(module: Parsed, name: string): Promise<Kind> {
    const local = module.exports.get(name);
    if (local !== undefined) return this.named(module, local);
    const again = module.reexports.find((r) => r.exported === name);
    if (again) return this.imported(module.file, again.module, again.name);
    for (const star of module.reexports.filter((r) => r.exported === '*')) {
      const target = await this.module(moduleCandidates(module.file, star.module));
      if (target && (target.exports.has(name) || target.reexports.some((r) => r.exported === name))) return this.exported(target, name);
    }
    return 'unknown';
  }

  /** What the name `name` is in `module`: an import, or a declaration there. */
  async named(module: Parsed, name: string): Promise<Kind> {
    if (++this.depth > 200) return 'unknown'; // a cycle of re-exports
    const from = module.imports.get(name);
    if (from) return this.imported(module.file, from.module, from.name);
    const declaration = module.declarations.get(name);
    if (!declaration) return 'unknown';
    const ts = this.ts;
    const typed = (type: Ts.TypeNode | undefined): boolean => type !== undefined && ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && type.typeName.text === 'Guard';
    if (ts.isVariableDeclaration(declaration)) {
      if (typed(declaration.type)) return 'guard';
      return declaration.initializer ? this.expression(module, declaration.initializer) : 'unknown';
    }
    // A function returning a Guard (`roleGuard(role): Guard`) makes guards.
    if (ts.isFunctionDeclaration(declaration)) return typed(declaration.type) ? 'guard' : 'unknown';
    return 'unknown';
  }

  /** What a middleware expression of `module` is: a name, a call making one (`roleGuard('admin')`), else the project's own code. */
  async expression(module: Parsed, node: Ts.Expression): Promise<Kind> {
    const ts = this.ts;
    let expr = node;
    while (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isSatisfiesExpression(expr)) expr = expr.expression;
    if (ts.isIdentifier(expr)) return this.named(module, expr.text);
    if (ts.isCallExpression(expr) && ts.isIdentifier(expr.expression)) return this.named(module, expr.expression.text);
    if ((ts.isArrowFunction(expr) || ts.isFunctionExpression(expr)) && expr.type && ts.isTypeReferenceNode(expr.type) && ts.isIdentifier(expr.type.typeName) && expr.type.typeName.text === 'Guard') return 'guard';
    return 'unknown';
  }

  /** The parsed module `file` (the route's). */
  async at(file: string): Promise<Parsed | undefined> {
    return this.module([file]);
  }
}

/** What {@link answerOf} reads from a route's source. */
interface RouteSource {
  /** What the handler answers: `html` when it renders a template, `json` when it returns an object. */
  answer: 'html' | 'json' | undefined;
  /** The guards before the handler (middleware that is, or is made from, the kernel's auth guards), by name. */
  guards: string[];
  /** Middleware before the handler that fw cannot tell is a guard or not (the project's own code), by name. */
  unknown: string[];
}

/**
 * What a route answers and what its middleware is, read from its source: `html` when the handler
 * renders a template, `json` when it returns an object, `undefined` when the source does not say.
 */
async function answerOf(fw: MakeApi, route: MakeRoute): Promise<RouteSource> {
  const file = route.where.slice(0, route.where.lastIndexOf(':'));
  const text = await fw.read(file);
  if (text === undefined) return { answer: undefined, guards: [], unknown: [] };
  const { ts } = await tsMorph();
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const local = route.name.slice(route.name.lastIndexOf('.') + 1);
  let handler: Ts.Node | undefined;
  let middleware: readonly Ts.Expression[] = [];
  const declarations = new Map<string, Ts.Node>();
  const visit = (node: Ts.Node): void => {
    if (ts.isCallExpression(node) && node.arguments.length >= 3) {
      const [name] = node.arguments;
      if (name && ts.isStringLiteral(name) && (name.text === route.name || name.text === local)) {
        handler = node.arguments[node.arguments.length - 1];
        middleware = node.arguments.slice(2, -1); // (name, path, ...middleware, handler)
      }
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) declarations.set(node.name.text, node.initializer);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const resolver = new Resolver(ts, fw);
  const module = await resolver.at(file);
  const guards: string[] = [];
  const unknown: string[] = [];
  for (const m of middleware) {
    const kind = module ? await resolver.expression(module, m) : 'unknown';
    // Named as written (`editor`; `roleGuard` for `roleGuard('admin')`), other middleware by its place.
    const callee = ts.isCallExpression(m) ? m.expression : m;
    const shown = ts.isIdentifier(callee) ? callee.text : `the middleware at ${file}:${sf.getLineAndCharacterOfPosition(m.getStart(sf)).line + 1}`;
    if (kind === 'guard') guards.push(shown);
    else if (kind === 'unknown') unknown.push(shown);
  }
  if (handler && ts.isIdentifier(handler)) handler = declarations.get(handler.text);
  const code = handler?.getText(sf) ?? '';
  if (/\.render\(/.test(code)) return { answer: 'html', guards, unknown };
  if (/=>\s*\(\s*\{/.test(code) || /return\s*\{/.test(code) || route.path.startsWith('/api/')) return { answer: 'json', guards, unknown };
  return { answer: undefined, guards, unknown };
}

/** `fw make test`: a vitest test of a named route in `test/`, in the style of `test/home.test.ts`. */
export const test: Builtin = {
  name: 'test',
  description: 'a vitest test of a named route in test/<route>.test.ts: boots the app and requests it',
  examples: ['npx fw make test users', 'npx fw make test blog.index'],
  prompts: () => [{ type: 'input', name: 'route', message: 'Route name (as fluid.urlFor takes it)', validate: (v) => (typeof v === 'string' && v !== '' ? true : 'give a route name') }],
  async actions(answers, fw) {
    const name = String(answers.route);
    const routes = await fw.routes();
    const route = routes.find((r) => r.name === name);
    if (!route) throw new MakeError(`fw make test: no route is named "${name}"${didYouMean(name, routes.map((r) => r.name))}; the app's routes: ${routes.map((r) => r.name).join(', ') || 'none'}`);
    if (route.method === 'WS') throw new MakeError(`fw make test: "${name}" is a websocket route (${route.path}); fw make test writes HTTP tests`);
    const method = route.method === 'ALL' ? 'GET' : route.method;
    const params = pathParams(route.path);
    const { answer, guards, unknown } = await answerOf(fw, route);
    return [
      {
        type: 'fw:add',
        path: `test/${kebabCase(name)}.test.ts`,
        blueprint: 'test/route.test.ts.hbs',
        data: {
          name,
          method,
          path: route.path,
          // The test client's method for it (get, post, ...), else client.request(method, url).
          call: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method) ? method.toLowerCase() : false,
          params: params.length === 0 ? false : `{ ${params.map((p) => `${p}: '1'`).join(', ')} }`,
          json: answer === 'json',
          html: answer === 'html',
          answers: answer === 'json' ? 'JSON' : answer === 'html' ? 'a page' : '200',
          // A guarded route refuses the test client, which is not signed in: the test checks that.
          guards: guards.length === 0 ? false : guards.join(', '),
          // Middleware fw cannot tell is a guard (the project's own): the test takes 200 or a refusal.
          unknown: guards.length > 0 || unknown.length === 0 ? false : unknown.join(', '),
        },
      },
    ];
  },
};
