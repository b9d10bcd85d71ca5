/** JavaScript's reserved words (ES modules are strict code): never a generated identifier. */
export const RESERVED_WORDS: ReadonlySet<string> = new Set(
  ('break case catch class const continue debugger default delete do else enum export extends false finally for function if ' +
    'import in instanceof new null return super switch this throw true try typeof var void while with yield let static ' +
    'implements interface package private protected public await').split(' '),
);

/** The identifier an additive is imported as: `blog` → `blog`, `blog-posts` → `blogPosts`, `new` → `newAdditive`. */
export function identifierFor(name: string): string {
  const parts = name.split(/[^A-Za-z0-9_$]+/).filter(Boolean);
  let id = parts.map((p, i) => (i === 0 ? p : p.charAt(0).toUpperCase() + p.slice(1))).join('');
  if (id === '') throw new Error(`Cannot derive a TypeScript identifier from the name "${name}"`);
  if (/^[0-9]/.test(id)) id = `_${id}`;
  return RESERVED_WORDS.has(id) ? `${id}Additive` : id;
}

/** Names the additive blueprint's `index.ts` imports: the Additive's own variable must not take one. */
const BLUEPRINT_IMPORTS = new Set(['Additive', 'api', 'app', 'ws', 'afterRequest', 'beforeRequest', 'beforeEnable']);

/**
 * The variable of the Additive in its own `index.ts` (`export const blog = new Additive(...)`):
 * {@link identifierFor}, with `Additive` appended when that would clash with a name the module
 * imports (`app` → `appAdditive`).
 */
export function additiveVariable(name: string): string {
  const id = identifierFor(name);
  return BLUEPRINT_IMPORTS.has(id) ? `${id}Additive` : id;
}
