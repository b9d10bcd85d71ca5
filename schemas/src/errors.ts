import type * as z from 'zod';
import { choiceHint, closest } from './suggest.js';
import { allowedKeysOf } from './strict.js';

/** Where in a file a key or an error is: 1-based line, and column when known. */
export interface TextPosition {
  readonly line: number;
  readonly column?: number;
}

/** One thing wrong with a config value, already rendered as a user-facing line. */
export interface ConfigProblem {
  /** Where the value came from (a file name, `environment`, `defaults`), when known. */
  readonly source: string | undefined;
  /** Dotted key path, e.g. `APP_FRONTEND.framework` or `frontend.framework`. */
  readonly path: string;
  /** The value received, rendered (JSON-ish, `nothing` when missing, `<redacted>` for secrets). */
  readonly got: string;
  /** What would have been allowed. */
  readonly expected: string;
  /** Where in the source file the key (or the error) is, when known. */
  readonly at?: TextPosition;
  /**
   * `<source>[:<line>[:<column>]]: <path>: got <got>; expected <expected>` (without the source when
   * unknown); an unknown key reads `<source>: <path>: unknown key; <expected>`.
   */
  readonly line: string;
}

/** Thrown by every `parse*` function of `@fw/schemas`; its message lists every problem, one per line. */
export class ConfigValidationError extends Error {
  /** The problems, in the order zod found them. */
  readonly problems: readonly ConfigProblem[];

  constructor(problems: readonly ConfigProblem[]) {
    super(problems.map((p) => p.line).join('\n'));
    this.name = 'ConfigValidationError';
    this.problems = problems;
  }
}

/** Key names whose values are never printed in an error. */
export const SECRET_KEY_PATTERN = /SECRET|PASSWORD|TOKEN|KEY$/i;

const MAX_VALUE_CHARS = 80;

/** Renders a key path: `['APP_FRONTEND', 'framework']` → `APP_FRONTEND.framework`, indices as `[0]`. */
export function formatPath(segments: readonly PropertyKey[], root?: string): string {
  let out = root ?? '';
  for (const seg of segments) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? String(seg) : `.${String(seg)}`;
  }
  return out === '' ? '(top level)' : out;
}

/** True when a value at this path must not be printed (any segment looks like a secret's name). */
export function isSecretPath(segments: readonly PropertyKey[], root?: string): boolean {
  const names = root === undefined ? segments : [root, ...segments];
  return names.some((s) => typeof s === 'string' && SECRET_KEY_PATTERN.test(s));
}

/** Hides the password part of `scheme://user:password@host` URLs inside a rendered value. */
function maskUrlPasswords(text: string): string {
  return text.replace(/(\/\/[^/\s:@"]*:)[^@\s"/]+@/g, '$1<redacted>@');
}

/** Renders a received value for an error line: short, JSON-like, never a secret. */
export function formatValue(value: unknown, secret = false): string {
  if (value === undefined) return 'nothing';
  if (secret) return '<redacted>';
  let text: string;
  if (typeof value === 'bigint' || typeof value === 'symbol' || typeof value === 'function') {
    text = String(value);
  } else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  text = maskUrlPasswords(text);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

/** Reads the value at a zod issue path inside the parsed input (undefined when absent). */
export function valueAt(input: unknown, segments: readonly PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const seg of segments) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}

const TYPE_NAMES: Record<string, string> = {
  boolean: 'a boolean (true or false)',
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  object: 'an object',
  array: 'a list',
  record: 'an object',
  null: 'null',
};

function listValues(values: readonly unknown[]): string {
  if (values.length === 1) return JSON.stringify(values[0]);
  return `one of ${values.map((v) => String(v)).join(', ')}`;
}

function sizeText(origin: string, bound: number | bigint, inclusive: boolean | undefined, dir: 'min' | 'max'): string {
  const n = Number(bound);
  if (origin === 'string') {
    if (dir === 'min') return n === 1 ? 'a non-empty string' : `a string of at least ${n} characters`;
    return `a string of at most ${n} characters`;
  }
  if (origin === 'array' || origin === 'set') {
    return dir === 'min' ? `a list of at least ${n} items` : `a list of at most ${n} items`;
  }
  if (dir === 'min') {
    if (n === 0 && !inclusive) return 'a positive number';
    return inclusive === false ? `a number greater than ${n}` : `a number of at least ${n}`;
  }
  return inclusive === false ? `a number less than ${n}` : `a number of at most ${n}`;
}

/** A did-you-mean when a string was given where one of a few strings was expected (`"htmz"` → htmx). */
function nearChoice(given: unknown, choices: readonly unknown[]): string {
  if (typeof given !== 'string' || !choices.every((c): c is string => typeof c === 'string')) return '';
  return choiceHint(given, choices);
}

/** True when an enum value or a union's discriminator is absent (the issue is about a missing key). */
function isMissingChoice(issue: z.core.$ZodRawIssue): boolean {
  if (issue.code === 'invalid_value') return issue.input === undefined;
  if (issue.code !== 'invalid_union') return false;
  const key = 'discriminator' in issue ? issue.discriminator : undefined;
  if (typeof key !== 'string') return issue.input === undefined;
  return valueAt(issue.input, [key]) === undefined;
}

/**
 * The per-parse zod error map every parser in this package uses: it renders an issue as the
 * "expected" half of an error line. Schema-level `error` texts take precedence over it.
 */
export const expectedText: z.core.$ZodErrorMap = (issue) => {
  const missing = issue.input === undefined && issue.code === 'invalid_type';
  let text: string;
  switch (issue.code) {
    case 'invalid_type':
      text = TYPE_NAMES[issue.expected] ?? `a ${issue.expected}`;
      break;
    case 'invalid_value':
      text = listValues(issue.values) + nearChoice(issue.input, issue.values);
      break;
    case 'invalid_union': {
      const options: unknown = 'options' in issue ? issue.options : undefined;
      const key = 'discriminator' in issue ? issue.discriminator : undefined;
      text =
        Array.isArray(options) && options.length > 0
          ? listValues(options) + (typeof key === 'string' ? nearChoice(valueAt(issue.input, [key]), options) : '')
          : 'one of the allowed forms';
      break;
    }
    case 'unrecognized_keys':
      text = 'no such key';
      break;
    case 'too_small':
      text = sizeText(issue.origin, issue.minimum, issue.inclusive, 'min');
      break;
    case 'too_big':
      text = sizeText(issue.origin, issue.maximum, issue.inclusive, 'max');
      break;
    case 'invalid_format':
      text = issue.format === 'regex' && issue.pattern ? `text matching ${issue.pattern}` : `a valid ${issue.format}`;
      break;
    case 'not_multiple_of':
      text = `a multiple of ${String(issue.divisor)}`;
      break;
    case 'invalid_key':
      text = 'a valid key';
      break;
    case 'invalid_element':
      text = 'a valid element';
      break;
    default:
      text = 'a valid value';
  }
  return missing || isMissingChoice(issue) ? `${text} (required)` : text;
};

/** Where a problem came from: one name for all, or a name chosen by key path (per config key). */
export type SourceOf = string | ((path: readonly PropertyKey[]) => string | undefined) | undefined;

/** Options of {@link issuesToProblems}. */
export interface ProblemOptions {
  /** The file or layer the value came from; printed first on each line. */
  readonly source?: SourceOf;
  /** A name to prefix every path with (e.g. `frontend` for a bare frontend block). */
  readonly root?: string;
  /** Where the key at a path was written in the source file (line and column in error lines). */
  readonly positionOf?: (path: readonly PropertyKey[]) => TextPosition | undefined;
}

/** The `params` of a custom zod issue that reports a key which is not allowed (its message is the hint). */
export const UNKNOWN_KEY_PARAMS = Object.freeze({ fw: 'unknown-key' });

function isUnknownKeyIssue(issue: z.core.$ZodIssue): boolean {
  return issue.code === 'custom' && (issue.params as { fw?: unknown } | undefined)?.fw === UNKNOWN_KEY_PARAMS.fw;
}

/** The position of the key at `path`, else of the nearest enclosing key. */
function nearestPosition(path: readonly PropertyKey[], positionOf: ProblemOptions['positionOf']): TextPosition | undefined {
  if (!positionOf) return undefined;
  for (let n = path.length; n > 0; n--) {
    const at = positionOf(path.slice(0, n));
    if (at) return at;
  }
  return undefined;
}

/** `fw.json:3:5`, `app.ini:2`, or the source alone. */
export function locate(source: string, at: TextPosition | undefined): string {
  if (at === undefined) return source;
  return at.column === undefined ? `${source}:${at.line}` : `${source}:${at.line}:${at.column}`;
}

function problem(source: string | undefined, path: string, got: string, expected: string, body: string, at?: TextPosition): ConfigProblem {
  const line = source === undefined ? body : `${locate(source, at)}: ${body}`;
  return at === undefined ? { source, path, got, expected, line } : { source, path, got, expected, at, line };
}

/** Builds one problem line from its parts (`at`: where in `source` it is). */
export function makeProblem(
  source: string | undefined,
  path: string,
  got: string,
  expected: string,
  at?: TextPosition,
): ConfigProblem {
  return problem(source, path, got, expected, `${path}: got ${got}; expected ${expected}`, at);
}

/** What {@link makeProblem} puts in `got` for a key that is not allowed where it was written. */
export const UNKNOWN_KEY = 'an unknown key';

/** A key that is not allowed: `<source>: <path>: unknown key; <hint>` (the hint says what would be, with a did-you-mean). */
export function unknownKeyProblem(source: string | undefined, path: string, hint: string, at?: TextPosition): ConfigProblem {
  return problem(source, path, UNKNOWN_KEY, hint, `${path}: unknown key; ${hint}`, at);
}

/** The hint of an unknown key among `allowed`: `did you mean X? (expected only ...)` or the expectation alone. */
export function unknownKeyHint(key: string, allowed: readonly string[], expected: string): string {
  const near = closest(key, allowed);
  return near.length === 0 ? `expected ${expected}` : `did you mean ${near.join(', ')}? (expected ${expected})`;
}

/**
 * Turns zod issues into problem lines `<source>: <path>: got <value>; expected <allowed>`.
 * `input` is what was validated, so the received value can be shown; an unknown key yields one
 * line per key.
 */
export function issuesToProblems(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  options: ProblemOptions = {},
): ConfigProblem[] {
  const { source, root, positionOf } = options;
  const sourceFor = (path: readonly PropertyKey[]): string | undefined =>
    typeof source === 'function' ? source(path) : source;
  const problems: ConfigProblem[] = [];
  for (const issue of issues) {
    const paths: PropertyKey[][] =
      issue.code === 'unrecognized_keys' ? issue.keys.map((k) => [...issue.path, k]) : [[...issue.path]];
    for (const path of paths) {
      const secret = isSecretPath(path, root);
      const at = nearestPosition(path, positionOf);
      if (issue.code === 'unrecognized_keys') {
        const key = String(path.at(-1));
        const allowed = allowedKeysOf(issue.message);
        const hint = allowed ? unknownKeyHint(key, allowed, issue.message) : `expected ${issue.message}`;
        problems.push(unknownKeyProblem(sourceFor(path), formatPath(path, root), hint, at));
        continue;
      }
      if (isUnknownKeyIssue(issue)) {
        problems.push(unknownKeyProblem(sourceFor(path), formatPath(path, root), issue.message, at));
        continue;
      }
      if (issue.code === 'invalid_key') {
        // A bad record key: show the key itself, and what the key schema wanted.
        const expected = issue.issues[0]?.message ?? issue.message;
        problems.push(makeProblem(sourceFor(path), formatPath(path, root), `the key ${formatValue(path.at(-1), secret)}`, expected, at));
        continue;
      }
      problems.push(makeProblem(sourceFor(path), formatPath(path, root), formatValue(valueAt(input, path), secret), issue.message, at));
    }
  }
  return problems;
}
