/** Typed translation modules (typesafe-i18n) and starter catalogs from a project's PO files. */
export { renderTranslationModules, type RenderTranslationModulesOptions } from './render.js';
export { readPo, identifier, type PoFile, type PoMessage } from './messages.js';
export { KNOWN_PLURAL_FORMS, pluralFormsFor, compilePluralForms, formForCategory, SLOTS } from './plural.js';
