import type * as z from 'zod';
import { canonicalKey } from './aliases.js';
import { configShape, type KnownConfigKey } from './config-keys.js';

/** How a raw string value of a key is turned into a typed value. */
export type ValueKind = 'string' | 'boolean' | 'integer' | 'list' | 'json';

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on']);
const FALSE_WORDS = new Set(['0', 'false', 'no', 'off']);

function kindOf(schema: z.core.$ZodType): ValueKind {
  let def = schema._zod.def;
  while (def.type === 'default' || def.type === 'optional') {
    def = (def as z.core.$ZodDefaultDef | z.core.$ZodOptionalDef).innerType._zod.def;
  }
  switch (def.type) {
    case 'boolean':
      return 'boolean';
    case 'number':
      return 'integer';
    case 'array':
      return 'list';
    case 'record':
    case 'object':
    case 'union':
      return 'json';
    default:
      return 'string';
  }
}

/** The value kind of every known key (derived from its schema). */
export const CONFIG_KINDS = Object.fromEntries(
  Object.entries(configShape).map(([key, schema]) => [key, kindOf(schema)]),
) as Record<KnownConfigKey, ValueKind>;

/** The kind of a key: known keys by their schema, any other key is a string. */
export function kindOfKey(key: string): ValueKind {
  return (CONFIG_KINDS as Record<string, ValueKind>)[key] ?? 'string';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Turns one raw value (usually a string from an `.ini` file or the environment) into the typed
 * value its kind wants. Booleans: `1/0/true/false/yes/no/on/off` (any case). Integers: decimal
 * digits. Lists: a JSON array or comma-separated items. JSON keys: a JSON object. An empty string
 * for a non-string key means "not set" and yields `undefined`. A value that cannot be coerced is
 * returned unchanged, so validation reports it with the value the user wrote. Non-string values
 * pass through (except 0/1 for booleans).
 */
export function coerceValue(kind: ValueKind, value: unknown): unknown {
  if (typeof value !== 'string') {
    if (kind === 'boolean' && (value === 0 || value === 1)) return value === 1;
    return value;
  }
  const text = value.trim();
  if (kind === 'string') return value;
  if (text === '') return undefined;
  switch (kind) {
    case 'boolean': {
      const word = text.toLowerCase();
      if (TRUE_WORDS.has(word)) return true;
      if (FALSE_WORDS.has(word)) return false;
      return value;
    }
    case 'integer':
      return /^[+-]?\d+$/.test(text) ? Number(text) : value;
    case 'list':
      if (text.startsWith('[')) return parseJson(text);
      return text
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
    case 'json':
      return text.startsWith('{') || text.startsWith('[') ? parseJson(text) : value;
  }
}

/** App-defined keys are kept as strings: scalars with `String`, objects and lists as JSON. */
export function stringifyExtra(value: unknown): unknown {
  if (typeof value === 'string' || value === undefined) return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return value;
}

/**
 * Coerces every value of a flat key/value record (one layer) by its key's kind (an alias by its
 * canonical key's kind). Unknown keys are kept as strings. Keys whose value coerces to
 * `undefined` (unset) are dropped.
 */
export function coerceConfigValues(values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(values)) {
    const canonical = canonicalKey(key);
    const known = Object.hasOwn(configShape, canonical);
    const value = known ? coerceValue(kindOfKey(canonical), raw) : stringifyExtra(raw);
    if (value !== undefined) out[key] = value;
  }
  return out;
}
