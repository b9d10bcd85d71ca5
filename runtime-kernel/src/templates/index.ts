/** Templates: handlebars with autoescape by suffix, `Markup`, and the `frontend()` include. */
export { Markup, escape, isMarkup, joinMarkup, joinHtml } from './markup.js';
export { TemplateEngine, AUTOESCAPE_SUFFIXES, autoescapes } from './engine.js';
export type { TemplateData, TemplateHelper } from './engine.js';
export { frontendInclude, HTMX_URL, ALPINE_URL, KERNEL_STATIC_PREFIX } from './frontend.js';
export type { FrontendIncludeBlock, FrontendSurface } from './frontend.js';
