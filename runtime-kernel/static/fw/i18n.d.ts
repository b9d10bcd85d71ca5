/**
 * Types of the fw browser i18n extension (`/fluid/static/fw/i18n.js`), `window.fw.ext.i18n`.
 * Load `fw.js` first. Arguments follow the server's order: `_p(context, msgid)`,
 * `_np(context, singular, plural, n)`.
 */
import type {} from './fw.js';

/** Variables of `%(name)s` / `%(num)d` / `{name}` placeholders. */
export type FwI18nVars = Readonly<Record<string, string | number | boolean>>;

/** The four gettext forms; plural forms get `n` and `num` (the count) besides `vars`. */
export interface FwTranslate<R> {
  /** `gettext`: the translation of `msgid`, else `msgid`. */
  _(msgid: string, vars?: FwI18nVars): R;
  /** `ngettext`: the plural form for `n`, else `singular` (n = 1) or `plural`. */
  _n(singular: string, plural: string, n: number, vars?: FwI18nVars): R;
  /** `pgettext`: the translation of `msgid` in `context`. */
  _p(context: string, msgid: string, vars?: FwI18nVars): R;
  /** `npgettext`: the plural form in `context`. */
  _np(context: string, singular: string, plural: string, n: number, vars?: FwI18nVars): R;
}

/** The merged catalog the server sends (`/ws/i18n` `cache`). */
export interface FwCatalog {
  locale: string;
  /** Forms by message key (`msgid`, or `context + "\u0004" + msgid`). */
  messages: Record<string, string[]>;
  /** The form index of each CLDR plural category. */
  plurals: Partial<Record<Intl.LDMLPluralRule, number>>;
}

/** `fw.ext.i18n`: cache-backed (synchronous) translations and `live` (server) ones. */
export interface FwI18n extends FwTranslate<string> {
  /** The connection's negotiated locale (known once `ready` resolved). */
  locale: string;
  /** Resolves when the catalog is cached. */
  readonly ready: Promise<FwI18n>;
  /** Fetches the catalog again (done on its own after a reconnection). */
  reload(): Promise<FwI18n>;
  /** The same calls answered by the server (`/ws/i18n` `translate`), with the database keys. */
  readonly live: FwTranslate<Promise<string>>;
}

declare module './fw.js' {
  interface FwExtensions {
    i18n?: FwI18n;
  }
}
