import { RESERVED_WORDS } from '../additive/names.js';

/** The words of a name: `userProfile`, `user-profile`, `user_profile`, `User profile` → `user`, `profile`. */
export function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

const upperFirst = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

/** `user-profile` → `userProfile`. */
export const camelCase = (name: string): string => words(name).map((w, i) => (i === 0 ? w : upperFirst(w))).join('');

/** `user-profile` → `UserProfile`. */
export const pascalCase = (name: string): string => words(name).map(upperFirst).join('');

/** `userProfile` → `user-profile`. */
export const kebabCase = (name: string): string => words(name).join('-');

/** `contact-us` → `Contact us`: a title or a subject line. */
export const sentenceCase = (name: string): string => upperFirst(words(name).join(' '));

/**
 * The name a generator is given, checked: letters, digits and `-`, `_`, `.` or spaces between
 * words, starting with a letter, and giving a usable TypeScript identifier. Returns the reason
 * it is not usable, or `undefined`.
 */
export function invalidName(name: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_. -]*$/.test(name)) {
    return `"${name}" is not a usable name: start with a letter, then letters, digits, "-", "_" or "."`;
  }
  const id = camelCase(name);
  if (RESERVED_WORDS.has(id)) return `"${name}" gives the identifier "${id}", a reserved word in JavaScript: choose another name`;
  return undefined;
}

/** A TypeScript string literal of `value` (single quotes, as the project's prettier config writes them). */
export const tsString = (value: string): string => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n')}'`;
