/**
 * `MergedTranslations`: one locale's translations across every domain (the database overrides,
 * then each Additive, then the app, then the framework), with the gettext and findtext families.
 */
import { messageKey } from './catalog.js';
import { interpolate, type TranslationVars } from './interpolate.js';

/** A source of translations that `MergedTranslations` escalates through. */
export interface TranslationLayer {
  /** The translation of a singular message key, or `null` on a miss. */
  find(key: string): string | null;
  /** The plural form for count `n`, or `null` on a miss. */
  findPlural(key: string, n: number): string | null;
  /** Every message of the layer (for the browser cache). */
  entries(): Iterable<readonly [string, readonly string[]]>;
}

/**
 * A locale's merged translations.
 *
 * - The **findtext** family (`findtext`, `nfindtext`, `pfindtext`, `npfindtext`) answers the
 *   interpolated translation, or `null` when no layer has the message.
 * - The **gettext** family (`gettext`, `ngettext`, `pgettext`, `npgettext`) answers the source
 *   string on a miss (for plurals: `singular` when `n === 1`, else `plural`), interpolated.
 * - Each has an async `a`-prefixed twin that first waits for the database-backed keys of the
 *   locale to be loaded (see `TranslationStore`), so it never sees a stale or missing snapshot.
 *
 * Escalation goes through the layers in order and stops at the first **hit**, tested with the
 * findtext family: a translation equal to its source string is a hit, not a miss. The gettext
 * family is built on the findtext family, so a subclass overriding `findtext` changes both.
 *
 * Plural messages get `n` and `num` (both the count) besides the caller's variables.
 */
export class MergedTranslations {
  /** The locale these translations are for. */
  readonly locale: string;
  readonly #layers: () => readonly TranslationLayer[];
  readonly #ready: () => Promise<void>;

  /**
   * @param locale the locale.
   * @param layers the layers, highest priority first (a function, so overrides reloaded from the
   *   database are picked up).
   * @param ready resolves when the async twins may read (database keys loaded); default: at once.
   */
  constructor(locale: string, layers: readonly TranslationLayer[] | (() => readonly TranslationLayer[]), ready?: () => Promise<void>) {
    this.locale = locale;
    const fixed = layers;
    this.#layers = typeof fixed === 'function' ? fixed : () => fixed;
    this.#ready = ready ?? (() => Promise.resolve());
  }

  /** The translation of `msgid`, or `null` on a miss. */
  findtext(msgid: string, vars?: TranslationVars): string | null {
    return this.#find(messageKey(null, msgid), vars);
  }

  /** The plural translation for count `n`, or `null` on a miss. */
  nfindtext(singular: string, plural: string, n: number, vars?: TranslationVars): string | null {
    return this.#findPlural(messageKey(null, singular), n, vars);
  }

  /** The translation of `msgid` in `context` (msgctxt), or `null` on a miss. */
  pfindtext(context: string, msgid: string, vars?: TranslationVars): string | null {
    return this.#find(messageKey(context, msgid), vars);
  }

  /** The plural translation in `context` for count `n`, or `null` on a miss. */
  npfindtext(context: string, singular: string, plural: string, n: number, vars?: TranslationVars): string | null {
    return this.#findPlural(messageKey(context, singular), n, vars);
  }

  /** The translation of `msgid`; `msgid` itself (interpolated) on a miss. */
  gettext(msgid: string, vars?: TranslationVars): string {
    return this.findtext(msgid, vars) ?? interpolate(msgid, vars);
  }

  /** The plural translation for count `n`; on a miss `singular` when `n === 1`, else `plural`. */
  ngettext(singular: string, plural: string, n: number, vars?: TranslationVars): string {
    return this.nfindtext(singular, plural, n, vars) ?? interpolate(n === 1 ? singular : plural, countVars(n, vars));
  }

  /** The translation of `msgid` in `context`; `msgid` itself on a miss. */
  pgettext(context: string, msgid: string, vars?: TranslationVars): string {
    return this.pfindtext(context, msgid, vars) ?? interpolate(msgid, vars);
  }

  /** The plural translation in `context`; the source singular or plural on a miss. */
  npgettext(context: string, singular: string, plural: string, n: number, vars?: TranslationVars): string {
    return this.npfindtext(context, singular, plural, n, vars) ?? interpolate(n === 1 ? singular : plural, countVars(n, vars));
  }

  /** `gettext` once the database keys are loaded. */
  async agettext(msgid: string, vars?: TranslationVars): Promise<string> {
    await this.#ready();
    return this.gettext(msgid, vars);
  }

  /** `ngettext` once the database keys are loaded. */
  async angettext(singular: string, plural: string, n: number, vars?: TranslationVars): Promise<string> {
    await this.#ready();
    return this.ngettext(singular, plural, n, vars);
  }

  /** `pgettext` once the database keys are loaded. */
  async apgettext(context: string, msgid: string, vars?: TranslationVars): Promise<string> {
    await this.#ready();
    return this.pgettext(context, msgid, vars);
  }

  /** `npgettext` once the database keys are loaded. */
  async anpgettext(context: string, singular: string, plural: string, n: number, vars?: TranslationVars): Promise<string> {
    await this.#ready();
    return this.npgettext(context, singular, plural, n, vars);
  }

  /** `findtext` once the database keys are loaded. */
  async afindtext(msgid: string, vars?: TranslationVars): Promise<string | null> {
    await this.#ready();
    return this.findtext(msgid, vars);
  }

  /** `nfindtext` once the database keys are loaded. */
  async anfindtext(singular: string, plural: string, n: number, vars?: TranslationVars): Promise<string | null> {
    await this.#ready();
    return this.nfindtext(singular, plural, n, vars);
  }

  /** `pfindtext` once the database keys are loaded. */
  async apfindtext(context: string, msgid: string, vars?: TranslationVars): Promise<string | null> {
    await this.#ready();
    return this.pfindtext(context, msgid, vars);
  }

  /** `npfindtext` once the database keys are loaded. */
  async anpfindtext(context: string, singular: string, plural: string, n: number, vars?: TranslationVars): Promise<string | null> {
    await this.#ready();
    return this.npfindtext(context, singular, plural, n, vars);
  }

  #find(key: string, vars: TranslationVars | undefined): string | null {
    for (const layer of this.#layers()) {
      const hit = layer.find(key);
      if (hit !== null) return interpolate(hit, vars);
    }
    return null;
  }

  #findPlural(key: string, n: number, vars: TranslationVars | undefined): string | null {
    for (const layer of this.#layers()) {
      const hit = layer.findPlural(key, n);
      if (hit !== null) return interpolate(hit, countVars(n, vars));
    }
    return null;
  }
}

/** The variables of a plural message: the caller's, plus `n` and `num` (the count). */
export function countVars(n: number, vars?: TranslationVars): TranslationVars {
  return { n, num: n, ...vars };
}
