import type { CallExpression } from 'ts-morph';
import { anchorLabel, findAnchor } from './anchor.js';
import { findCalls, insertAfter, semicolonOf, topStatement } from './calls.js';
import { CodemodAnchorError } from './errors.js';
import { ensureNamedImport } from './imports.js';
import { applySplices, parse, quoteOf, tsMorph, type CodemodResult, type SourceText, type Splice } from './source.js';

/** HTTP methods of a kernel router. */
export const ROUTE_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'all'] as const;
/** One of {@link ROUTE_METHODS}. */
export type RouteMethod = (typeof ROUTE_METHODS)[number];

/** What {@link registerRoute} registers. */
export interface RouteRegistration {
  /** Router: `app` (default, at `/`) or `api` (at `/api`). */
  router?: 'app' | 'api';
  method: RouteMethod;
  /** Route name, unique per router (used by `urlFor`). */
  name: string;
  path: string;
  /** Identifier of the handler, e.g. `aboutPage`. */
  handler: string;
  /** Module to import the handler from (named import); omit when it is defined in the file. */
  from?: string;
  /** `Fluid` (default) or `Additive`, the instance whose router receives the route. */
  anchor?: 'Fluid' | 'Additive';
}

type TsMorph = typeof import('ts-morph');

/** A matcher for `<receiver>.<router>.<method>('<name>', ...)` calls (any method; any receiver when undefined; any name when undefined). */
export function routeMatcher(
  morph: TsMorph,
  receiver: string | undefined,
  router: string,
  name?: string,
): (chain: string[], call: CallExpression) => boolean {
  return (chain, call) => {
    if (chain.length !== 3 || chain[1] !== router || !(ROUTE_METHODS as readonly string[]).includes(chain[2] ?? '')) return false;
    if (receiver !== undefined && chain[0] !== receiver) return false;
    if (name === undefined) return true;
    const first = call.getArguments()[0];
    return first !== undefined && morph.Node.isStringLiteral(first) && first.getLiteralValue() === name;
  };
}

/**
 * Registers `fluid.<router>.<method>('<name>', '<path>', <handler>)` after the last route of the
 * same router (or after the `new Fluid(...)` declaration). A route with the same name on that
 * router, found by syntax tree, means it is present: nothing changes, even if the user changed
 * its path or handler. No anchor → {@link CodemodAnchorError} with the manual instruction.
 */
export async function registerRoute(file: SourceText, reg: RouteRegistration): Promise<CodemodResult> {
  const morph = await tsMorph();
  const { Node } = morph;
  const { sf } = await parse(file);
  const text = file.text;
  const router = reg.router ?? 'app';
  const className = reg.anchor ?? 'Fluid';
  const anchor = await findAnchor(sf, className);
  const semi = anchor ? semicolonOf(anchor.statement) : ';';
  const imp = reg.from ? ensureNamedImport(sf, text, reg.handler, reg.from, semi) : undefined;
  const present = await findCalls(sf, routeMatcher(morph, anchor?.name, router, reg.name));
  const q = quoteOf(sf);
  const splices: Splice[] = imp?.splice ? [imp.splice] : [];
  if (present.length === 0) {
    const variable = anchor?.name ?? (className === 'Fluid' ? 'fluid' : 'additive');
    const code = `${variable}.${router}.${reg.method}(${q}${reg.name}${q}, ${q}${reg.path}${q}, ${reg.handler})`;
    if (!anchor) {
      const importPart = imp?.splice ? ` and import \`${reg.handler}\` from '${reg.from}'` : '';
      throw new CodemodAnchorError(file.path, `Add \`${code};\` after ${anchorLabel(className, variable)} in ${file.path}${importPart}`);
    }
    let after = anchor.statement;
    for (const call of await findCalls(sf, routeMatcher(morph, anchor.name, router))) {
      const st = topStatement(sf, call);
      if (st && Node.isExpressionStatement(st) && st.getEnd() > after.getEnd()) after = st;
    }
    splices.push(insertAfter(text, after, `${code}${semi}`));
  }
  if (splices.length === 0) return { changed: false, text };
  return { changed: true, text: applySplices(text, splices) };
}
