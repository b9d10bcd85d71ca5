import type { SourceFile } from 'ts-morph';

/** A TypeScript file to edit: its project-relative path (for messages) and its text. */
export interface SourceText {
  path: string;
  text: string;
}

/** What a codemod did: `changed` is false when the edit was already there (the text is then the input, byte for byte). */
export interface CodemodResult {
  changed: boolean;
  text: string;
}

/** One text insertion or deletion at offsets of the original text. */
export interface Splice {
  start: number;
  end: number;
  text: string;
}

type TsMorph = typeof import('ts-morph');
let loaded: Promise<TsMorph> | undefined;

/** Loads ts-morph on first use only, so commands that never edit TypeScript do not pay for it. */
export function tsMorph(): Promise<TsMorph> {
  loaded ??= import('ts-morph');
  return loaded;
}

/** Parses the text into a ts-morph SourceFile held in memory (nothing is read from or written to disk). */
export async function parse(file: SourceText): Promise<{ sf: SourceFile; morph: TsMorph }> {
  const morph = await tsMorph();
  // noLib: symbols are resolved within the file only (imports, declarations, scopes); the
  // standard library is never loaded.
  const project = new morph.Project({ useInMemoryFileSystem: true, compilerOptions: { allowJs: true, noLib: true } });
  const name = file.path.endsWith('.ts') || file.path.endsWith('.tsx') || file.path.endsWith('.js') ? file.path : `${file.path}.ts`;
  const sf = project.createSourceFile(`/${name.replace(/^\/+/, '')}`, file.text, { overwrite: true });
  return { sf, morph };
}

/** Applies splices (offsets in the original text) from last to first; the rest of the text is untouched. */
export function applySplices(text: string, splices: readonly Splice[]): string {
  let out = text;
  for (const s of [...splices].sort((a, b) => b.start - a.start || b.end - a.end)) {
    out = out.slice(0, s.start) + s.text + out.slice(s.end);
  }
  return out;
}

/** The file's line break: `\r\n` when its first line break is CRLF, else `\n`. */
export function eolOf(text: string): string {
  const i = text.indexOf('\n');
  return i > 0 && text[i - 1] === '\r' ? '\r\n' : '\n';
}

/** Offset of the end of the line holding `pos` (before its line break), so trailing comments stay on their line. */
export function lineEnd(text: string, pos: number): number {
  const nl = text.indexOf('\n', pos);
  if (nl === -1) return text.length;
  return nl > 0 && text[nl - 1] === '\r' ? nl - 1 : nl;
}

/** Offset of the start of the line holding `pos`. */
export function lineStart(text: string, pos: number): number {
  return text.lastIndexOf('\n', pos - 1) + 1;
}

/** The leading whitespace of the line holding `pos`. */
export function indentAt(text: string, pos: number): string {
  const start = lineStart(text, pos);
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
}

/**
 * The range that removes a node's statement: its whole line(s) including the line break when
 * nothing else shares them, otherwise the statement alone.
 */
export function removalRange(text: string, start: number, end: number): Splice {
  const ls = lineStart(text, start);
  const le = lineEnd(text, end);
  const before = text.slice(ls, start);
  const after = text.slice(end, le);
  if (before.trim() === '' && after.trim() === '') {
    const nlLen = text.startsWith('\r\n', le) ? 2 : text[le] === '\n' ? 1 : 0;
    // At the end of a file without a final newline, take the line break before the statement instead.
    if (nlLen === 0 && ls > 0) {
      const prev = text[ls - 2] === '\r' ? ls - 2 : ls - 1;
      return { start: prev, end: le, text: '' };
    }
    return { start: ls, end: le + nlLen, text: '' };
  }
  return { start, end, text: '' };
}

/** The quote the file uses for module specifiers (from its first import), default single. */
export function quoteOf(sf: SourceFile): string {
  const first = sf.getImportDeclarations()[0];
  return first?.getModuleSpecifier().getText().startsWith('"') ? '"' : "'";
}
