import type { Node as TsNode, SourceFile, Statement } from 'ts-morph';
import { tsMorph } from './source.js';

/** Where registrations go: the top-level variable holding `new <className>(...)`. */
export interface Anchor {
  /** The variable's name, e.g. `fluid`. */
  name: string;
  /** The statement declaring it (`export const fluid = new Fluid(...);`). */
  statement: Statement;
}

/** Finds the top-level `const x = new Fluid(...)` (or `new Additive(...)`) declaration. */
export async function findAnchor(sf: SourceFile, className: string): Promise<Anchor | undefined> {
  const { Node } = await tsMorph();
  for (const statement of sf.getVariableStatements()) {
    for (const decl of statement.getDeclarations()) {
      let init: TsNode | undefined = decl.getInitializer();
      while (init && (Node.isAsExpression(init) || Node.isSatisfiesExpression(init) || Node.isParenthesizedExpression(init))) {
        init = init.getExpression();
      }
      if (init && Node.isNewExpression(init) && init.getExpression().getText() === className) {
        return { name: decl.getName(), statement };
      }
    }
  }
  return undefined;
}

/** How the manual instruction names the anchor: "the `const fluid = new Fluid(...)`". */
export function anchorLabel(className: string, variable: string): string {
  return `the \`const ${variable} = new ${className}(...)\``;
}
