import { identifierFor } from '../codemods/names.js';

/** The app file the Additives are registered in. */
export const APP_FILE = 'fluid/app.ts';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The module `fluid/app.ts` imports the Additive `name` from (by its identifier), if it does. */
function importSource(appText: string, name: string): string | undefined {
  const match = new RegExp(`import\\s+${escape(identifierFor(name))}\\s+from\\s+(['"])([^'"]+)\\1`).exec(appText);
  return match?.[2];
}

/**
 * The Additives of `names` that `fluid/app.ts` imports from a package rather than from
 * `../additives/<name>/` (installed by `fw ocean install`): nothing is generated for them.
 */
export function externalAdditives(appText: string | undefined, names: readonly string[]): Set<string> {
  const out = new Set<string>();
  if (appText === undefined) return out;
  for (const name of names) {
    const source = importSource(appText, name);
    if (source !== undefined && !source.startsWith('.')) out.add(name);
  }
  return out;
}

/** Whether `fluid/app.ts` visibly has the local import and the `.additive(<id>)` call of `name` (a cheap text test). */
function looksRegistered(appText: string, name: string): boolean {
  return importSource(appText, name) === `../additives/${name}/index.js` && new RegExp(`\\.additive\\(\\s*${escape(identifierFor(name))}\\s*\\)`).test(appText);
}

/** Whether `fluid/app.ts` mentions the local Additive `name` at all. */
function mentions(appText: string, name: string): boolean {
  return appText.includes(`../additives/${name}/index.js`);
}

/** What {@link reconcileRegistrations} changed. */
export interface RegistrationResult {
  text: string;
  added: string[];
  removed: string[];
}

/**
 * Makes `fluid/app.ts` register exactly the local Additives it should: `register` (each gets
 * `import x from '../additives/<name>/index.js'` + `fluid.additive(x)`) and not `unregister`. The
 * edits are ts-morph codemods (keeping every other byte); ts-morph is loaded only when a cheap
 * text test says an edit may be needed, so a run with nothing to change never loads it. Throws
 * `CodemodAnchorError` with the manual instruction when the `new Fluid(...)` anchor is missing.
 */
export async function reconcileRegistrations(appText: string, register: readonly string[], unregister: readonly string[]): Promise<RegistrationResult> {
  const toAdd = register.filter((n) => !looksRegistered(appText, n));
  const toRemove = unregister.filter((n) => mentions(appText, n));
  const result: RegistrationResult = { text: appText, added: [], removed: [] };
  if (toAdd.length === 0 && toRemove.length === 0) return result;
  const { registerAdditive, unregisterAdditive } = await import('../codemods/index.js');
  for (const name of toRemove) {
    const r = await unregisterAdditive({ path: APP_FILE, text: result.text }, name);
    if (r.changed) result.removed.push(name);
    result.text = r.text;
  }
  for (const name of toAdd) {
    const r = await registerAdditive({ path: APP_FILE, text: result.text }, name);
    if (r.changed) result.added.push(name);
    result.text = r.text;
  }
  return result;
}
