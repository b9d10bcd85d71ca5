import { applyEdits, findNodeAtLocation, modify, parse, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { CliError } from '../cli/errors.js';
import { DEFAULT_PRETTIER_OPTIONS } from '../pipeline/format.js';

/** The indentation and line ending a JSON file (`fw.json`, `package.json`) already uses, so an edit looks like the rest of the file. */
export function styleOf(text: string): { insertSpaces: boolean; tabSize: number; eol: string } {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
  return { insertSpaces: !indent.startsWith('\t'), tabSize: indent.startsWith('\t') ? 1 : indent.length, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

/**
 * `fw.json` text with its `additives` list replaced by `edit(list)`, edited in place with
 * jsonc-parser: every other byte (key order, spacing, comments, line endings) stays as the user
 * wrote it. Returns the text unchanged when the list is unchanged.
 */
export function editAdditives(original: string, edit: (list: readonly string[]) => string[]): string {
  // A byte-order mark stays where it is, outside the edit.
  const bom = original.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
  const text = bom ? original.slice(1) : original;
  const errors: ParseError[] = [];
  const json = parse(text, errors, { allowTrailingComma: false }) as { additives?: unknown } | undefined;
  const first = errors[0];
  if (first) throw new CliError(`fw.json is not valid JSON: ${printParseErrorCode(first.error)} at offset ${first.offset}`);
  const list = Array.isArray(json?.additives) ? json.additives.filter((a): a is string => typeof a === 'string') : [];
  const next = edit(list);
  if (next.length === list.length && next.every((name, i) => name === list[i])) return original;
  // A one-line (minified) file gets minimal edits; otherwise jsonc-parser lays out the lines it
  // touches in the file's own indentation, and leaves every other line alone.
  const multiline = text.trim().includes('\n');
  const inline = multiline ? inlineList(text, next) : undefined;
  if (inline !== undefined) return bom + inline;
  const format = multiline ? { formattingOptions: styleOf(text) } : {};
  const removed = list.filter((name) => !next.includes(name));
  const added = next.filter((name) => !list.includes(name));
  let out = text;
  const array = Array.isArray(json?.additives) ? (json.additives as unknown[]) : undefined;
  if (array && removed.length === 0 && list.every((name, i) => next[i] === name)) {
    for (const [i, name] of added.entries()) {
      out = applyEdits(out, modify(out, ['additives', array.length + i], name, { ...format, isArrayInsertion: true }));
    }
    return bom + out;
  }
  if (array && added.length === 0) {
    for (let i = array.length - 1; i >= 0; i--) {
      if (typeof array[i] === 'string' && removed.includes(array[i] as string)) out = applyEdits(out, modify(out, ['additives', i], undefined, format));
    }
    return bom + out;
  }
  return bom + applyEdits(out, modify(out, ['additives'], next, format));
}

/**
 * A list written on one line (`"additives": []`, as the project blueprint writes it) stays on one
 * line, `["a", "b"]`, as prettier prints a short array: a file fw created stays prettier-clean.
 * `undefined` when the list spans lines or holds comments, or the line would be longer than
 * prettier's print width (then prettier breaks it, one item a line, as jsonc-parser lays it out).
 */
function inlineList(text: string, next: readonly string[]): string | undefined {
  const tree = parseTree(text);
  const node = tree && findNodeAtLocation(tree, ['additives']);
  if (node?.type !== 'array') return undefined;
  const written = text.slice(node.offset, node.offset + node.length);
  if (written.includes('\n') || !isPlainJson(written)) return undefined; // a comment inside: edit in place
  const out = text.slice(0, node.offset) + `[${next.map((name) => JSON.stringify(name)).join(', ')}]` + text.slice(node.offset + node.length);
  const start = out.lastIndexOf('\n', node.offset) + 1;
  const end = out.indexOf('\n', node.offset);
  const line = out.slice(start, end < 0 ? undefined : end).replace(/\r$/, '');
  return line.length <= DEFAULT_PRETTIER_OPTIONS.printWidth ? out : undefined;
}

function isPlainJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
