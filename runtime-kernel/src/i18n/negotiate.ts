/**
 * Locale negotiation: `?lang=`, then the `lang` cookie, then `Accept-Language` (by q-value), then
 * the default. Every source is restricted to the supported locales (a deviation: the reference
 * let `?lang=` and the cookie pick any parseable locale). A requested `de-AT` falls back to a
 * supported `de` (and a requested `de` to a supported `de-DE`), else to the next source.
 */

/** Longest `Accept-Language` value read; the rest is ignored. */
export const MAX_ACCEPT_LANGUAGE_LENGTH = 1024;
/** Most `Accept-Language` entries read. */
export const MAX_ACCEPT_LANGUAGE_ENTRIES = 32;
/** Longest locale tag considered (`?lang=`, cookie, one header entry). */
export const MAX_LOCALE_LENGTH = 35;

const TAG = /^[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8})*$/;

/** What negotiation reads from a request. */
export interface LocaleSources {
  /** `?lang=` (the first, when repeated). */
  query?: string | readonly string[] | undefined;
  /** The `lang` cookie. */
  cookie?: string | undefined;
  /** The `Accept-Language` header. */
  acceptLanguage?: string | undefined;
}

/**
 * Matches locale tags against supported locales (case-insensitively, `_` as `-`), with fallback
 * from a region to its language and from a language to its first supported region.
 */
export class LocaleMatcher {
  /** The default locale (answered when nothing matches). */
  readonly defaultLocale: string;
  /** The supported locales, as configured. */
  readonly supported: readonly string[];
  readonly #exact = new Map<string, string>();
  readonly #byLanguage = new Map<string, string>();

  /** A matcher over `supported` (empty: the default alone), answering `defaultLocale` when nothing matches. */
  constructor(supported: readonly string[], defaultLocale: string) {
    this.defaultLocale = defaultLocale;
    this.supported = supported.length > 0 ? [...supported] : [defaultLocale];
    for (const locale of this.supported) {
      const norm = normalize(locale);
      this.#exact.set(norm, locale);
      const lang = norm.split('-')[0] ?? norm;
      if (!this.#byLanguage.has(lang) || lang === norm) this.#byLanguage.set(lang, locale);
    }
  }

  /** The supported locale a tag selects (`de-AT` → `de`), or `undefined`. Never throws. */
  match(tag: string | undefined): string | undefined {
    if (typeof tag !== 'string' || tag.length === 0 || tag.length > MAX_LOCALE_LENGTH) return undefined;
    const trimmed = tag.trim();
    if (!TAG.test(trimmed)) return undefined;
    const norm = normalize(trimmed);
    const exact = this.#exact.get(norm);
    if (exact) return exact;
    const parts = norm.split('-');
    for (let i = parts.length - 1; i > 0; i--) {
      const hit = this.#exact.get(parts.slice(0, i).join('-'));
      if (hit) return hit;
    }
    return this.#byLanguage.get(parts[0] ?? norm);
  }

  /** The locale for a request's sources: `?lang=`, cookie, Accept-Language, default. */
  negotiate(sources: LocaleSources): string {
    const query = Array.isArray(sources.query) ? sources.query[0] : sources.query;
    return (
      this.match(typeof query === 'string' ? query : undefined) ??
      this.match(sources.cookie) ??
      this.#fromHeader(sources.acceptLanguage) ??
      this.defaultLocale
    );
  }

  #fromHeader(header: string | undefined): string | undefined {
    for (const tag of parseAcceptLanguage(header)) {
      const hit = this.match(tag);
      if (hit) return hit;
    }
    return undefined;
  }
}

/**
 * The tags of an `Accept-Language` header by descending q-value (stable for equal q), without
 * `*`, `q=0` and malformed-weight entries. Reads at most `MAX_ACCEPT_LANGUAGE_LENGTH` characters and
 * `MAX_ACCEPT_LANGUAGE_ENTRIES` entries; malformed entries are skipped. Never throws.
 */
export function parseAcceptLanguage(header: string | undefined): string[] {
  if (typeof header !== 'string' || header.length === 0) return [];
  const entries = header.slice(0, MAX_ACCEPT_LANGUAGE_LENGTH).split(',', MAX_ACCEPT_LANGUAGE_ENTRIES);
  const out: { tag: string; q: number; i: number }[] = [];
  entries.forEach((entry, i) => {
    const [rawTag, ...params] = entry.split(';');
    const tag = (rawTag ?? '').trim();
    if (!tag || tag === '*' || tag.length > MAX_LOCALE_LENGTH || !TAG.test(tag)) return;
    let q = 1;
    for (const p of params) {
      if (!/^\s*q\s*=/i.test(p)) continue;
      const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p);
      q = m ? Number(m[1]) : -1; // a malformed weight drops the entry
    }
    if (q > 0 && q <= 1) out.push({ tag, q, i });
  });
  out.sort((a, b) => b.q - a.q || a.i - b.i);
  return out.map((e) => e.tag);
}

function normalize(tag: string): string {
  return tag.replace(/_/g, '-').toLowerCase();
}
