import { builtinModules } from 'node:module';

/** `[true, name]` when the name is allowed, otherwise `[false, reason]`. */
export type NameResult = [true, string] | [false, string];

/** What is wrong with a name and what would be allowed instead. */
export interface NameProblem {
  readonly wrong: string;
  readonly allowed: string;
}

/** Longest npm package name. */
export const MAX_PROJECT_NAME_LENGTH = 214;

/** Longest Additive name (it becomes a folder, a URL segment and part of identifiers). */
export const MAX_ADDITIVE_NAME_LENGTH = 64;

/** Paths an Additive may not take, because the kernel serves them itself. */
export const RESERVED_ADDITIVE_NAMES: readonly string[] = [
  'fluid',
  'api',
  'ws',
  'static',
  'frontend',
  'vite-dev',
  'additives',
  'node_modules',
];

/** Names npm itself refuses. */
const RESERVED_PACKAGE_NAMES: readonly string[] = ['node_modules', 'favicon.ico'];

/** JavaScript reserved words (including strict-mode and contextual ones that break generated code). */
export const JS_RESERVED_WORDS: readonly string[] = [
  'arguments', 'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default',
  'delete', 'do', 'else', 'enum', 'eval', 'export', 'extends', 'false', 'finally', 'for', 'function',
  'if', 'implements', 'import', 'in', 'instanceof', 'interface', 'let', 'new', 'null', 'package',
  'private', 'protected', 'public', 'return', 'static', 'super', 'switch', 'this', 'throw', 'true',
  'try', 'typeof', 'undefined', 'var', 'void', 'while', 'with', 'yield',
];

const PROJECT_EXAMPLE = 'such as "my-app"';
const ADDITIVE_EXAMPLE = 'such as "blog"';

/** `null`, `a number`, `an object`, `a list`, `missing`: what a non-string name is. */
function describeNonString(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  const t = typeof value;
  return /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`;
}

function pathProblem(name: string, example: string): NameProblem | undefined {
  if (name.includes('/') || name.includes('\\')) {
    return { wrong: 'contains a path separator', allowed: `a single name without "/" or "\\", ${example}` };
  }
  if (name.includes('..')) return { wrong: 'contains ".."', allowed: `a single name without "..", ${example}` };
  return undefined;
}

/** The first problem with a project name under npm's package-name rules, or undefined when fine. */
export function projectNameProblem(name: unknown): NameProblem | undefined {
  if (typeof name !== 'string') return { wrong: `is ${describeNonString(name)}`, allowed: `a string, ${PROJECT_EXAMPLE}` };
  if (name === '') return { wrong: 'is empty', allowed: `a non-empty name, ${PROJECT_EXAMPLE}` };
  if (name.trim() !== name) {
    return { wrong: 'starts or ends with whitespace', allowed: `a name without surrounding spaces, ${PROJECT_EXAMPLE}` };
  }
  const path = pathProblem(name, PROJECT_EXAMPLE);
  if (path) return path;
  if (name.length > MAX_PROJECT_NAME_LENGTH) {
    return { wrong: `is ${name.length} characters long`, allowed: `at most ${MAX_PROJECT_NAME_LENGTH} characters` };
  }
  if (name.startsWith('.') || name.startsWith('_')) {
    return { wrong: `starts with "${name[0]}"`, allowed: `a name starting with a lowercase letter or digit, ${PROJECT_EXAMPLE}` };
  }
  if (name !== name.toLowerCase()) {
    // Suggest the lowercase name only when it is itself valid ("Foo!" would suggest "foo!").
    const lower = name.toLowerCase();
    const example = projectNameProblem(lower) === undefined ? `such as ${JSON.stringify(lower)}` : PROJECT_EXAMPLE;
    return { wrong: 'contains uppercase letters', allowed: `a lowercase name (npm forbids uppercase), ${example}` };
  }
  const bad = [...name].find((c) => !/[a-z0-9._-]/.test(c));
  if (bad !== undefined) {
    return {
      wrong: `contains ${JSON.stringify(bad)}`,
      allowed: `only lowercase letters, digits, "-", "." and "_" (npm package name rules), ${PROJECT_EXAMPLE}`,
    };
  }
  if (name.startsWith('-')) {
    return { wrong: 'starts with "-"', allowed: `a name starting with a lowercase letter or digit, ${PROJECT_EXAMPLE}` };
  }
  if (RESERVED_PACKAGE_NAMES.includes(name)) {
    return { wrong: 'is reserved by npm', allowed: `any name except ${RESERVED_PACKAGE_NAMES.join(' and ')}` };
  }
  if (builtinModules.includes(name)) {
    return { wrong: 'is the name of a Node.js core module', allowed: `a name that does not shadow a core module, such as "${name}-app"` };
  }
  return undefined;
}

/** The first problem with an Additive name, or undefined when fine. */
export function additiveNameProblem(name: unknown): NameProblem | undefined {
  const shape = `a lowercase name matching ^[a-z][a-z0-9_-]*$, ${ADDITIVE_EXAMPLE}`;
  if (typeof name !== 'string') return { wrong: `is ${describeNonString(name)}`, allowed: shape };
  if (name === '') return { wrong: 'is empty', allowed: shape };
  const path = pathProblem(name, ADDITIVE_EXAMPLE);
  if (path) return path;
  if (name.length > MAX_ADDITIVE_NAME_LENGTH) {
    return { wrong: `is ${name.length} characters long`, allowed: `at most ${MAX_ADDITIVE_NAME_LENGTH} characters` };
  }
  if (name !== name.toLowerCase() && /^[A-Za-z][A-Za-z0-9_-]*$/.test(name)) {
    return { wrong: 'contains uppercase letters', allowed: `a lowercase name, such as ${JSON.stringify(name.toLowerCase())}` };
  }
  if (!/^[a-z]/.test(name)) return { wrong: `starts with ${JSON.stringify(name[0])}`, allowed: shape };
  const bad = [...name].find((c) => !/[a-z0-9_-]/.test(c));
  if (bad !== undefined) return { wrong: `contains ${JSON.stringify(bad)}`, allowed: shape };
  if (RESERVED_ADDITIVE_NAMES.includes(name)) {
    return { wrong: 'is a path the kernel reserves', allowed: `any name except ${RESERVED_ADDITIVE_NAMES.join(', ')}` };
  }
  if (JS_RESERVED_WORDS.includes(name)) {
    return { wrong: 'is a JavaScript reserved word', allowed: `a name that is not a reserved word, such as "my-${name}"` };
  }
  return undefined;
}

function toResult(kind: string, name: unknown, problem: NameProblem | undefined): NameResult {
  if (problem === undefined) return [true, name as string];
  const shown = JSON.stringify(name) ?? String(name);
  return [false, `${kind} ${shown} ${problem.wrong}; expected ${problem.allowed}`];
}

/**
 * Validates a project name against npm's package-name rules, plus: no path separators, no `..`.
 * `[false, reason]` says what is wrong and what is allowed, e.g.
 * `project name "../x" contains a path separator; expected a single name without "/" or "\", such as "my-app"`.
 */
export function validateProjectName(name: unknown): NameResult {
  return toResult('project name', name, projectNameProblem(name));
}

/**
 * Validates an Additive name: `^[a-z][a-z0-9_-]*$`, at most 64 characters, not a path the kernel
 * reserves (`fluid`, `api`, `ws`, `static`, `frontend`, `vite-dev`, `additives`, `node_modules`)
 * and not a JavaScript reserved word.
 */
export function validateAdditiveName(name: unknown): NameResult {
  return toResult('additive name', name, additiveNameProblem(name));
}
