import { findAnchor } from './anchor.js';
import { findCalls, semicolonOf } from './calls.js';
import { CodemodAnchorError } from './errors.js';
import { ensureNamedImport } from './imports.js';
import { routeMatcher } from './route.js';
import { applySplices, parse, tsMorph, type CodemodResult, type SourceText, type Splice } from './source.js';

/** What {@link registerGuard} registers. */
export interface GuardRegistration {
  /** Name of the route to guard (the first argument of its registration). */
  route: string;
  /** Router of the route: `app` (default) or `api`. */
  router?: 'app' | 'api';
  /** Identifier of the guard middleware, e.g. `requireAdmin`. */
  guard: string;
  /** Module to import the guard from (named import); omit when it is defined in the file. */
  from?: string;
  /** `Fluid` (default) or `Additive`. */
  anchor?: 'Fluid' | 'Additive';
}

/**
 * Guards a route: inserts the guard as the first handler of its registration,
 * `fluid.app.get('admin', '/admin', requireAdmin, handler)`, i.e. right after the path argument,
 * so it runs before every other handler. Present among the handlers already → unchanged. The route
 * registration is the anchor: when it is missing, {@link CodemodAnchorError} says what to add.
 */
export async function registerGuard(file: SourceText, reg: GuardRegistration): Promise<CodemodResult> {
  const morph = await tsMorph();
  const { Node } = morph;
  const { sf } = await parse(file);
  const text = file.text;
  const router = reg.router ?? 'app';
  const anchor = await findAnchor(sf, reg.anchor ?? 'Fluid');
  const calls = await findCalls(sf, routeMatcher(morph, anchor?.name, router, reg.route));
  const call = calls[0];
  const args = call?.getArguments() ?? [];
  const pathArg = args[1];
  if (!call || !pathArg) {
    const variable = anchor?.name ?? (reg.anchor === 'Additive' ? 'additive' : 'fluid');
    throw new CodemodAnchorError(
      file.path,
      `Add \`${reg.guard}\` right after the path in the registration of the route '${reg.route}' (\`${variable}.${router}.<method>('${reg.route}', '<path>', ${reg.guard}, <handler>)\`) in ${file.path}`,
    );
  }
  const present = args.slice(2).some((a) => Node.isIdentifier(a) && a.getText() === reg.guard);
  const splices: Splice[] = [];
  if (reg.from) {
    const semi = anchor ? semicolonOf(anchor.statement) : ';';
    const imp = ensureNamedImport(sf, text, reg.guard, reg.from, semi);
    if (imp.splice) splices.push(imp.splice);
  }
  if (!present) splices.push({ start: pathArg.getEnd(), end: pathArg.getEnd(), text: `, ${reg.guard}` });
  if (splices.length === 0) return { changed: false, text };
  return { changed: true, text: applySplices(text, splices) };
}
