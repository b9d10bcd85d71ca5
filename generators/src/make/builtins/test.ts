import type { ts as Ts } from 'ts-morph';
import { tsMorph } from '../../codemods/source.js';
import { didYouMean } from '../../ocean/suggest.js';
import type { MakeApi, MakeRoute } from '../api.js';
import type { Builtin } from '../builtin.js';
import { MakeError } from '../errors.js';
import { kebabCase } from '../names.js';
import { pathParams } from './route.js';

/** Modules whose middleware is a guard: the kernel's auth guards, fluid/guards.ts and fluid/guards/<name>.ts (fw make guard). */
const GUARD_MODULE = /^@fw\/kernel\/auth$|(^|\/)guards(\.js|\/[^/]+\.js)$/;

/** What {@link answerOf} reads from a route's source. */
interface RouteSource {
  /** What the handler answers: `html` when it renders a template, `json` when it returns an object. */
  answer: 'html' | 'json' | undefined;
  /** The guards before the handler (middleware imported from a guard module), by name. */
  guards: string[];
}

/**
 * What a route answers and which guards it has, read from its source: `html` when the handler
 * renders a template, `json` when it returns an object, `undefined` when the source does not say.
 */
async function answerOf(fw: MakeApi, route: MakeRoute): Promise<RouteSource> {
  const file = route.where.slice(0, route.where.lastIndexOf(':'));
  const text = await fw.read(file);
  if (text === undefined) return { answer: undefined, guards: [] };
  const { ts } = await tsMorph();
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const local = route.name.slice(route.name.lastIndexOf('.') + 1);
  let handler: Ts.Node | undefined;
  let middleware: readonly Ts.Expression[] = [];
  const declarations = new Map<string, Ts.Node>();
  const imported = new Map<string, string>(); // local name → module
  const visit = (node: Ts.Node): void => {
    if (ts.isCallExpression(node) && node.arguments.length >= 3) {
      const [name] = node.arguments;
      if (name && ts.isStringLiteral(name) && (name.text === route.name || name.text === local)) {
        handler = node.arguments[node.arguments.length - 1];
        middleware = node.arguments.slice(2, -1); // (name, path, ...middleware, handler)
      }
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) declarations.set(node.name.text, node.initializer);
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.importClause?.namedBindings && ts.isNamedImports(node.importClause.namedBindings)) {
      for (const element of node.importClause.namedBindings.elements) imported.set(element.name.text, node.moduleSpecifier.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  // A guard is used as is (`admin`) or made by a call (`roleGuard('admin')`, `requireRole('admin')`).
  const guards = middleware
    .map((m) => (ts.isCallExpression(m) ? m.expression : m))
    .filter((m): m is Ts.Identifier => ts.isIdentifier(m) && GUARD_MODULE.test(imported.get(m.text) ?? ''))
    .map((m) => m.text);
  if (handler && ts.isIdentifier(handler)) handler = declarations.get(handler.text);
  const code = handler?.getText(sf) ?? '';
  if (/\.render\(/.test(code)) return { answer: 'html', guards };
  if (/=>\s*\(\s*\{/.test(code) || /return\s*\{/.test(code) || route.path.startsWith('/api/')) return { answer: 'json', guards };
  return { answer: undefined, guards };
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
    const { answer, guards } = await answerOf(fw, route);
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
        },
      },
    ];
  },
};
