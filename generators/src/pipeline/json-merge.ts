/**
 * A three-way merge of `package.json` by key, for when the line merge conflicts: a dependency the
 * user added (`npm install zod`) and one the generator adds (`typesafe-i18n` for locales) both
 * touch the line after `"@fw/kernel"` (its comma), which is no overlap of what they mean. When
 * keys do overlap, the conflict is narrowed to them: a script the user changed conflicts alone,
 * not with the next script, which only the generator changed.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/**
 * One value after the key merge, on each side: the three are equal where the merge settled the
 * value, and differ only under the keys both sides changed differently (`conflicts` of them).
 */
interface Sides {
  base: Json | undefined;
  ours: Json | undefined;
  theirs: Json | undefined;
  conflicts: number;
}

const settled = (value: Json | undefined): Sides => ({ base: value, ours: value, theirs: value, conflicts: 0 });

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function same(a: Json | undefined, b: Json | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** npm writes dependency maps sorted this way; a map sorted so stays sorted. */
function compareKeys(a: string, b: string): number {
  return a.localeCompare(b, 'en');
}

function sorted(keys: readonly string[]): boolean {
  return keys.every((key, i) => i === 0 || compareKeys(keys[i - 1]!, key) <= 0);
}

/** The maps of dependency name → version range. */
const DEPENDENCY_MAPS = new Set(['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']);

/**
 * True when the user's range is what `npm install <name>@<version>` writes for the version fw
 * pins (`^10.6.0` or `~10.6.0` for `10.6.0`): it admits that version, so both sides agree.
 */
function admitsPin(ours: Json | undefined, theirs: Json | undefined): boolean {
  return typeof ours === 'string' && typeof theirs === 'string' && /^\d+\.\d+\.\d+$/.test(theirs) && (ours === `^${theirs}` || ours === `~${theirs}`);
}

function mergeObjects(base: JsonObject, ours: JsonObject, theirs: JsonObject, dependencies = false): Sides {
  const oursKeys = Object.keys(ours);
  // The user's key order, then the keys the user's file lacks (new, or deleted by them), in the render's order.
  const keys = [...oursKeys, ...Object.keys(theirs).filter((k) => !(k in ours))];
  const out = { base: {} as JsonObject, ours: {} as JsonObject, theirs: {} as JsonObject, conflicts: 0 };
  for (const key of sorted(oursKeys) ? [...keys].sort(compareKeys) : keys) {
    const merged =
      dependencies && admitsPin(ours[key], theirs[key]) ? settled(ours[key]) : mergeValue(base[key], ours[key], theirs[key], DEPENDENCY_MAPS.has(key));
    out.conflicts += merged.conflicts;
    if (merged.base !== undefined) out.base[key] = merged.base;
    if (merged.ours !== undefined) out.ours[key] = merged.ours;
    if (merged.theirs !== undefined) out.theirs[key] = merged.theirs;
  }
  return out;
}

function mergeValue(base: Json | undefined, ours: Json | undefined, theirs: Json | undefined, dependencies = false): Sides {
  if (same(ours, theirs) || same(base, theirs)) return settled(ours);
  if (same(base, ours)) return settled(theirs);
  if (isObject(base) && isObject(ours) && isObject(theirs)) return mergeObjects(base, ours, theirs, dependencies);
  if (base === undefined && isObject(ours) && isObject(theirs)) return mergeObjects({}, ours, theirs, dependencies);
  return { base, ours, theirs, conflicts: 1 };
}

function parse(text: string): JsonObject | undefined {
  try {
    const value = JSON.parse(text) as Json;
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Outcome of {@link mergePackageJson}. */
export type PackageJsonMerge =
  /** Every key merged: the merged text. */
  | { readonly kind: 'clean'; readonly text: string }
  /**
   * Some keys both sides changed differently: the three texts with every other key merged, so a
   * line merge of them marks only those keys (not a neighbouring script the render changed alone).
   */
  | { readonly kind: 'conflict'; readonly base: string; readonly ours: string; readonly theirs: string };

/**
 * Merges three `package.json` texts (LF line endings) key by key: each key takes the side that
 * changed it, nested objects (`scripts`, `dependencies`, ...) merge key by key too, and a key both
 * sides changed differently (or an array both changed) is a conflict, except a dependency the user
 * holds at `^x.y.z`/`~x.y.z` (what `npm install name@x.y.z` writes) where fw pins `x.y.z`: the
 * user's range stands. The texts are in npm's
 * layout (the user's indentation, their key order, dependency maps kept sorted). `undefined` when
 * a side does not parse as a JSON object: then the line merge stands as it is.
 */
export function mergePackageJson(base: string, ours: string, theirs: string): PackageJsonMerge | undefined {
  const [b, o, t] = [parse(base), parse(ours), parse(theirs)];
  if (!b || !o || !t) return undefined;
  const merged = mergeObjects(b, o, t);
  const indent = /^\{\n([ \t]+)"/.exec(ours)?.[1] ?? '  ';
  const text = (value: Json | undefined): string => `${JSON.stringify(value, null, indent)}${ours.endsWith('\n') ? '\n' : ''}`;
  if (merged.conflicts === 0) return { kind: 'clean', text: text(merged.ours) };
  return { kind: 'conflict', base: text(merged.base), ours: text(merged.ours), theirs: text(merged.theirs) };
}
