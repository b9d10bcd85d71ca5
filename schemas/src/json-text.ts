/**
 * Reading a JSON config file (`fw.json`, an Additive's `manifest.json`) the way a person wants it
 * read: a UTF-8 byte-order mark is accepted, a syntax error names the line and column, and a key
 * written twice in one object is an error naming both lines (`JSON.parse` silently keeps the
 * last one). jsonc-parser's scanner finds the positions; `JSON.parse` builds the value, so the
 * value is exactly what any JSON reader gets.
 */
import { visit, type JSONPath } from 'jsonc-parser';
import { ConfigValidationError, formatPath, makeProblem, type ConfigProblem, type TextPosition } from './errors.js';

/** A parsed JSON file: its value and where each key of it was written. */
export interface ParsedJsonText {
  /** The parsed value (as `JSON.parse` gives it). */
  readonly value: unknown;
  /** Where the key at `path` was written (1-based line and column), for error lines. */
  positionOf(path: readonly PropertyKey[]): TextPosition | undefined;
}

/** What each of jsonc-parser's error codes means, in words (its `ParseErrorCode` numbers). */
const SYNTAX: Readonly<Record<number, string>> = {
  1: 'an unexpected character',
  2: 'an invalid number',
  3: 'a property name in double quotes',
  4: 'a value',
  5: 'a ":" after the property name',
  6: 'a "," between two entries',
  7: 'a "}" closing the object',
  8: 'a "]" closing the list',
  9: 'the end of the file after the value',
  10: 'no comment (JSON has no comments)',
  11: 'the end of the comment',
  12: 'the closing double quote of the string',
  13: 'the rest of the number',
  14: 'a valid \\u escape',
  15: 'a valid escape (\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX)',
  16: 'no control character inside a string (escape it)',
};

const pathKey = (path: readonly PropertyKey[]): string => JSON.stringify(path.map(String));

/** The 1-based line and column of a character offset. */
function positionAt(text: string, offset: number): TextPosition {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/** `"got"` half of a syntax error: the text at the error, shortened. */
function excerpt(text: string, offset: number): string {
  if (offset >= text.length) return 'the end of the file';
  const rest = text.slice(offset).split(/\r?\n/)[0] ?? '';
  return JSON.stringify(rest.length > 20 ? `${rest.slice(0, 19)}…` : rest);
}

const VALUE = 'a value (a string in double quotes, a number, true, false, null, an object or a list)';

/**
 * A syntax error: `<file>:<line>:<column>: not valid JSON: got <text>; expected <what>`. `inObject`:
 * the innermost open container is an object (so a bad symbol there is where a key belongs).
 */
function syntaxError(text: string, file: string, code: number, offset: number, inObject: boolean): ConfigValidationError {
  const at = positionAt(text, offset);
  let expected = SYNTAX[code] ?? 'valid JSON';
  const before = text.slice(0, offset).trimEnd();
  if ((code === 3 || code === 4) && before.endsWith(',') && /^[}\]]/.test(text.slice(offset))) {
    expected = 'no "," after the last entry (JSON has no trailing commas)';
  } else if (code === 1 && text[offset] === "'") {
    expected = 'double quotes (JSON strings and keys use ", not \')';
  } else if (code === 1 || code === 4) {
    expected = inObject && !before.endsWith(':') ? SYNTAX[3]! : VALUE;
  }
  return new ConfigValidationError([makeProblem(file, 'not valid JSON', excerpt(text, offset), expected, at)]);
}

/**
 * Parses the text of a JSON config file named `file` (shown in every error). Drops a leading
 * UTF-8 byte-order mark. Throws {@link ConfigValidationError}: a syntax error as
 * `fw.json:3:5: not valid JSON: got "}"; expected a value`, a repeated key as
 * `fw.json:7:5: config.DEBUG: got a second "DEBUG"; expected each key once (first at line 4, column 5)`.
 */
export function parseJsonText(text: string, file: string): ParsedJsonText {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const positions = new Map<string, TextPosition>();
  const objects: Map<string, TextPosition>[] = [];
  const open: ('object' | 'array')[] = [];
  const problems: ConfigProblem[] = [];
  let syntax: ConfigValidationError | undefined;
  visit(
    source,
    {
      onObjectBegin: () => {
        objects.push(new Map());
        open.push('object');
      },
      onObjectEnd: () => {
        objects.pop();
        open.pop();
      },
      onArrayBegin: () => {
        open.push('array');
      },
      onArrayEnd: () => {
        open.pop();
      },
      onObjectProperty: (property: string, _offset: number, _length: number, line: number, character: number, pathSupplier: () => JSONPath) => {
        const at = { line: line + 1, column: character + 1 };
        const path = [...pathSupplier(), property];
        const seen = objects.at(-1);
        const first = seen?.get(property);
        if (first) {
          problems.push(
            makeProblem(file, formatPath(path), `a second ${JSON.stringify(property)}`, `each key once (first at line ${first.line}, column ${first.column}; JSON keeps only the last)`, at),
          );
        } else {
          seen?.set(property, at);
          positions.set(pathKey(path), at);
        }
      },
      onError: (code: number, offset: number) => {
        syntax ??= syntaxError(source, file, code, offset, open.at(-1) === 'object');
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
  if (syntax) throw syntax;
  if (problems.length > 0) throw new ConfigValidationError(problems);
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    // The scanner accepted something JSON.parse does not (a rare number form): name its position.
    const message = error instanceof Error ? error.message : String(error);
    const offset = Number(/position (\d+)/.exec(message)?.[1] ?? 0);
    throw new ConfigValidationError([makeProblem(file, 'not valid JSON', excerpt(source, offset), `valid JSON (${message})`, positionAt(source, offset))]);
  }
  return { value, positionOf: (path) => positions.get(pathKey(path)) };
}
