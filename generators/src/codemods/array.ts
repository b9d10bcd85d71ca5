import type { Node as TsNode } from 'ts-morph';
import { CodemodAnchorError } from './errors.js';
import { ensureNamedImport } from './imports.js';
import { applySplices, eolOf, indentAt, parse, tsMorph, type CodemodResult, type SourceText, type Splice } from './source.js';

/** What {@link ensureArrayElement} adds. */
export interface ArrayElementEdit {
  /** Name of the top-level variable holding the array, e.g. `guards` in `export const guards = [requireUser]`. */
  variable: string;
  /** Identifier to add as an element. */
  element: string;
  /** Module to import the element from (named import); omit when it is defined in the file. */
  from?: string;
}

/**
 * Appends an identifier to the array literal of a top-level `const <variable> = [...]`, keeping
 * the array's layout: on one line it becomes `[a, b]`; a multi-line array gets a new line with the
 * same indentation, and keeps (or not) its trailing comma. Present already → unchanged. No such
 * array → {@link CodemodAnchorError} with the manual instruction.
 */
export async function ensureArrayElement(file: SourceText, edit: ArrayElementEdit): Promise<CodemodResult> {
  const { Node } = await tsMorph();
  const { sf } = await parse(file);
  const text = file.text;
  let array: TsNode | undefined;
  for (const decl of sf.getVariableDeclarations()) {
    if (decl.getName() !== edit.variable) continue;
    let init: TsNode | undefined = decl.getInitializer();
    while (init && (Node.isAsExpression(init) || Node.isSatisfiesExpression(init) || Node.isParenthesizedExpression(init))) init = init.getExpression();
    if (init && Node.isArrayLiteralExpression(init)) array = init;
  }
  if (!array || !Node.isArrayLiteralExpression(array)) {
    throw new CodemodAnchorError(file.path, `Add \`${edit.element}\` to the array \`const ${edit.variable} = [...]\` in ${file.path}`);
  }
  const elements = array.getElements();
  const splices: Splice[] = [];
  if (edit.from) {
    const statement = array.getFirstAncestor((n) => n.getParent() === sf);
    const semi = statement?.getText().trimEnd().endsWith(';') === false ? '' : ';';
    const imp = ensureNamedImport(sf, text, edit.element, edit.from, semi);
    if (imp.splice) splices.push(imp.splice);
  }
  if (!elements.some((e) => Node.isIdentifier(e) && e.getText() === edit.element)) {
    const last = elements.at(-1);
    const open = array.getStart() + 1;
    const close = array.getEnd() - 1;
    if (!last) {
      splices.push({ start: open, end: close, text: edit.element });
    } else {
      const multiline = text.slice(open, elements[0]!.getStart()).includes('\n');
      const tail = text.slice(last.getEnd(), close);
      const trailingComma = tail.trimStart().startsWith(',');
      if (multiline) {
        const at = trailingComma ? last.getEnd() + tail.indexOf(',') + 1 : last.getEnd();
        splices.push({ start: at, end: at, text: `${trailingComma ? '' : ','}${eolOf(text)}${indentAt(text, last.getStart())}${edit.element}${trailingComma ? ',' : ''}` });
      } else {
        splices.push({ start: last.getEnd(), end: last.getEnd(), text: `, ${edit.element}` });
      }
    }
  }
  if (splices.length === 0) return { changed: false, text };
  return { changed: true, text: applySplices(text, splices) };
}
