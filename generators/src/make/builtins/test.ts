import type { ts as Ts } from 'ts-morph';
import { tsMorph } from '../../codemods/source.js';
import { didYouMean } from '../../ocean/suggest.js';
import type { MakeApi, MakeRoute } from '../api.js';
import type { Builtin } from '../builtin.js';
import { MakeError } from '../errors.js';
import { kebabCase } from '../names.js';
import { moduleCandidates, relativeImports, routerUses } from '../../codemods/routes.js';
import { pathParams } from './route.js';

/**
 * What a route's middleware is, by where it comes from: `guard` when it is one of the kernel's
 * auth guards (`@fw/kernel/auth`) or is made from them (typed `Guard`, `guard(...)`,
 * `requireRole(...)`, a function returning `Guard`, a middleware that only passes the request to
 * one: `(ctx, next) => requireUser(ctx, next)`), followed through the project's modules
 * (`fluid/guards.ts`, `fluid/guards/<name>.ts`, any other; by name or through a namespace import,
 * `guards.requireUser`); `maybe` when it is a middleware of the project's own that calls a guard
 * on some path of its own (`if (...) return requireUser(ctx, next)`), which fw cannot follow;
 * `open` when it is other kernel middleware (`limit(...)`); `unknown` when it is the project's own
 * code or a package's, which may or may not refuse a request that is not signed in.
 */
type Kind = 'guard' | 'maybe' | 'open' | 'unknown';

/**
 * The exports of `@fw/kernel/auth` that are guards or make them (`requireRole('staff')`); its
 * other exports (`currentUser`, `session`, `csrfMiddleware`, ...) refuse no one for not being
 * signed in.
 */
export const KERNEL_GUARDS: ReadonlySet<string> = new Set([
  'guard',
  'requireUser',
  'EmailVerifiedGate',
  'require2fa',
  'requireAdmin',
  'requireRole',
  'requirePermission',
  'requirementOrGrant',
  'requirementAndGrant',
]);

/** A {@link Kind}, and for a middleware that calls a guard, the guard's name as written there. */
interface Verdict {
  kind: Kind;
  calls?: string;
}

/** A module parsed for {@link Resolver}: its imports, declarations and exports by name. */
interface Parsed {
  file: string;
  imports: Map<string, { module: string; name: string }>;
  /** `import * as guards from './guards.js'`: local name → module specifier. */
  namespaces: Map<string, string>;
  declarations: Map<string, Ts.Node>;
  /** Exported name → local name. */
  exports: Map<string, string>;
  /** `export { a as b } from './x.js'`: exported name → module and name there; `export *` under `*`. */
  reexports: Array<{ exported: string; module: string; name: string }>;
}

/** Follows a middleware to its definition, across the project's modules (read through the run). */
class Resolver {
  private readonly parsed = new Map<string, Promise<Parsed | undefined>>();
  /** The names being resolved (`file#name`): a cycle of re-exports or of functions calling each other is `unknown`. */
  private readonly open = new Set<string>();
  /** What each name (`file#name`) came to, once resolved. */
  private readonly verdicts = new Map<string, Promise<Verdict>>();

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
    const out: Parsed = {
      file,
      imports: new Map(),
      namespaces: new Map(),
      declarations: new Map(),
      exports: new Map(),
      reexports: [],
    };
    const exported = (node: Ts.Node): boolean => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    for (const st of sf.statements) {
      if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier) && st.importClause?.namedBindings) {
        const bindings = st.importClause.namedBindings;
        if (ts.isNamedImports(bindings))
          for (const el of bindings.elements)
            out.imports.set(el.name.text, {
              module: st.moduleSpecifier.text,
              name: (el.propertyName ?? el.name).text,
            });
        else out.namespaces.set(bindings.name.text, st.moduleSpecifier.text);
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
            else
              out.reexports.push({
                exported: el.name.text,
                module: from,
                name: local,
              });
          }
        } else if (from !== undefined && !st.exportClause) out.reexports.push({ exported: '*', module: from, name: '*' });
      }
    }
    return out;
  }

  /** What the name `name` of module `from` is, as an import of `module` (a specifier of `from`). */
  private async imported(from: string, module: string, name: string): Promise<Verdict> {
    if (module === '@fw/kernel/auth') return { kind: KERNEL_GUARDS.has(name) ? 'guard' : 'open' };
    if (module === '@fw/kernel' || module.startsWith('@fw/kernel/')) return { kind: 'open' };
    const target = await this.module(moduleCandidates(from, module));
    return target ? this.exported(target, name) : { kind: 'unknown' };
  }

  /** What the export `name` of a module is. */
  private async exported(module: Parsed, name: string): Promise<Verdict> {
    const local = module.exports.get(name);
    if (local !== undefined) return this.named(module, local);
    const again = module.reexports.find((r) => r.exported === name);
    if (again) return this.imported(module.file, again.module, again.name);
    for (const star of module.reexports.filter((r) => r.exported === '*')) {
      const target = await this.module(moduleCandidates(module.file, star.module));
      if (target && (target.exports.has(name) || target.reexports.some((r) => r.exported === name))) return this.exported(target, name);
    }
    return { kind: 'unknown' };
  }

  /** What the name `name` is in `module`: an import, or a declaration there. */
  async named(module: Parsed, name: string): Promise<Verdict> {
    const key = `${module.file}#${name}`;
    if (this.open.has(key)) return { kind: 'unknown' };
    const known = this.verdicts.get(key);
    if (known) return known;
    this.open.add(key);
    const verdict = this.resolveNamed(module, name);
    this.verdicts.set(key, verdict);
    try {
      return await verdict;
    } finally {
      this.open.delete(key);
    }
  }

  private async resolveNamed(module: Parsed, name: string): Promise<Verdict> {
    const from = module.imports.get(name);
    if (from) return await this.imported(module.file, from.module, from.name);
    const declaration = module.declarations.get(name);
    if (!declaration) return { kind: 'unknown' };
    const ts = this.ts;
    if (ts.isVariableDeclaration(declaration)) {
      if (this.typedGuard(declaration.type)) return { kind: 'guard' };
      return declaration.initializer ? await this.expression(module, declaration.initializer) : { kind: 'unknown' };
    }
    // A function returning a Guard (`roleGuard(role): Guard`) makes guards; another may be a middleware calling one.
    if (ts.isFunctionDeclaration(declaration)) return this.typedGuard(declaration.type) ? { kind: 'guard' } : await this.body(module, declaration);
    return { kind: 'unknown' };
  }

  private typedGuard(type: Ts.TypeNode | undefined): boolean {
    const ts = this.ts;
    return type !== undefined && ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && type.typeName.text === 'Guard';
  }

  /**
   * What a middleware expression of `module` is: a name (`requireUser`, `guards.requireUser` of a
   * namespace import), a call making one (`roleGuard('admin')`, `guards.roleGuard('admin')`), a
   * function (typed `Guard`, or one calling a guard: {@link body}), else the project's own code.
   */
  async expression(module: Parsed, node: Ts.Expression): Promise<Verdict> {
    const ts = this.ts;
    let expr = node;
    while (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isSatisfiesExpression(expr) || ts.isNonNullExpression(expr)) expr = expr.expression;
    if (ts.isIdentifier(expr)) return this.named(module, expr.text);
    if (ts.isPropertyAccessExpression(expr) && ts.isIdentifier(expr.expression)) {
      const namespace = module.namespaces.get(expr.expression.text);
      return namespace === undefined ? { kind: 'unknown' } : this.imported(module.file, namespace, expr.name.text);
    }
    if (ts.isCallExpression(expr)) {
      const callee = expr.expression;
      if (ts.isIdentifier(callee) || ts.isPropertyAccessExpression(callee)) return this.expression(module, callee);
      return { kind: 'unknown' };
    }
    if (ts.isArrowFunction(expr) || ts.isFunctionExpression(expr)) return this.typedGuard(expr.type) ? { kind: 'guard' } : this.body(module, expr);
    return { kind: 'unknown' };
  }

  /**
   * A middleware of the project's own, by what its body calls: `guard` when all it does is pass
   * the request to a guard (`(ctx, next) => requireUser(ctx, next)`, `{ await
   * requireRole('staff')(ctx, next); }`), `maybe` when it calls a guard on a path of its own,
   * `unknown` when it calls none.
   */
  private async body(module: Parsed, fn: Ts.FunctionLikeDeclaration): Promise<Verdict> {
    const ts = this.ts;
    if (!fn.body) return { kind: 'unknown' };
    const found: Array<{ call: Ts.CallExpression; name: string }> = [];
    const pending: Array<Promise<void>> = [];
    const visit = (node: Ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const call = node;
        pending.push(
          this.expression(module, call.expression).then((verdict) => {
            if (verdict.kind !== 'guard') return;
            const callee = ts.isCallExpression(call.expression) ? call.expression.expression : call.expression;
            found.push({ call, name: callee.getText() });
          }),
        );
      }
      ts.forEachChild(node, visit);
    };
    visit(fn.body);
    await Promise.all(pending);
    const first = found.sort((a, b) => a.call.pos - b.call.pos)[0];
    if (!first) return { kind: 'unknown' };
    // The one statement of the body is the guard's call, so every request goes through it.
    const strip = (e: Ts.Expression): Ts.Expression => (ts.isAwaitExpression(e) || ts.isParenthesizedExpression(e) ? strip(e.expression) : e);
    let only: Ts.Expression | undefined;
    if (!ts.isBlock(fn.body)) only = fn.body;
    else if (fn.body.statements.length === 1) {
      const [st] = fn.body.statements;
      if (st && ts.isReturnStatement(st) && st.expression) only = st.expression;
      else if (st && ts.isExpressionStatement(st)) only = st.expression;
    }
    const through = only !== undefined && strip(only) === first.call && first.call.arguments.length === 2;
    return { kind: through ? 'guard' : 'maybe', calls: first.name };
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
  /**
   * Guards that may or may not run before the handler, each with why fw cannot tell (a middleware
   * calling one on a path of its own; `api.use(guard)` in another module, whose order against the
   * route's registration is the run's).
   */
  maybe: Array<{ name: string; why: string }>;
  /** Middleware before the handler that fw cannot tell is a guard or not (the project's own code), by name. */
  unknown: string[];
}

/** `fluid/app.ts` and the project modules it reaches by relative imports (Additives left out): where `use` calls may be. */
async function appModules(fw: MakeApi): Promise<Array<{ path: string; text: string }>> {
  const out: Array<{ path: string; text: string }> = [];
  const seen = new Set<string>();
  const queue: string[][] = [['fluid/app.ts']];
  while (queue.length > 0) {
    for (const file of queue.shift()!) {
      if (seen.has(file)) break;
      const text = await fw.read(file).catch(() => undefined);
      if (text === undefined) continue;
      seen.add(file);
      out.push({ path: file, text });
      queue.push(...(await relativeImports({ path: file, text })).filter((candidates) => !candidates.some((c) => c.startsWith('additives/'))));
      break;
    }
  }
  return out;
}

/**
 * What a route answers and what its middleware is, read from its source: `html` when the handler
 * renders a template, `json` when it returns an object, `undefined` when the source does not say.
 * The middleware is the route's own, and what `use` adds before it: `fluid.use(mw)` for every
 * request, `fluid.api.use(mw)` (or on a router held in a variable) for the routes of that router
 * registered after it.
 */
async function answerOf(fw: MakeApi, route: MakeRoute): Promise<RouteSource> {
  const none: RouteSource = {
    answer: undefined,
    guards: [],
    maybe: [],
    unknown: [],
  };
  const file = route.where.slice(0, route.where.lastIndexOf(':'));
  const text = await fw.read(file);
  if (text === undefined) return none;
  const { ts } = await tsMorph();
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const local = route.name.slice(route.name.lastIndexOf('.') + 1);
  let handler: Ts.Node | undefined;
  let middleware: readonly Ts.Expression[] = [];
  let registered = 0;
  const declarations = new Map<string, Ts.Node>();
  const visit = (node: Ts.Node): void => {
    if (ts.isCallExpression(node) && node.arguments.length >= 3) {
      const [name] = node.arguments;
      if (name && ts.isStringLiteral(name) && (name.text === route.name || name.text === local)) {
        handler = node.arguments[node.arguments.length - 1];
        middleware = node.arguments.slice(2, -1); // (name, path, ...middleware, handler)
        registered = node.getStart(sf);
      }
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) declarations.set(node.name.text, node.initializer);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const resolver = new Resolver(ts, fw);
  const out: RouteSource = { ...none };
  const where = (at: string, node: Ts.Node, of: Ts.SourceFile): string => `${at}:${of.getLineAndCharacterOfPosition(node.getStart(of)).line + 1}`;
  // Named as written (`editor`, `guards.requireUser`; `roleGuard` for `roleGuard('admin')`; the guard a function calls), other middleware by its place.
  const shown = (m: Ts.Expression, verdict: Verdict, at: string, of: Ts.SourceFile): string => {
    const callee = ts.isCallExpression(m) ? m.expression : m;
    if (ts.isIdentifier(callee) || (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression))) return callee.getText(of);
    return verdict.calls ?? `the middleware at ${where(at, m, of)}`;
  };
  const module = await resolver.at(file);
  for (const m of middleware) {
    const verdict = module ? await resolver.expression(module, m) : { kind: 'unknown' as const };
    const name = shown(m, verdict, file, sf);
    if (verdict.kind === 'guard') out.guards.push(name);
    else if (verdict.kind === 'maybe')
      out.maybe.push({
        name,
        why: `the middleware at ${where(file, m, sf)} calls ${name} only on some requests`,
      });
    else if (verdict.kind === 'unknown') out.unknown.push(name);
  }
  // What `use` puts before the route: the app's routers only (an Additive's have their own).
  const router = route.path === '/api' || route.path.startsWith('/api/') ? 'api' : 'app';
  if (!file.startsWith('additives/') && route.method !== 'WS') {
    for (const source of await appModules(fw)) {
      const usesSf = source.path === file ? sf : ts.createSourceFile(source.path, source.text, ts.ScriptTarget.Latest, true);
      const usesModule = await resolver.at(source.path);
      for (const use of routerUses(ts, usesSf)) {
        if (use.router !== 'app-wide' && use.router !== router) continue;
        const same = source.path === file;
        // A router's `use` runs before the routes registered after it only.
        if (use.router !== 'app-wide' && same && use.position > registered) continue;
        const how = use.router === 'app-wide' ? 'fluid.use' : `${router}.use`;
        for (const m of use.middleware) {
          const verdict = usesModule ? await resolver.expression(usesModule, m) : { kind: 'unknown' as const };
          const name = shown(m, verdict, source.path, usesSf);
          const at = `${source.path}:${use.line}`;
          if (verdict.kind === 'guard' && (same || use.router === 'app-wide')) out.guards.push(name);
          else if (verdict.kind === 'guard') {
            out.maybe.push({
              name,
              why: `${how}(${name}) at ${at} guards the ${router} routes registered after it runs, and this route is registered in ${file}`,
            });
          } else if (verdict.kind === 'maybe')
            out.maybe.push({
              name,
              why: `the middleware of ${how} at ${at} calls ${name} only on some requests`,
            });
          else if (verdict.kind === 'unknown' && use.router !== 'app-wide') out.unknown.push(`${name} of ${how} at ${at}`);
        }
      }
    }
  }
  if (handler && ts.isIdentifier(handler)) handler = declarations.get(handler.text);
  const code = handler?.getText(sf) ?? '';
  if (/\.render\(/.test(code)) return { ...out, answer: 'html' };
  if (/=>\s*\(\s*\{/.test(code) || /return\s*\{/.test(code) || route.path.startsWith('/api/')) return { ...out, answer: 'json' };
  return out;
}

/** `text` as `//` comment lines of at most 100 columns, indented by two spaces (the test's body). */
function commentLines(text: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > 95) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.map((l, i) => `${i === 0 ? '' : '  '}// ${l}`).join('\n');
}

/** `fw make test`: a vitest test of a named route in `test/`, in the style of `test/home.test.ts`. */
export const test: Builtin = {
  name: 'test',
  description: 'a vitest test of a named route in test/<route>.test.ts: boots the app and requests it',
  examples: ['npx fw make test users', 'npx fw make test blog.index'],
  prompts: () => [
    {
      type: 'input',
      name: 'route',
      message: 'Route name (as fluid.urlFor takes it)',
      validate: (v) => (typeof v === 'string' && v !== '' ? true : 'give a route name'),
    },
  ],
  async actions(answers, fw) {
    const name = String(answers.route);
    const routes = await fw.routes();
    const route = routes.find((r) => r.name === name);
    if (!route)
      throw new MakeError(
        `fw make test: no route is named "${name}"${didYouMean(
          name,
          routes.map((r) => r.name),
        )}; the app's routes: ${routes.map((r) => r.name).join(', ') || 'none'}`,
      );
    if (route.method === 'WS') throw new MakeError(`fw make test: "${name}" is a websocket route (${route.path}); fw make test writes HTTP tests`);
    const method = route.method === 'ALL' ? 'GET' : route.method;
    const params = pathParams(route.path);
    const { answer, guards, maybe, unknown } = await answerOf(fw, route);
    const file = `test/${kebabCase(name)}.test.ts`;
    // Guards that may or may not run (fw cannot tell from the source): the test reads the answer, and fw says why.
    const unsure = guards.length === 0 && maybe.length > 0;
    const why = maybe.map((m) => m.why).join('; ');
    const maybeNames = [...new Set(maybe.map((m) => m.name))].join(' or ');
    return [
      {
        type: 'fw:add',
        path: file,
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
          // A guard that may run: the test takes 200 or the guard's refusal, whichever the app answers.
          maybe: unsure ? maybeNames : false,
          why: unsure ? commentLines(`fw make test cannot tell from the source whether ${maybeNames} runs for this route: ${why}.`) : false,
          // Middleware fw cannot tell is a guard (the project's own): the test takes 200 or a refusal.
          unknown: guards.length > 0 || unsure || unknown.length === 0 ? false : unknown.join(', '),
        },
      },
      ...(unsure
        ? [
            `${file}: fw make test cannot tell whether ${maybeNames} guards "${name}" (${why}); the test takes 200 or the guard's refusal, whichever the app answers: once you know which, keep that one`,
          ]
        : []),
    ];
  },
};
