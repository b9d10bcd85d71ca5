import { posix } from 'node:path';
import type { ts as Ts } from 'ts-morph';
import { tsMorph } from './source.js';

/** HTTP methods of a kernel router (`router.get(name, path, ...handlers)`, ...). */
export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'all'] as const;

/** A route of the app or of an Additive, as served. */
export interface Route {
  /** `GET`, `POST`, ..., `ALL` (any method), or `WS` for a websocket route. */
  method: string;
  /** The full path as served, prefixes included (`/api/blog/status`). */
  path: string;
  /** The full route name (`blog.status` for an Additive's `status`). */
  name: string;
  /** Where it is declared: `fluid/app.ts:21`. */
  where: string;
}

/** A TypeScript file to read routes from. */
export interface RouteSource {
  path: string;
  text: string;
}

/** One of the app's routers (`fluid.app`, `fluid.api`, `fluid.ws`). */
export type Router = 'app' | 'api' | 'ws';
const ROUTERS: readonly string[] = ['app', 'api', 'ws'];

/** The URL prefix of a router: the app's (`''`, `/api`, `/ws`) or an Additive's (`/blog`, `/api/blog`, `/ws/blog`). */
export function routerPrefix(router: Router, additive?: string): string {
  const base = router === 'app' ? '' : `/${router}`;
  return additive ? `${base}/${additive}` : base;
}

/** `a.b.c(...)` → `['a', 'b', 'c']`; `undefined` when the callee is not a plain dotted name. */
function chainOf(ts: typeof Ts, call: Ts.CallExpression): string[] | undefined {
  const chain: string[] = [];
  let node: Ts.Expression = call.expression;
  while (ts.isPropertyAccessExpression(node)) {
    chain.unshift(node.name.text);
    node = node.expression;
  }
  if (!ts.isIdentifier(node)) return undefined;
  chain.unshift(node.text);
  return chain;
}

function calls(ts: typeof Ts, sf: Ts.SourceFile): Ts.CallExpression[] {
  const out: Ts.CallExpression[] = [];
  const visit = (node: Ts.Node): void => {
    if (ts.isCallExpression(node)) out.push(node);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** A route registration `<receiver>.<method>('name', '/path', ...)`, when both are string literals. */
function registration(ts: typeof Ts, call: Ts.CallExpression, method: string): { name: string; path: string } | undefined {
  const isWs = method === 'route';
  if (!isWs && !(HTTP_METHODS as readonly string[]).includes(method)) return undefined;
  const [name, path] = call.arguments;
  if (!name || !path || !ts.isStringLiteralLike(name) || !ts.isStringLiteralLike(path)) return undefined;
  return { name: name.text, path: path.text };
}

function joinPath(prefix: string, path: string): string {
  if (prefix === '') return path;
  return path === '/' ? `${prefix}/` : `${prefix}${path.startsWith('/') ? '' : '/'}${path}`;
}

function route(ts: typeof Ts, sf: Ts.SourceFile, call: Ts.CallExpression, method: string, router: Router, additive: string | undefined, file: string): Route | undefined {
  const found = registration(ts, call, method);
  if (!found || (router === 'ws') !== (method === 'route')) return undefined;
  const line = sf.getLineAndCharacterOfPosition(call.getStart(sf)).line + 1;
  return {
    method: method === 'route' ? 'WS' : method.toUpperCase(),
    path: joinPath(routerPrefix(router, additive), found.path),
    name: additive ? `${additive}.${found.name}` : found.name,
    where: `${file}:${line}`,
  };
}

/** A dotted name (`fluid`, `kit.fluid`): an identifier, or property accesses on one. */
function isDottedName(ts: typeof Ts, node: Ts.Expression): boolean {
  while (ts.isPropertyAccessExpression(node)) node = node.expression;
  return ts.isIdentifier(node);
}

/**
 * The names a module gives the app's routers (`const api = fluid.api`, `const { app: pages } =
 * fluid`, `const admin = fluid.api.use(requireUser)`, which is the same router): name → router.
 * Read by name, as in {@link routerOf}: a name declared twice in one module takes the last.
 */
export function routerAliases(ts: typeof Ts, sf: Ts.SourceFile): Map<string, Router> {
  const out = new Map<string, Router>();
  const visit = (node: Ts.Node): void => {
    if (ts.isVariableDeclaration(node) && node.initializer) {
      if (ts.isIdentifier(node.name)) {
        const router = routerOf(ts, node.initializer, out);
        if (router) out.set(node.name.text, router);
      } else if (ts.isObjectBindingPattern(node.name) && isDottedName(ts, node.initializer)) {
        for (const el of node.name.elements) {
          const key = el.propertyName ?? el.name;
          if (!el.dotDotDotToken && ts.isIdentifier(key) && ROUTERS.includes(key.text) && ts.isIdentifier(el.name)) out.set(el.name.text, key.text as Router);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/**
 * The app router an expression is: `fluid.api`, `kit.fluid.app`, a name of `aliases`, or a call
 * on one that returns it (`fluid.api.use(mw)`, `api.get(...)`: the router methods return the
 * router); `undefined` for anything else.
 */
export function routerOf(ts: typeof Ts, node: Ts.Expression, aliases: ReadonlyMap<string, Router>): Router | undefined {
  let expr = node;
  while (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isSatisfiesExpression(expr) || ts.isNonNullExpression(expr)) expr = expr.expression;
  if (ts.isIdentifier(expr)) return aliases.get(expr.text);
  if (ts.isPropertyAccessExpression(expr)) {
    return ROUTERS.includes(expr.name.text) && isDottedName(ts, expr.expression) ? (expr.name.text as Router) : undefined;
  }
  if (ts.isCallExpression(expr) && ts.isPropertyAccessExpression(expr.expression)) {
    const method = expr.expression.name.text;
    if (method === 'use' || method === 'route' || (HTTP_METHODS as readonly string[]).includes(method)) return routerOf(ts, expr.expression.expression, aliases);
  }
  return undefined;
}

/** Middleware a module adds to a router (`fluid.api.use(mw)`, `api.use(a, b)`) or to the whole app (`fluid.use(mw)`). */
export interface RouterUse {
  /** The router whose matching routes it runs before (those registered after it), or `app-wide` for `fluid.use`, which runs for every request. */
  router: Router | 'app-wide';
  /** The middleware given. */
  middleware: readonly Ts.Expression[];
  /** Where the call starts in its module (to compare with a route's). */
  position: number;
  /** 1-based line of the call. */
  line: number;
}

/**
 * The `use` calls of a module: on an app router ({@link routerOf}), and `fluid.use(mw, stage?)` on
 * the app (a receiver named `fluid`, as fw's modules and the app file name it, or made by
 * `new Fluid(...)`).
 */
export function routerUses(ts: typeof Ts, sf: Ts.SourceFile): RouterUse[] {
  const aliases = routerAliases(ts, sf);
  const apps = new Set(['fluid']);
  const visit = (node: Ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isNewExpression(node.initializer) && ts.isIdentifier(node.initializer.expression) && node.initializer.expression.text === 'Fluid') {
      apps.add(node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const out: RouterUse[] = [];
  for (const call of calls(ts, sf)) {
    if (!ts.isPropertyAccessExpression(call.expression) || call.expression.name.text !== 'use') continue;
    const receiver = call.expression.expression;
    const at = { position: call.getStart(sf), line: sf.getLineAndCharacterOfPosition(call.getStart(sf)).line + 1 };
    const router = routerOf(ts, receiver, aliases);
    if (router) out.push({ router, middleware: call.arguments, ...at });
    else if (isDottedName(ts, receiver) && apps.has(ts.isIdentifier(receiver) ? receiver.text : (receiver as Ts.PropertyAccessExpression).name.text) && call.arguments[0]) {
      out.push({ router: 'app-wide', middleware: [call.arguments[0]], ...at });
    }
  }
  return out;
}

/**
 * The routes a module of the app declares: `fluid.app.get('hello', '/hello', ...)`,
 * `fluid.api.post(...)`, `fluid.ws.route(...)`, also on a router held in a variable (`const api =
 * fluid.api; api.get(...)`) or chained (`fluid.api.use(mw).get(...)`), with literal names and
 * paths (others cannot be known without running it).
 */
function appRoutes(ts: typeof Ts, source: RouteSource): Route[] {
  const sf = ts.createSourceFile(source.path, source.text, ts.ScriptTarget.Latest, true);
  const aliases = routerAliases(ts, sf);
  const out: Route[] = [];
  for (const call of calls(ts, sf)) {
    if (!ts.isPropertyAccessExpression(call.expression)) continue;
    // `fluid.app.get(...)`, and the app reached otherwise in a module of its own (`kit.fluid.api.post(...)`).
    const router = routerOf(ts, call.expression.expression, aliases);
    if (!router) continue;
    const r = route(ts, sf, call, call.expression.name.text, router, undefined, source.path);
    if (r) out.push(r);
  }
  return out;
}

/**
 * The routes of one Additive from its modules. Its `index.ts` says which module fills which
 * router (`api(blog.api)` with `api` imported from `./api.js`); a module not wired there is taken
 * by its name (`api.ts`, `app.ts`, `ws.ts`). Calls on the Additive's routers directly
 * (`blog.app.get(...)`) count too.
 */
function additiveRoutes(ts: typeof Ts, name: string, sources: readonly RouteSource[]): Route[] {
  const dir = `additives/${name}/`;
  const parsed = sources.map((s) => ({ source: s, sf: ts.createSourceFile(s.path, s.text, ts.ScriptTarget.Latest, true) }));
  const routerOf = new Map<string, Router>();
  const index = parsed.find((p) => p.source.path === `${dir}index.ts`);
  if (index) {
    const importedFrom = new Map<string, string>();
    for (const st of index.sf.statements) {
      if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || !st.importClause) continue;
      const module = `${dir}${st.moduleSpecifier.text.replace(/^\.\//, '').replace(/\.js$/, '.ts')}`;
      if (st.importClause.name) importedFrom.set(st.importClause.name.text, module);
      const bindings = st.importClause.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) importedFrom.set(el.name.text, module);
    }
    for (const call of calls(ts, index.sf)) {
      const arg = call.arguments[0];
      if (!ts.isIdentifier(call.expression) || !arg || !ts.isPropertyAccessExpression(arg) || !ROUTERS.includes(arg.name.text)) continue;
      const module = importedFrom.get(call.expression.text);
      if (module) routerOf.set(module, arg.name.text as Router);
    }
  }
  const out: Route[] = [];
  for (const { source, sf } of parsed) {
    const base = source.path.slice(dir.length).replace(/\.ts$/, '');
    const fileRouter = routerOf.get(source.path) ?? (ROUTERS.includes(base) ? (base as Router) : undefined);
    for (const call of calls(ts, sf)) {
      const chain = chainOf(ts, call);
      if (!chain) continue;
      let r: Route | undefined;
      if (chain.length === 3 && ROUTERS.includes(chain[1]!)) r = route(ts, sf, call, chain[2]!, chain[1] as Router, name, source.path);
      else if (chain.length === 2 && fileRouter) r = route(ts, sf, call, chain[1]!, fileRouter, name, source.path);
      if (r) out.push(r);
    }
  }
  return out;
}

/**
 * The project files a module may import by a relative specifier (`import ... from './posts.js'`,
 * `export ... from`, `import './x.js'`), each as the candidate paths of its TypeScript source
 * (`fluid/posts.ts`; `fluid/posts.tsx`, `fluid/posts/index.ts` for one without `.js`). Type-only
 * imports and packages are left out.
 */
export async function relativeImports(source: RouteSource): Promise<string[][]> {
  const { ts } = await tsMorph();
  const sf = ts.createSourceFile(source.path, source.text, ts.ScriptTarget.Latest, true);
  const out: string[][] = [];
  for (const st of sf.statements) {
    let spec: Ts.Expression | undefined;
    if (ts.isImportDeclaration(st) && !st.importClause?.isTypeOnly) spec = st.moduleSpecifier;
    else if (ts.isExportDeclaration(st) && !st.isTypeOnly) spec = st.moduleSpecifier;
    if (!spec || !ts.isStringLiteral(spec)) continue;
    const candidates = moduleCandidates(source.path, spec.text);
    if (candidates.length > 0) out.push(candidates);
  }
  return out;
}

/**
 * The project paths a relative specifier of `from` names, as TypeScript sources, in the order
 * TypeScript tries them: `./posts.js` → `fluid/posts.ts`, `fluid/posts.tsx`; `./posts` →
 * `fluid/posts.ts`, `fluid/posts.tsx`, `fluid/posts/index.ts`. Empty for a package or a path
 * outside the project.
 */
export function moduleCandidates(from: string, specifier: string): string[] {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return [];
  const joined = posix.normalize(posix.join(posix.dirname(from), specifier));
  if (joined.startsWith('../') || joined.startsWith('/')) return [];
  const js = /\.(m|c)?jsx?$/.exec(joined);
  if (js) {
    const base = joined.slice(0, -js[0].length);
    return js[1] ? [`${base}.${js[1]}ts`] : [`${base}.ts`, `${base}.tsx`];
  }
  if (/\.(m|c)?tsx?$/.test(joined)) return [joined];
  return [`${joined}.ts`, `${joined}.tsx`, `${joined}/index.ts`];
}

/**
 * The route table of an app: the routes its modules declare (`fluid/app.ts` and the modules it
 * reaches, see {@link relativeImports}) and those of each Additive's
 * modules (`additives/<name>/*.ts`), read from their syntax (TypeScript's parser, through ts-morph,
 * loaded on first use). Only literal names and paths are known; a route built at run time is not
 * seen.
 */
export async function readRoutes(app: RouteSource | readonly RouteSource[] | undefined, additives: ReadonlyMap<string, readonly RouteSource[]>): Promise<Route[]> {
  const { ts } = await tsMorph();
  const modules = app === undefined ? [] : 'path' in app ? [app] : app;
  const out = modules.flatMap((m) => appRoutes(ts, m));
  for (const [name, sources] of additives) out.push(...additiveRoutes(ts, name, sources));
  return out;
}
