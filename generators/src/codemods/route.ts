import type { FunctionDeclaration, SourceFile, Statement } from 'ts-morph';
import { anchorLabel, findAnchor } from './anchor.js';
import { findCalls, topStatement } from './calls.js';
import { CodemodAnchorError } from './errors.js';
import { namedImports, usedNames } from './imports.js';
import { applySplices, eolOf, indentAt, lineEnd, lineStart, parse, quoteOf, tsMorph, type CodemodResult, type SourceText, type Splice } from './source.js';

/** A route to add: `<router>.<method>('<name>', '<path>', <handler>)`. */
export interface NewRoute {
  router: 'app' | 'api';
  /** Lower case: `get`, `post`, ..., `all`. */
  method: string;
  /** The name on its router (an Additive's route without the `<additive>.` prefix). */
  name: string;
  path: string;
  /** A TypeScript expression. */
  handler: string;
  /** One line of comment above the route (app) or the handler (Additive). */
  comment?: string;
  /** Names the handler uses, imported from a module (relative to the file the route goes in). */
  imports?: { from: string; names: string[] };
}

/** The splices importing what the route's handler uses; a name the file uses otherwise is a manual fix. */
async function routeImports(sf: SourceFile, file: SourceText, route: NewRoute, code: string): Promise<Splice[]> {
  if (!route.imports || route.imports.names.length === 0) return [];
  const { splices, taken } = await namedImports(sf, file.text, route.imports.from, route.imports.names);
  if (taken) {
    const q = quoteOf(sf);
    throw new CodemodAnchorError(
      file.path,
      `${file.path} already uses the name "${taken}": add \`import { ${route.imports.names.join(', ')} } from ${q}${route.imports.from}${q};\` and \`${code}\` to it by hand`,
    );
  }
  return splices;
}

/**
 * Formats a piece of TypeScript as prettier formats the file it goes into, indented by `indent`
 * (the caller's formatter; codemods never load prettier themselves).
 */
export type SnippetFormatter = (code: string, indent: string) => Promise<string>;

/** Whether `call` registers exactly this route: same method and the same literal name and path. */
async function isRoute(sf: SourceFile, route: NewRoute, receiver: (chain: string[]) => boolean): Promise<boolean> {
  const { Node } = await tsMorph();
  const calls = await findCalls(sf, (chain, call) => {
    if (!receiver(chain) || chain.at(-1) !== route.method) return false;
    const [name, path] = call.getArguments();
    return Node.isStringLiteral(name) && Node.isStringLiteral(path) && name.getLiteralValue() === route.name && path.getLiteralValue() === route.path;
  });
  return calls.length > 0;
}

const literal = (sf: SourceFile, value: string): string => {
  const q = quoteOf(sf);
  return `${q}${value.replaceAll('\\', '\\\\').replaceAll(q, `\\${q}`)}${q}`;
};

/** A splice putting `code` (already indented) on new lines after the line where `statement` ends, after a blank line. */
function after(text: string, statement: Statement, code: string): Splice {
  const at = lineEnd(text, statement.getEnd());
  const eol = eolOf(text);
  return { start: at, end: at, text: `${eol}${eol}${code.replaceAll('\n', eol)}` };
}

/**
 * Adds a route to the app file: `fluid.<router>.<method>('<name>', '<path>', <handler>);`, after
 * the app's last route (or after `const fluid = new Fluid(...)` when it has none), formatted like
 * the file. A route with the same method, name and path already there is left as it is (a second
 * run changes nothing). Throws {@link CodemodAnchorError} (nothing changed) without the anchor.
 */
export async function addAppRoute(file: SourceText, route: NewRoute, format: SnippetFormatter): Promise<CodemodResult> {
  const { Node } = await tsMorph();
  const { sf } = await parse(file);
  const anchor = await findAnchor(sf, 'Fluid');
  const call = (variable: string): string =>
    `${variable}.${route.router}.${route.method}(${literal(sf, route.name)}, ${literal(sf, route.path)}, ${route.handler});`;
  if (!anchor) throw new CodemodAnchorError(file.path, `Add \`${call('fluid')}\` to ${file.path} after ${anchorLabel('Fluid', 'fluid')}`);
  const ours = (chain: string[]): boolean => chain.length === 3 && chain[0] === anchor.name && chain[1] === route.router;
  if (await isRoute(sf, route, ours)) return { changed: false, text: file.text };
  let last: Statement = anchor.statement;
  const routes = await findCalls(sf, (chain) => chain.length === 3 && chain[0] === anchor.name && ['app', 'api', 'ws'].includes(chain[1]!));
  for (const found of routes) {
    const statement = topStatement(sf, found);
    if (statement && Node.isExpressionStatement(statement) && statement.getEnd() > last.getEnd()) last = statement;
  }
  const imports = await routeImports(sf, file, route, call(anchor.name));
  const comment = route.comment ? `// ${route.comment}\n` : '';
  const code = await format(`${comment}${call(anchor.name)}`, '');
  return { changed: true, text: applySplices(file.text, [...imports, after(file.text, last, code)]) };
}

/** The module's router function: `export default function api(router: HttpRouter) { ... }`. */
async function routerFunction(sf: SourceFile): Promise<{ fn: FunctionDeclaration; router: string } | undefined> {
  for (const fn of sf.getFunctions()) {
    const router = fn.getParameters()[0]?.getName();
    if (fn.isDefaultExport() && router && fn.getBody()) return { fn, router };
  }
  return undefined;
}

/**
 * Adds a route to an Additive's router module (`additives/<name>/api.ts` or `app.ts`): the handler
 * as `export const <id>: Handler = <handler>;` above the module's router function, and
 * `router.<method>('<name>', '<path>', <id>);` at the end of it, both formatted like the file;
 * `Handler` is imported from `@fw/kernel` when the module does not have it. `<id>` is the route's
 * name unless the module already uses it (then `<id>Route`, ...). A route with the same method,
 * name and path already there is left as it is. Throws {@link CodemodAnchorError} when the module
 * has no `export default function (router) {...}`.
 */
export async function addAdditiveRoute(file: SourceText, route: NewRoute, id: string, format: SnippetFormatter): Promise<CodemodResult> {
  const { Node } = await tsMorph();
  const { sf } = await parse(file);
  const found = await routerFunction(sf);
  if (!found) {
    throw new CodemodAnchorError(file.path, `${file.path} has no \`export default function (router: HttpRouter) { ... }\`: add the route to it by hand`);
  }
  const { fn, router } = found;
  if (await isRoute(sf, route, (chain) => chain.length === 2 && chain[0] === router)) return { changed: false, text: file.text };
  const used = await usedNames(sf);
  let local = id;
  for (let n = 1; used.has(local); n++) local = `${id}Route${n === 1 ? '' : n}`;
  const text = file.text;
  const eol = eolOf(text);
  const splices: Splice[] = await routeImports(sf, file, route, `router.${route.method}(...)`);
  const kernel = sf.getImportDeclarations().find((d) => d.getModuleSpecifierValue() === '@fw/kernel');
  const hasHandler = kernel?.getNamedImports().some((n) => n.getName() === 'Handler' && !n.getAliasNode());
  if (!hasHandler) {
    const last = sf.getImportDeclarations().at(-1);
    const statement = `import type { Handler } from ${literal(sf, '@fw/kernel')};`;
    const at = last ? lineEnd(text, last.getEnd()) : 0;
    splices.push({ start: at, end: at, text: last ? `${eol}${statement}` : `${statement}${eol}${eol}` });
  }
  const comment = route.comment ? `/** ${route.comment} */\n` : '';
  const handler = await format(`${comment}export const ${local}: Handler = ${route.handler};`, '');
  const start = lineStart(text, fn.getStart(true));
  splices.push({ start, end: start, text: `${handler.replaceAll('\n', eol)}${eol}${eol}` });
  const body = fn.getBody();
  const statements = body && Node.isBlock(body) ? body.getStatements() : [];
  const indent = statements[0] ? indentAt(text, statements[0].getStart()) : `${indentAt(text, fn.getStart())}  `;
  const registration = await format(`${router}.${route.method}(${literal(sf, route.name)}, ${literal(sf, route.path)}, ${local});`, indent);
  const lastStatement = statements.at(-1);
  const at = lastStatement ? lineEnd(text, lastStatement.getEnd()) : body!.getStart() + 1;
  splices.push({ start: at, end: at, text: `${eol}${registration.replaceAll('\n', eol)}` });
  return { changed: true, text: applySplices(text, splices) };
}
