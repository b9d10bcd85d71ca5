/**
 * `@fw/kernel/i18n`: translations. PO catalogs per domain (framework, app, each Additive),
 * `MergedTranslations` with the gettext and findtext families, locale negotiation,
 * database-backed keys, template helpers, the `/ws/i18n` socket, and the plugin that gives the
 * app `fluid.i18n` and `ctx.locale`/`ctx.i18n`. See `@fw/kernel/docs/i18n.md`.
 */
export { i18n, I18n, KERNEL_LOCALES_DIR, localeChain, type FluidLocale, type FluidLocales, type TranslationDomain } from './i18n.js';
export { MergedTranslations, countVars, type TranslationLayer } from './merged.js';
export { Catalog, parsePo, loadPoFile, messageKey, CONTEXT_SEPARATOR, type CatalogMessages } from './catalog.js';
export { interpolate, type TranslationVars } from './interpolate.js';
export {
  LocaleMatcher,
  parseAcceptLanguage,
  MAX_ACCEPT_LANGUAGE_ENTRIES,
  MAX_ACCEPT_LANGUAGE_LENGTH,
  MAX_LOCALE_LENGTH,
  type LocaleSources,
} from './negotiate.js';
export {
  parsePluralForms,
  localePluralRule,
  categoryIndexes,
  defaultPluralForms,
  KNOWN_PLURAL_FORMS,
  CLDR_ORDER,
  type PluralFunction,
  type PluralRule,
} from './plural.js';
export {
  PrismaTranslationStore,
  CachedTranslations,
  storedLayer,
  type TranslationStore,
  type StoredMessages,
  type RawQueryClient,
  type PrismaTranslationStoreOptions,
} from './store.js';
export { registerTranslationHelpers } from './helpers.js';
export { i18nSocket, type CatalogSnapshot, type TranslationSource } from './socket.js';
