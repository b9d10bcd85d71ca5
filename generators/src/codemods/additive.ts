import { anchorLabel, findAnchor } from './anchor.js';
import { findCalls, insertAfter, semicolonOf, topStatement } from './calls.js';
import { CodemodAnchorError } from './errors.js';
import { ensureDefaultImport } from './imports.js';
import { identifierFor } from './names.js';
import { applySplices, parse, removalRange, tsMorph, type CodemodResult, type SourceText, type Splice } from './source.js';

/** Options of {@link registerAdditive} and {@link unregisterAdditive}. */
export interface AdditiveCodemodOptions {
  /** Module the additive is imported from; default `../additives/<name>/index.js` (relative to `fluid/app.ts`). */
  importPath?: string;
}

const defaultImportPath = (name: string): string => `../additives/${name}/index.js`;

/**
 * Registers an additive in the app file: `import blog from '../additives/blog/index.js'` and
 * `fluid.additive(blog)` right after the `new Fluid(...)` declaration (or after the last
 * `fluid.additive(...)`). Both are compared by syntax tree, so a second run changes nothing, and
 * every other byte of the file is kept. Throws {@link CodemodAnchorError} (nothing changed) when
 * the file has no `const x = new Fluid(...)`.
 */
export async function registerAdditive(file: SourceText, name: string, options: AdditiveCodemodOptions = {}): Promise<CodemodResult> {
  const { Node } = await tsMorph();
  const { sf } = await parse(file);
  const text = file.text;
  const anchor = await findAnchor(sf, 'Fluid');
  const semi = anchor ? semicolonOf(anchor.statement) : ';';
  const imp = ensureDefaultImport(sf, text, identifierFor(name), options.importPath ?? defaultImportPath(name), semi);
  const receiver = anchor?.name;
  const isAdditiveCall = (chain: string[]): boolean => chain.length === 2 && chain[1] === 'additive' && (receiver === undefined || chain[0] === receiver);
  const present = await findCalls(sf, (chain, call) => {
    const arg = call.getArguments()[0];
    return isAdditiveCall(chain) && call.getArguments().length === 1 && arg !== undefined && Node.isIdentifier(arg) && arg.getText() === imp.local;
  });
  const splices: Splice[] = imp.splice ? [imp.splice] : [];
  if (present.length === 0) {
    if (!anchor) {
      const importPart = imp.splice ? ` and \`${imp.statement}\` with its imports` : '';
      throw new CodemodAnchorError(file.path, `Add \`fluid.additive(${imp.local});\` after ${anchorLabel('Fluid', 'fluid')} in ${file.path}${importPart}`);
    }
    let after = anchor.statement;
    for (const call of await findCalls(sf, isAdditiveCall)) {
      const st = topStatement(sf, call);
      if (st && Node.isExpressionStatement(st) && st.getEnd() > after.getEnd()) after = st;
    }
    splices.push(insertAfter(text, after, `${anchor.name}.additive(${imp.local})${semi}`));
  }
  if (splices.length === 0) return { changed: false, text };
  return { changed: true, text: applySplices(text, splices) };
}

/**
 * Undoes {@link registerAdditive} (for `fw destroy additive`): removes every
 * `<x>.additive(<local>)` statement and the additive's import when nothing else uses it. Whole
 * lines go when the statement is alone on its line. Absent registrations are not an error; a
 * second run changes nothing.
 */
export async function unregisterAdditive(file: SourceText, name: string, options: AdditiveCodemodOptions = {}): Promise<CodemodResult> {
  const { Node, SyntaxKind } = await tsMorph();
  const { sf } = await parse(file);
  const text = file.text;
  const from = options.importPath ?? defaultImportPath(name);
  const decls = sf.getImportDeclarations().filter((d) => d.getModuleSpecifierValue() === from && !d.isTypeOnly());
  const local = decls.map((d) => d.getDefaultImport()?.getText()).find((l) => l !== undefined) ?? identifierFor(name);

  const removed: Array<{ start: number; end: number }> = [];
  const splices: Splice[] = [];
  const calls = await findCalls(sf, (chain, call) => {
    const arg = call.getArguments()[0];
    return chain.length === 2 && chain[1] === 'additive' && arg !== undefined && Node.isIdentifier(arg) && arg.getText() === local;
  });
  for (const call of calls) {
    const st = call.getParentIfKind(SyntaxKind.ExpressionStatement);
    if (!st) continue;
    removed.push({ start: st.getStart(), end: st.getEnd() });
    splices.push(removalRange(text, st.getStart(), st.getEnd()));
  }
  for (const decl of decls) {
    if (decl.getNamedImports().length > 0 || decl.getNamespaceImport() || decl.getDefaultImport()?.getText() !== local) continue;
    const stillUsed = sf
      .getDescendantsOfKind(SyntaxKind.Identifier)
      .some((id) => id.getText() === local && !id.getFirstAncestorByKind(SyntaxKind.ImportDeclaration) && !removed.some((r) => id.getStart() >= r.start && id.getEnd() <= r.end));
    if (!stillUsed) splices.push(removalRange(text, decl.getStart(), decl.getEnd()));
  }
  if (splices.length === 0) return { changed: false, text };
  return { changed: true, text: applySplices(text, splices) };
}
