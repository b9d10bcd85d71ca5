/**
 * Which config keys are mistakes. fw's keys are known; an app may add its own UPPERCASE keys
 * (kept as strings). A key of neither kind is an error with a did-you-mean when:
 *
 * - it starts with a prefix that two or more of fw's keys share (`CACHE_`, `MAIL_`, `FW_`, ...;
 *   {@link RESERVED_PREFIXES}, derived from the schema): `CACHE_TIPE` is never an app's key;
 * - or it is one typo away from one of fw's keys (`APP_FRONTED`, `EXT_I18M`, `SECRT_KEY`).
 *
 * The environment holds every program's variables, so there only the prefixes no other common
 * tool uses are checked ({@link ENVIRONMENT_PREFIXES}), and fw's own process variables
 * ({@link FW_ENVIRONMENT_VARIABLES}) are not config keys at all.
 */
import { CONFIG_ALIASES } from './aliases.js';
import { CONFIG_KEYS } from './config-keys.js';
import { closest, typoOf } from './suggest.js';

/** Every key name fw knows: its keys and the reference's aliases. */
export const KNOWN_KEY_NAMES: readonly string[] = Object.freeze([...CONFIG_KEYS, ...Object.keys(CONFIG_ALIASES)]);

const known = new Set(KNOWN_KEY_NAMES);

/** `CACHE_TYPE` → `CACHE_`; a key without `_` has no prefix. */
function prefixOf(key: string): string | undefined {
  const i = key.indexOf('_');
  return i > 0 ? key.slice(0, i + 1) : undefined;
}

function familyPrefixes(): string[] {
  const counts = new Map<string, number>();
  for (const key of KNOWN_KEY_NAMES) {
    const prefix = prefixOf(key);
    if (prefix) counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  }
  return [...counts].filter(([, n]) => n >= 2).map(([prefix]) => prefix).sort();
}

/**
 * Prefixes fw reserves for its own keys in `fw.json`, `app_configs/<app>.ini` and `.env`: every
 * prefix that two or more of its keys (or aliases) share, e.g. `CACHE_`, `MAIL_`, `I18N_`, `FW_`.
 */
export const RESERVED_PREFIXES: readonly string[] = Object.freeze(familyPrefixes());

/**
 * The reserved prefixes checked in the process environment: all of {@link RESERVED_PREFIXES}
 * except `AUTH_`, `DATABASE_`, `PROXY_`, `SERVER_` and `WS_`, which other tools use for their own
 * variables (Auth.js's `AUTH_SECRET`, Prisma's `DATABASE_URL`, CGI's `SERVER_NAME`, ...). An
 * unknown variable under one of these is an error; any other variable is left alone.
 */
export const ENVIRONMENT_PREFIXES: readonly string[] = Object.freeze(
  RESERVED_PREFIXES.filter((p) => !['AUTH_', 'DATABASE_', 'PROXY_', 'SERVER_', 'WS_'].includes(p)),
);

/**
 * Keys under a reserved prefix that other tools own, so a file may hold them as app-defined keys:
 * `DATABASE_URL` (Prisma and most database tools read it from `.env`).
 */
export const FOREIGN_KEYS: readonly string[] = Object.freeze(['DATABASE_URL']);

/**
 * Environment variables fw's programs read that are not config keys (so never in `fluid.config`):
 * `FW_APP` (which app config), `FW_DEBUG` (stack traces of CLI errors), `FW_CACHE` (`off`: no
 * generator cache), `FW_NODE` (the frontend's Node), `FW_DEV_PARENT` (`fw dev` marks the app it
 * runs), `FW_PRISMA_CLIENTS_CHECKED` (`fw test` tells its vitest the Prisma clients are checked),
 * and `FW_NODE22`, `FW_TOOLS_DIR`, `FW_PRISMA_OFFLINE_DIR` (fw's own CI and tests). `FW_LOG_LEVEL`
 * is a config key: the environment sets it like any other.
 */
export const FW_ENVIRONMENT_VARIABLES: readonly string[] = Object.freeze([
  'FW_APP',
  'FW_CACHE',
  'FW_DEBUG',
  'FW_DEV_PARENT',
  'FW_NODE',
  'FW_NODE22',
  'FW_PRISMA_CLIENTS_CHECKED',
  'FW_PRISMA_OFFLINE_DIR',
  'FW_TOOLS_DIR',
]);

/** True for a key fw knows (a key of its schema or an alias). */
export function isKnownKeyName(key: string): boolean {
  return known.has(key);
}

/** The reserved prefix `key` starts with, if any. */
export function reservedPrefixOf(key: string, prefixes: readonly string[] = RESERVED_PREFIXES): string | undefined {
  return prefixes.find((p) => key.startsWith(p));
}

/**
 * Why an UPPERCASE key that fw does not know cannot be an app-defined key (the hint of its error
 * line, with a did-you-mean), or `undefined` when it is a fine app-defined key.
 */
export function unknownKeyReason(key: string): string | undefined {
  if (key.endsWith('_FILE') && key.length > '_FILE'.length) {
    // `X_FILE` names a file holding X: fine whenever X is.
    const base = key.slice(0, -'_FILE'.length);
    return known.has(base) ? undefined : unknownKeyReason(base);
  }
  if (FOREIGN_KEYS.includes(key)) return undefined;
  if (FW_ENVIRONMENT_VARIABLES.includes(key)) {
    return `${key} is an environment variable of fw's programs, not a config key: set it in the environment`;
  }
  const prefix = reservedPrefixOf(key);
  if (prefix !== undefined) {
    const family = KNOWN_KEY_NAMES.filter((k) => k.startsWith(prefix));
    const typo = typoOf(key, family);
    const near = typo === undefined ? closest(key, family) : [typo];
    // A word left out (`EVENTS_QUEUE_SIZE` for `EVENTS_EVENT_QUEUE_SIZE`) is too far for an edit distance.
    if (near.length === 0) near.push(...family.filter((k) => hasWordsOf(k, key)));
    const reserved = `${prefix} is reserved for fw's keys (${family.join(', ')}); name a key of your own without it`;
    return near.length > 0 ? `did you mean ${near.join(', ')}? (${reserved})` : reserved;
  }
  const typo = typoOf(key, KNOWN_KEY_NAMES);
  if (typo !== undefined) return `did you mean ${typo}? (a key of your own must not be one typo away from one of fw's)`;
  return undefined;
}

/** True when every `_`-separated word of `key` is a word of `candidate`, in order. */
function hasWordsOf(candidate: string, key: string): boolean {
  const words = candidate.split('_');
  let at = 0;
  for (const word of key.split('_')) {
    at = words.indexOf(word, at);
    if (at < 0) return false;
    at++;
  }
  return true;
}

/** The keys an environment layer takes from `env`; see {@link environmentValues}. */
function takesFromEnvironment(key: string, wanted: ReadonlySet<string>): boolean {
  if (FW_ENVIRONMENT_VARIABLES.includes(key)) return false;
  const base = key.endsWith('_FILE') && !known.has(key) ? key.slice(0, -'_FILE'.length) : key;
  return known.has(base) || wanted.has(base) || wanted.has(key) || reservedPrefixOf(key, ENVIRONMENT_PREFIXES) !== undefined;
}

/**
 * The config values of a process environment: fw's keys and their `X_FILE` forms, the keys in
 * `wanted` (app-defined keys the config files mention, so the environment can override them),
 * and every variable under an {@link ENVIRONMENT_PREFIXES} prefix (so a misspelt one is
 * reported, not ignored). Everything else in the environment is left alone.
 */
export function environmentValues(env: Readonly<Record<string, string | undefined>>, wanted: ReadonlySet<string> = new Set()): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined || !/^[A-Z][A-Z0-9_]*$/.test(key)) continue;
    if (takesFromEnvironment(key, wanted)) out[key] = value;
  }
  return out;
}
