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

type Router = 'app' | 'api' | 'ws';
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

/**
 * The routes the app file declares: `fluid.app.get('hello', '/hello', ...)`, `fluid.api.post(...)`,
 * `fluid.ws.route(...)`, with literal names and paths (others cannot be known without running it).
 */
function appRoutes(ts: typeof Ts, source: RouteSource): Route[] {
  const sf = ts.createSourceFile(source.path, source.text, ts.ScriptTarget.Latest, true);
  const out: Route[] = [];
  for (const call of calls(ts, sf)) {
    const chain = chainOf(ts, call);
    // `fluid.app.get(...)`, and the app reached otherwise in a module of its own (`kit.fluid.api.post(...)`).
    if (!chain || chain.length < 3 || !ROUTERS.includes(chain[chain.length - 2]!)) continue;
    const r = route(ts, sf, call, chain[chain.length - 1]!, chain[chain.length - 2] as Router, undefined, source.path);
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
