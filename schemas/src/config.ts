import * as z from 'zod';
import { CONFIG_ALIASES, mapAliases } from './aliases.js';
import { coerceConfigValues } from './config-coerce.js';
import { CONFIG_KEYS, configShape, type KnownConfigKey } from './config-keys.js';
import {
  ConfigValidationError,
  expectedText,
  formatPath,
  formatValue,
  issuesToProblems,
  makeProblem,
  UNKNOWN_KEY_PARAMS,
  type ConfigProblem,
  type TextPosition,
} from './errors.js';
import { unknownKeyReason } from './key-rules.js';
import { closest } from './suggest.js';

/** An UPPERCASE config key name: `A-Z`, `0-9` and `_`, starting with a letter. */
export const CONFIG_KEY_NAME = /^[A-Z][A-Z0-9_]*$/;

/** The typed known keys of the runtime config, defaults applied. */
export type KnownConfig = z.output<z.ZodObject<typeof configShape>>;

/** The runtime config the kernel reads: the known keys, plus app-defined UPPERCASE keys (strings). */
export type Config = KnownConfig & { readonly [key: string]: unknown };


const knownKeys = new Set<string>(CONFIG_KEYS);

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Checks the keys that are not known: UPPERCASE names, not a misspelt key of fw's (see
 * `unknownKeyReason`: a reserved prefix, or one typo away), string values.
 */
function checkExtraKeys(value: Record<string, unknown>, ctx: z.RefinementCtx, allowAliases: boolean): void {
  for (const [key, v] of Object.entries(value)) {
    if (knownKeys.has(key) || (allowAliases && Object.hasOwn(CONFIG_ALIASES, key))) continue;
    if (!CONFIG_KEY_NAME.test(key)) {
      const upper = key.toUpperCase();
      const near = knownKeys.has(upper) ? [upper] : closest(upper, CONFIG_KEYS);
      const hint = near.length > 0 ? `did you mean ${near.join(', ')}? (config keys are UPPERCASE: A-Z, 0-9, _)` : 'expected an UPPERCASE key name (A-Z, 0-9, _)';
      ctx.addIssue({ code: 'custom', path: [key], message: hint, params: UNKNOWN_KEY_PARAMS });
      continue;
    }
    const reason = unknownKeyReason(key);
    if (reason !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: reason, params: UNKNOWN_KEY_PARAMS });
    else if (typeof v !== 'string') {
      ctx.addIssue({ code: 'custom', path: [key], message: 'a string (app-defined keys are kept as strings)' });
    }
  }
}

/** Rules between keys, checked on the full config (defaults applied). */
function checkCrossKeys(c: KnownConfig, ctx: z.RefinementCtx): void {
  if (c.MAIL_USE_TLS && c.MAIL_USE_STARTTLS) {
    ctx.addIssue({
      code: 'custom',
      path: ['MAIL_USE_TLS'],
      message:
        'false while MAIL_USE_STARTTLS is true (use one: MAIL_USE_TLS=true with MAIL_USE_STARTTLS=false and MAIL_PORT=465, or STARTTLS alone on 587)',
    });
  }
  const binds = Object.keys(c.DATABASE_BINDS);
  const bindList = binds.length > 0 ? binds.join(', ') : '(none defined)';
  if (!binds.includes(c.SECURITY_MODELS_DB_BIND)) {
    ctx.addIssue({ code: 'custom', path: ['SECURITY_MODELS_DB_BIND'], message: `a name from DATABASE_BINDS: ${bindList}` });
  }
  if (c.I18N_DATABASE_BIND !== undefined && !binds.includes(c.I18N_DATABASE_BIND)) {
    ctx.addIssue({ code: 'custom', path: ['I18N_DATABASE_BIND'], message: `a name from DATABASE_BINDS: ${bindList}` });
  }
  if (c.I18N_SUPPORTED_LOCALES.length > 0 && !c.I18N_SUPPORTED_LOCALES.includes(c.I18N_DEFAULT_LOCALE)) {
    ctx.addIssue({
      code: 'custom',
      path: ['I18N_DEFAULT_LOCALE'],
      message: `one of I18N_SUPPORTED_LOCALES: ${c.I18N_SUPPORTED_LOCALES.join(', ')}`,
    });
  }
  if (c.CACHE_TYPE === 'redis' && c.CACHE_REDIS_URL === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['CACHE_REDIS_URL'],
      message: 'a redis URL such as "redis://127.0.0.1:6379/0" (required when CACHE_TYPE is redis)',
    });
  }
}

/**
 * The full runtime config (the kernel's `Config`): every known key with its default, plus
 * app-defined UPPERCASE string keys, plus the rules between keys (mail TLS flags, bind names,
 * default locale, redis URL).
 */
export const configSchema = z
  .looseObject(configShape)
  .superRefine((value, ctx) => checkExtraKeys(value, ctx, false), { when: (payload) => isRecord(payload.value) })
  .superRefine(checkCrossKeys)
  .describe('fw runtime config: UPPERCASE keys; app-defined UPPERCASE keys are kept as strings.');

type AnySchema = z.ZodType;

/** The schema of a key without its default wrapper. */
function withoutDefault(schema: AnySchema): AnySchema {
  return schema instanceof z.ZodDefault ? (schema.unwrap() as AnySchema) : schema;
}

/** The key's schema made optional, its default kept only as documentation (for editors). */
function optionalWithoutDefault(schema: AnySchema): AnySchema {
  const meta: Record<string, unknown> = {};
  if (schema.description !== undefined) meta.description = schema.description;
  if (schema instanceof z.ZodDefault) meta.default = schema.def.defaultValue;
  return withoutDefault(schema).optional().meta(meta);
}

/** Every known key (optional, no default) and every alias, typed by the input of its key. */
type PartialShape = { [K in KnownConfigKey]: z.ZodOptional<z.ZodType<z.input<(typeof configShape)[K]>>> };

function buildPartialShape(): PartialShape {
  const shape: Record<string, AnySchema> = {};
  for (const key of CONFIG_KEYS) shape[key] = optionalWithoutDefault(configShape[key]);
  for (const [alias, canonical] of Object.entries(CONFIG_ALIASES)) {
    shape[alias] = withoutDefault(configShape[canonical])
      .optional()
      .meta({ description: `Deprecated: the reference's name for ${canonical}; use ${canonical}.`, deprecated: true });
  }
  // Each entry above is `optional(<the key's own schema>)`, which is what PartialShape states.
  return shape as PartialShape;
}

/**
 * A subset of the runtime config without defaults: the `config` object of `fw.json` and the keys
 * of `app_configs/<app>.ini` (after coercion). The reference's alias names are accepted.
 */
export const partialConfigSchema = z
  .looseObject(buildPartialShape())
  .superRefine((value, ctx) => checkExtraKeys(value, ctx, true), { when: (payload) => isRecord(payload.value) })
  .meta({
    description: 'fw runtime config keys (UPPERCASE). App-defined UPPERCASE keys are allowed and kept as strings.',
    propertyNames: { pattern: CONFIG_KEY_NAME.source },
  });

/** Any subset of the config, as written in `fw.json` `config` or an app `.ini` file (after coercion). */
export type PartialConfig = z.output<typeof partialConfigSchema>;

/** The keys allowed in `app_configs/<app>.ini`: every known key and its reference alias (plus any app-defined UPPERCASE key). */
export const APP_INI_KEYS: readonly string[] = Object.freeze([...CONFIG_KEYS, ...Object.keys(CONFIG_ALIASES)]);

/** Schema of the keys of `app_configs/<app>.ini`, after their string values are coerced. */
export const appIniSchema = partialConfigSchema;

/** One source of config values, e.g. `{ source: 'app_configs/my-app.ini', values: { DEBUG: '1' } }`. */
export interface ConfigLayer {
  /** Named in error lines: a file path, `environment`, `fw.json`. */
  readonly source: string;
  /** Raw key/values; strings are coerced to the key's type. */
  readonly values: Readonly<Record<string, unknown>>;
  /** Where each key was written in the source file, so error lines name the line (`app.ini:3: ...`). */
  readonly positions?: Readonly<Record<string, TextPosition>>;
}

function computeDefaults(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) {
    const result = configShape[key].safeParse(undefined);
    if (result.success && result.data !== undefined) out[key] = result.data;
  }
  return out;
}

const DEFAULTS = computeDefaults();

/** The default of every key that has one (the first layer of {@link parseConfig}); a fresh copy per call. */
export function configDefaults(): Record<string, unknown> {
  return structuredClone(DEFAULTS);
}

/**
 * Merges config layers in order (defaults first, later layers win key by key: a key's value is
 * replaced whole, objects are not deep-merged), maps the reference's alias names, coerces
 * strings, and validates. A layer that sets `I18N_SUPPORTED_LOCALES` turns `EXT_I18N` on, unless
 * a layer sets `EXT_I18N` itself. Throws {@link ConfigValidationError} listing every problem as
 * `<source>: <KEY.path>: got <value>; expected <what>`; secret values print as `<redacted>`.
 */
export function parseConfig(layers: readonly ConfigLayer[]): Config {
  const merged: Record<string, unknown> = configDefaults();
  const sources = new Map<string, ConfigLayer>();
  const problems: ConfigProblem[] = [];
  for (const layer of layers) {
    if (!isRecord(layer.values)) {
      problems.push(makeProblem(layer.source, formatPath([]), formatValue(layer.values), 'an object of config keys'));
      continue;
    }
    const values = coerceConfigValues(mapAliases(layer.values));
    for (const [key, value] of Object.entries(values)) {
      merged[key] = value;
      sources.set(key, layer);
    }
  }
  // Setting the locales is asking for translations: EXT_I18N follows unless a layer sets it.
  if (sources.has('I18N_SUPPORTED_LOCALES') && !sources.has('EXT_I18N')) merged.EXT_I18N = true;
  const result = configSchema.safeParse(merged, { error: expectedText });
  if (!result.success) {
    const sourceOf = (path: readonly PropertyKey[]): string => sources.get(String(path[0]))?.source ?? 'defaults';
    // A key's line in its file: under its own name, or its alias's.
    const positionOf = (path: readonly PropertyKey[]): TextPosition | undefined => {
      if (path.length !== 1) return undefined;
      const key = String(path[0]);
      const positions = sources.get(key)?.positions;
      if (!positions) return undefined;
      return positions[key] ?? Object.entries(CONFIG_ALIASES).map(([alias, canonical]) => (canonical === key ? positions[alias] : undefined)).find(Boolean);
    };
    problems.push(...issuesToProblems(result.error.issues, merged, { source: sourceOf, positionOf }));
  }
  if (!result.success || problems.length > 0) throw new ConfigValidationError(problems);
  return result.data as Config;
}

/**
 * Validates the values of one `app_configs/<app>.ini` file (or any single layer): maps aliases,
 * coerces strings, applies no defaults. Throws {@link ConfigValidationError} naming `source`.
 */
export function parseAppIni(values: unknown, source: string, positions?: Readonly<Record<string, TextPosition>>): PartialConfig {
  if (!isRecord(values)) {
    throw new ConfigValidationError([makeProblem(source, formatPath([]), formatValue(values), 'an object of config keys')]);
  }
  const coerced = coerceConfigValues(mapAliases(values));
  const result = partialConfigSchema.safeParse(coerced, { error: expectedText });
  if (!result.success) {
    const positionOf = (path: readonly PropertyKey[]): TextPosition | undefined => (path.length === 1 ? positions?.[String(path[0])] : undefined);
    throw new ConfigValidationError(issuesToProblems(result.error.issues, coerced, { source, positionOf }));
  }
  return result.data;
}

/** True for a key {@link parseConfig} knows (a canonical key or an alias). */
export function isKnownConfigKey(key: string): boolean {
  return knownKeys.has(key) || Object.hasOwn(CONFIG_ALIASES, key);
}
