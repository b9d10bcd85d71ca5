import type { Identifier, Node as TsNode, SourceFile } from 'ts-morph';
import { identifierFor } from '../additive/names.js';
import { anchorLabel, findAnchor } from './anchor.js';
import { findCalls, insertAfter, semicolonOf, topStatement } from './calls.js';
import { CodemodAnchorError } from './errors.js';
import { ensureDefaultImport, importsOf } from './imports.js';
import { applySplices, parse, removalRange, tsMorph, type CodemodResult, type SourceText, type Splice } from './source.js';

/** Options of {@link registerAdditive} and {@link unregisterAdditive}. */
export interface AdditiveCodemodOptions {
  /** Module the additive is imported from; default `../additives/<name>/index.js` (relative to `fluid/app.ts`). */
  importPath?: string;
}

const defaultImportPath = (name: string): string => `../additives/${name}/index.js`;

/** Whether `node` is an identifier bound to the same symbol as `binding` (the import's local name). */
async function refersTo(node: TsNode | undefined, binding: Identifier): Promise<boolean> {
  const { Node } = await tsMorph();
  if (!node || !Node.isIdentifier(node) || node.getText() !== binding.getText()) return false;
  const symbol = binding.getSymbol();
  return symbol !== undefined && node.getSymbol() === symbol;
}

/** The `<anchor>.additive(<binding>)` calls of the file, by symbol. */
async function registrationsOf(sf: SourceFile, binding: Identifier, receiver: string | undefined) {
  const calls = await findCalls(sf, (chain) => chain.length === 2 && chain[1] === 'additive' && (receiver === undefined || chain[0] === receiver));
  const out = [];
  for (const call of calls) if (call.getArguments().length === 1 && (await refersTo(call.getArguments()[0], binding))) out.push(call);
  return out;
}

/**
 * Registers an additive in the app file: a default import of its module and `fluid.additive(x)`
 * right after the `new Fluid(...)` declaration (or after the last `fluid.additive(...)`).
 *
 * The import is recognised by its module specifier: an existing one is reused under whatever name
 * it is bound to. A new one is bound to the additive's identifier (`blog-posts` → `blogPosts`)
 * unless the file already uses that name (`export const db = ...`, a global it calls), then to a
 * free alias (`dbAdditive`), so the result always type-checks. The call is compared by symbol, so
 * a second run changes nothing, and every other byte of the file is kept. Throws
 * {@link CodemodAnchorError} (nothing changed) when the file has no `const x = new Fluid(...)`.
 */
export async function registerAdditive(file: SourceText, name: string, options: AdditiveCodemodOptions = {}): Promise<CodemodResult> {
  const { Node } = await tsMorph();
  const { sf } = await parse(file);
  const text = file.text;
  const anchor = await findAnchor(sf, 'Fluid');
  const semi = anchor ? semicolonOf(anchor.statement) : ';';
  const from = options.importPath ?? defaultImportPath(name);
  const imp = await ensureDefaultImport(sf, text, identifierFor(name), from, semi);
  const existing = importsOf(sf, from).map((d) => d.getDefaultImport()).find((b) => b !== undefined);
  const present = existing ? await registrationsOf(sf, existing, anchor?.name) : [];
  const splices: Splice[] = imp.splice ? [imp.splice] : [];
  if (present.length === 0) {
    if (!anchor) {
      const importPart = imp.splice ? ` and \`${imp.statement}\` with its imports` : '';
      throw new CodemodAnchorError(file.path, `Add \`fluid.additive(${imp.local});\` after ${anchorLabel('Fluid', 'fluid')} in ${file.path}${importPart}`);
    }
    let after = anchor.statement;
    for (const call of await findCalls(sf, (chain) => chain.length === 2 && chain[0] === anchor.name && chain[1] === 'additive')) {
      const st = topStatement(sf, call);
      if (st && Node.isExpressionStatement(st) && st.getEnd() > after.getEnd()) after = st;
    }
    splices.push(insertAfter(text, after, `${anchor.name}.additive(${imp.local})${semi}`));
  }
  if (splices.length === 0) return { changed: false, text };
  return { changed: true, text: applySplices(text, splices) };
}

/**
 * Undoes {@link registerAdditive} (for `fw destroy additive`): finds the import by its module
 * specifier, removes every `<x>.additive(<its binding>)` statement (by symbol: `fluid.events`, a
 * property that shares the name, is not a use), and removes the import when nothing else refers to
 * its binding. Whole lines go when the statement is alone on its line. Absent registrations are
 * not an error; a second run changes nothing.
 */
export async function unregisterAdditive(file: SourceText, name: string, options: AdditiveCodemodOptions = {}): Promise<CodemodResult> {
  const { SyntaxKind } = await tsMorph();
  const { sf } = await parse(file);
  const text = file.text;
  const from = options.importPath ?? defaultImportPath(name);
  const removed: Array<{ start: number; end: number }> = [];
  const splices: Splice[] = [];
  for (const decl of importsOf(sf, from)) {
    const binding = decl.getDefaultImport();
    if (!binding) continue;
    for (const call of await registrationsOf(sf, binding, undefined)) {
      const st = call.getParentIfKind(SyntaxKind.ExpressionStatement);
      if (!st || removed.some((r) => r.start === st.getStart())) continue;
      removed.push({ start: st.getStart(), end: st.getEnd() });
      splices.push(removalRange(text, st.getStart(), st.getEnd()));
    }
    if (decl.getNamedImports().length > 0 || decl.getNamespaceImport()) continue;
    let stillUsed = false;
    for (const id of sf.getDescendantsOfKind(SyntaxKind.Identifier)) {
      if (id === binding || removed.some((r) => id.getStart() >= r.start && id.getEnd() <= r.end)) continue;
      if (await refersTo(id, binding)) {
        stillUsed = true;
        break;
      }
    }
    if (!stillUsed) splices.push(removalRange(text, decl.getStart(), decl.getEnd()));
  }
  if (splices.length === 0) return { changed: false, text };
  return { changed: true, text: applySplices(text, splices) };
}
