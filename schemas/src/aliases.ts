import type { KnownConfigKey } from './config-keys.js';

/**
 * The reference's config key names that fw renamed, mapped to fw's names. Either name is
 * accepted; when both appear in the same layer the fw (canonical) name wins.
 */
export const CONFIG_ALIASES: Readonly<Record<string, KnownConfigKey>> = Object.freeze({
  EXT_BABEL: 'EXT_I18N',
  BABEL_DEFAULT_LOCALE: 'I18N_DEFAULT_LOCALE',
  BABEL_SUPPORTED_LOCALES: 'I18N_SUPPORTED_LOCALES',
  BABEL_DATABASE_BIND: 'I18N_DATABASE_BIND',
  SQLALCHEMY_BINDS: 'DATABASE_BINDS',
});

/** The canonical name of a key (itself unless it is an alias). */
export function canonicalKey(key: string): string {
  return Object.hasOwn(CONFIG_ALIASES, key) ? (CONFIG_ALIASES[key] as string) : key;
}

/**
 * Renames alias keys of one layer to their canonical names. A canonical key present in the same
 * layer wins over its alias.
 */
export function mapAliases(values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (!Object.hasOwn(CONFIG_ALIASES, key)) out[key] = value;
  }
  for (const [key, value] of Object.entries(values)) {
    const canonical = CONFIG_ALIASES[key];
    if (canonical !== undefined && !Object.hasOwn(values, canonical)) out[canonical] = value;
  }
  return out;
}
