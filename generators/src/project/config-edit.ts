import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { CliError } from '../cli/errors.js';

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
  const format = text.trim().includes('\n') ? { formattingOptions: styleOf(text) } : {};
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
