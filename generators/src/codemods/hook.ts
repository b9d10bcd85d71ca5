import { anchorLabel, findAnchor } from './anchor.js';
import { findCalls, insertAfter, semicolonOf, topStatement } from './calls.js';
import { CodemodAnchorError } from './errors.js';
import { ensureNamedImport } from './imports.js';
import { applySplices, parse, tsMorph, type CodemodResult, type SourceText, type Splice } from './source.js';

/** The hooks a Fluid or an Additive takes (architecture: kernel API contract). */
export type HookName = 'beforeRequest' | 'afterRequest' | 'onStartup' | 'onShutdown' | 'beforeEnable';

/** What {@link registerHook} registers. */
export interface HookRegistration {
  hook: HookName;
  /** Identifier of the hook function, e.g. `loadUser`. */
  handler: string;
  /** Module to import the handler from (as a named import); omit when it is defined in the file. */
  from?: string;
  /** The class whose instance receives the hook: `Fluid` (default, `fluid/app.ts`) or `Additive` (an additive's `app.ts`). */
  anchor?: 'Fluid' | 'Additive';
}

/**
 * Registers `fluid.<hook>(<handler>)` after the `new Fluid(...)` declaration (or after the last
 * call of the same hook), importing the handler when `from` is given. Present already (by syntax
 * tree) → unchanged. No anchor → {@link CodemodAnchorError} with the manual instruction.
 */
export async function registerHook(file: SourceText, reg: HookRegistration): Promise<CodemodResult> {
  const { Node } = await tsMorph();
  const { sf } = await parse(file);
  const text = file.text;
  const className = reg.anchor ?? 'Fluid';
  const anchor = await findAnchor(sf, className);
  const semi = anchor ? semicolonOf(anchor.statement) : ';';
  const imp = reg.from ? ensureNamedImport(sf, text, reg.handler, reg.from, semi) : undefined;
  const receiver = anchor?.name;
  const sameHook = (chain: string[]): boolean => chain.length === 2 && chain[1] === reg.hook && (receiver === undefined || chain[0] === receiver);
  const present = await findCalls(sf, (chain, call) => {
    const arg = call.getArguments()[0];
    return sameHook(chain) && arg !== undefined && Node.isIdentifier(arg) && arg.getText() === reg.handler;
  });
  const splices: Splice[] = imp?.splice ? [imp.splice] : [];
  if (present.length === 0) {
    const variable = className === 'Fluid' ? 'fluid' : 'additive';
    if (!anchor) {
      const importPart = imp?.splice ? ` and import \`${reg.handler}\` from '${reg.from}'` : '';
      throw new CodemodAnchorError(file.path, `Add \`${variable}.${reg.hook}(${reg.handler});\` after ${anchorLabel(className, variable)} in ${file.path}${importPart}`);
    }
    let after = anchor.statement;
    for (const call of await findCalls(sf, sameHook)) {
      const st = topStatement(sf, call);
      if (st && Node.isExpressionStatement(st) && st.getEnd() > after.getEnd()) after = st;
    }
    splices.push(insertAfter(text, after, `${anchor.name}.${reg.hook}(${reg.handler})${semi}`));
  }
  if (splices.length === 0) return { changed: false, text };
  return { changed: true, text: applySplices(text, splices) };
}
