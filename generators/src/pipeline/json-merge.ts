/**
 * A three-way merge of `package.json` by key, for when the line merge conflicts: a dependency the
 * user added (`npm install zod`) and one the generator adds (`typesafe-i18n` for locales) both
 * touch the line after `"@fw/kernel"` (its comma), which is no overlap of what they mean.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** The merge of one value; `conflict` when both sides changed it differently. */
type Merged = { ok: true; value: Json | undefined } | { ok: false };

const CONFLICT: Merged = { ok: false };

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

function mergeObjects(base: JsonObject, ours: JsonObject, theirs: JsonObject): Merged {
  const oursKeys = Object.keys(ours);
  // The user's key order, then the keys the user's file lacks (new, or deleted by them), in the render's order.
  const keys = [...oursKeys, ...Object.keys(theirs).filter((k) => !(k in ours))];
  const out: JsonObject = {};
  for (const key of sorted(oursKeys) ? [...keys].sort(compareKeys) : keys) {
    const merged = mergeValue(base[key], ours[key], theirs[key]);
    if (!merged.ok) return CONFLICT;
    if (merged.value !== undefined) out[key] = merged.value;
  }
  return { ok: true, value: out };
}

function mergeValue(base: Json | undefined, ours: Json | undefined, theirs: Json | undefined): Merged {
  if (same(ours, theirs) || same(base, theirs)) return { ok: true, value: ours };
  if (same(base, ours)) return { ok: true, value: theirs };
  if (isObject(base) && isObject(ours) && isObject(theirs)) return mergeObjects(base, ours, theirs);
  if (base === undefined && isObject(ours) && isObject(theirs)) return mergeObjects({}, ours, theirs);
  return CONFLICT;
}

function parse(text: string): JsonObject | undefined {
  try {
    const value = JSON.parse(text) as Json;
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Merges three `package.json` texts (LF line endings) key by key: each key takes the side that
 * changed it, nested objects (`scripts`, `dependencies`, ...) merge key by key too, and a key both
 * sides changed differently (or an array both changed) is a conflict. Answers the merged text in
 * npm's layout (the user's indentation, their key order, dependency maps kept sorted), or
 * `undefined` when a side does not parse or a key conflicts: then the line merge's markers stand.
 */
export function mergePackageJson(base: string, ours: string, theirs: string): string | undefined {
  const [b, o, t] = [parse(base), parse(ours), parse(theirs)];
  if (!b || !o || !t) return undefined;
  const merged = mergeObjects(b, o, t);
  if (!merged.ok) return undefined;
  const indent = /^\{\n([ \t]+)"/.exec(ours)?.[1] ?? '  ';
  return `${JSON.stringify(merged.value, null, indent)}${ours.endsWith('\n') ? '\n' : ''}`;
}
