import type { Identifier, ImportDeclaration, Node as TsNode, SourceFile } from 'ts-morph';
import { eolOf, indentAt, lineEnd, quoteOf, tsMorph, type Splice } from './source.js';

/** Result of ensuring an import: the local name to use, and the splice to make when it was missing. */
export interface ImportEdit {
  local: string;
  splice?: Splice;
  /** The import statement as it would be written, for manual instructions. */
  statement: string;
}

/** The value (not type-only) import declarations of `from`. */
export function importsOf(sf: SourceFile, from: string): ImportDeclaration[] {
  return sf.getImportDeclarations().filter((d) => d.getModuleSpecifierValue() === from && !d.isTypeOnly());
}

/**
 * Whether the identifier only names a member or a label, so it binds nothing in the file's scopes:
 * `fluid.events` (a property), `{ db: 1 }` (a key), `import { x as y }` (x), `import.meta`.
 */
async function isMemberName(id: Identifier): Promise<boolean> {
  const { Node } = await tsMorph();
  const parent: TsNode | undefined = id.getParent();
  if (!parent) return false;
  if (Node.isPropertyAccessExpression(parent) || Node.isMetaProperty(parent)) return parent.getNameNode() === id;
  if (Node.isQualifiedName(parent)) return parent.getRight() === id;
  if (
    Node.isPropertyAssignment(parent) || Node.isPropertyDeclaration(parent) || Node.isPropertySignature(parent) ||
    Node.isMethodDeclaration(parent) || Node.isMethodSignature(parent) || Node.isGetAccessorDeclaration(parent) ||
    Node.isSetAccessorDeclaration(parent) || Node.isEnumMember(parent) || Node.isJsxAttribute(parent)
  ) {
    return parent.getNameNode() === id;
  }
  if (Node.isImportSpecifier(parent)) return parent.getAliasNode() !== undefined && parent.getNameNode() === id;
  if (Node.isExportSpecifier(parent)) return parent.getAliasNode() === id;
  return Node.isLabeledStatement(parent) || Node.isBreakStatement(parent) || Node.isContinueStatement(parent);
}

/**
 * Every name the file uses for anything but a member: declarations in any scope, imports, and
 * references to globals (`console`). A new declaration or import must take none of them.
 */
export async function usedNames(sf: SourceFile): Promise<Set<string>> {
  const { SyntaxKind } = await tsMorph();
  const used = new Set<string>();
  for (const id of sf.getDescendantsOfKind(SyntaxKind.Identifier)) if (!(await isMemberName(id))) used.add(id.getText());
  return used;
}

/**
 * A local name for a new import that clashes with nothing: `wanted` unless the file already uses
 * that name for anything but a member (a declaration in any scope, an import, a reference to a
 * global such as `console`), then `<wanted>Additive`, `<wanted>Additive2`, ...
 */
async function freeLocal(sf: SourceFile, wanted: string): Promise<string> {
  const used = await usedNames(sf);
  if (!used.has(wanted)) return wanted;
  for (let n = 1; ; n++) {
    const candidate = `${wanted}Additive${n === 1 ? '' : n}`;
    if (!used.has(candidate)) return candidate;
  }
}

/**
 * Ensures a default import of `from`. An existing one is reused under whatever name it is bound
 * to (it is recognised by its module specifier, never by a name); otherwise a new declaration goes
 * after the last import (or at the top), in the file's quote style, bound to {@link freeLocal}.
 */
export async function ensureDefaultImport(sf: SourceFile, text: string, wanted: string, from: string, semi: string): Promise<ImportEdit> {
  for (const decl of importsOf(sf, from)) {
    const existing = decl.getDefaultImport();
    if (existing) return { local: existing.getText(), statement: decl.getText() };
  }
  const local = await freeLocal(sf, wanted);
  const q = quoteOf(sf);
  const statement = `import ${local} from ${q}${from}${q}${semi}`;
  const last = sf.getImportDeclarations().at(-1);
  if (last) {
    const at = lineEnd(text, last.getEnd());
    return { local, statement, splice: { start: at, end: at, text: `${eolOf(text)}${indentAt(text, last.getStart())}${statement}` } };
  }
  const first = sf.getStatements()[0];
  const at = first ? first.getStart() : text.length;
  const eol = eolOf(text);
  return { local, statement, splice: { start: at, end: at, text: first ? `${statement}${eol}${eol}` : `${statement}${eol}` } };
}

/**
 * Imports `names` from `from` by name: a name the file already imports from that module (known by
 * its specifier) is kept; the others join its existing named import, or a new import after the
 * last one, in the file's quote style. Returns the splices to make, or the first name the file
 * already uses for something else (then nothing may change).
 */
export async function namedImports(sf: SourceFile, text: string, from: string, names: readonly string[]): Promise<{ splices: Splice[]; taken?: string }> {
  const declarations = importsOf(sf, from);
  const imported = new Set(declarations.flatMap((d) => d.getNamedImports().filter((n) => !n.getAliasNode()).map((n) => n.getName())));
  const missing = names.filter((name) => !imported.has(name));
  if (missing.length === 0) return { splices: [] };
  const used = await usedNames(sf);
  const taken = missing.find((name) => used.has(name));
  if (taken) return { splices: [], taken };
  const lastNamed = declarations.find((d) => d.getNamedImports().length > 0)?.getNamedImports().at(-1);
  if (lastNamed) return { splices: [{ start: lastNamed.getEnd(), end: lastNamed.getEnd(), text: missing.map((name) => `, ${name}`).join('') }] };
  const q = quoteOf(sf);
  const line = `import { ${missing.join(', ')} } from ${q}${from}${q};`;
  const last = sf.getImportDeclarations().at(-1);
  const eol = eolOf(text);
  const at = last ? lineEnd(text, last.getEnd()) : 0;
  return { splices: [{ start: at, end: at, text: last ? `${eol}${line}` : `${line}${eol}${eol}` }] };
}
