import type { SourceFile } from 'ts-morph';
import { eolOf, indentAt, lineEnd, quoteOf, type Splice } from './source.js';

/** Result of ensuring an import: the local name to use, and the splice to make when it was missing. */
export interface ImportEdit {
  local: string;
  splice?: Splice;
  /** The import statement as it would be written, for manual instructions. */
  statement: string;
}

function newImport(sf: SourceFile, text: string, clause: string, from: string, semi: string): { splice: Splice; statement: string } {
  const q = quoteOf(sf);
  const statement = `import ${clause} from ${q}${from}${q}${semi}`;
  const imports = sf.getImportDeclarations();
  const last = imports.at(-1);
  if (last) {
    const at = lineEnd(text, last.getEnd());
    return { splice: { start: at, end: at, text: `${eolOf(text)}${indentAt(text, last.getStart())}${statement}` }, statement };
  }
  const first = sf.getStatements()[0];
  const at = first ? first.getStart() : text.length;
  const eol = eolOf(text);
  return { splice: { start: at, end: at, text: first ? `${statement}${eol}${eol}` : `${statement}${eol}` }, statement };
}

/**
 * Ensures `import <local> from '<from>'`. An existing default import of that module is reused
 * under whatever name the user gave it; otherwise a new declaration goes after the last import
 * (or at the top), in the file's quote style.
 */
export function ensureDefaultImport(sf: SourceFile, text: string, local: string, from: string, semi: string): ImportEdit {
  for (const decl of sf.getImportDeclarations()) {
    if (decl.getModuleSpecifierValue() !== from || decl.isTypeOnly()) continue;
    const existing = decl.getDefaultImport();
    if (existing) return { local: existing.getText(), statement: decl.getText() };
  }
  return { local, ...newImport(sf, text, local, from, semi) };
}

/**
 * Ensures `import { <name> } from '<from>'`: adds the name to an existing `{ ... }` import of that
 * module (after its last element), or writes a new import declaration.
 */
export function ensureNamedImport(sf: SourceFile, text: string, name: string, from: string, semi: string): ImportEdit {
  for (const decl of sf.getImportDeclarations()) {
    if (decl.getModuleSpecifierValue() !== from || decl.isTypeOnly()) continue;
    const found = decl.getNamedImports().find((n) => (n.getAliasNode()?.getText() ?? n.getName()) === name && !n.isTypeOnly());
    if (found) return { local: name, statement: decl.getText() };
  }
  for (const decl of sf.getImportDeclarations()) {
    if (decl.getModuleSpecifierValue() !== from || decl.isTypeOnly()) continue;
    const last = decl.getNamedImports().at(-1);
    if (last) return { local: name, splice: { start: last.getEnd(), end: last.getEnd(), text: `, ${name}` }, statement: decl.getText() };
  }
  return { local: name, ...newImport(sf, text, `{ ${name} }`, from, semi) };
}
