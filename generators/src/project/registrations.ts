import { identifierFor } from '../additive/names.js';

/** The app file the Additives are registered in. */
export const APP_FILE = 'fluid/app.ts';

/** The module `fluid/app.ts` imports the local Additive `name` from. */
function localImportPath(name: string): string {
  return `../additives/${name}/index.js`;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every default import of the app file, `local → module specifier` (a text scan: a cheap check, not the codemod). */
function defaultImports(appText: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of appText.matchAll(/^\s*import\s+([A-Za-z_$][\w$]*)\s+from\s+(['"])([^'"]+)\2/gm)) out.set(m[1]!, m[3]!);
  return out;
}

/**
 * The Additives of `names` that `fluid/app.ts` registers from a package rather than from
 * `../additives/<name>/` (installed by `fw ocean install`): nothing is generated for them. Such an
 * Additive is a bare module specifier registered with `.additive(x)` whose package is named after
 * it (`@fw/additive-blog`) or that is bound to its identifier; never one the app imports locally.
 */
export function externalAdditives(appText: string | undefined, names: readonly string[]): Set<string> {
  return new Set(names.filter((name) => externalAdditivePackage(appText, name) !== undefined));
}

/**
 * The package `fluid/app.ts` registers the Additive `name` from when it was installed from npm
 * (see {@link externalAdditives}), e.g. `@fw/additive-health`; `undefined` for a local one.
 */
export function externalAdditivePackage(appText: string | undefined, name: string): string | undefined {
  if (appText === undefined) return undefined;
  const imports = defaultImports(appText);
  if (new Set(imports.values()).has(localImportPath(name))) return undefined;
  const named = new RegExp(`(^|[/-])${escape(name)}$`);
  for (const [id, specifier] of imports) {
    if (specifier.startsWith('.') || !new RegExp(`\\.additive\\(\\s*${escape(id)}\\s*\\)`).test(appText)) continue;
    if (id === identifierFor(name) || named.test(specifier)) return specifier;
  }
  return undefined;
}

/**
 * The local Additives `fluid/app.ts` visibly registers: an import of `../additives/<name>/index.js`
 * (by specifier, whatever local name it is bound to) and a `.additive(<that name>)` call. A cheap
 * text test that decides whether the codemod (and ts-morph) is needed at all.
 */
function registeredLocally(appText: string): Set<string> {
  const called = new Set([...appText.matchAll(/\.additive\(\s*([A-Za-z_$][\w$]*)\s*\)/g)].map((m) => m[1]!));
  const out = new Set<string>();
  for (const [local, specifier] of defaultImports(appText)) {
    const name = /^\.\.\/additives\/([^/]+)\/index\.js$/.exec(specifier)?.[1];
    if (name !== undefined && called.has(local)) out.add(name);
  }
  return out;
}

/** Whether `fluid/app.ts` mentions the local Additive `name`'s module at all. */
export function mentions(appText: string, name: string): boolean {
  return appText.includes(localImportPath(name));
}

/** What {@link reconcileRegistrations} changed. */
export interface RegistrationResult {
  text: string;
  added: string[];
  removed: string[];
}

/**
 * Makes `fluid/app.ts` register exactly the local Additives it should: `register` (each gets an
 * import of `../additives/<name>/index.js` + `fluid.additive(x)`) and not `unregister`. The edits
 * are ts-morph codemods that work by symbol and keep every other byte; ts-morph is loaded only when
 * the cheap text test says an edit may be needed, so a run with nothing to change never loads it.
 * Throws `CodemodAnchorError` with the manual instruction when the `new Fluid(...)` anchor is missing.
 */
export async function reconcileRegistrations(appText: string, register: readonly string[], unregister: readonly string[]): Promise<RegistrationResult> {
  const registered = registeredLocally(appText);
  const toAdd = register.filter((n) => !registered.has(n));
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
