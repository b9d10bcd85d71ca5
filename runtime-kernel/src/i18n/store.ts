/**
 * Database-backed translation keys (`I18N_DATABASE_BIND`): a `TranslationStore` loads a locale's
 * overrides; `CachedTranslations` keeps one snapshot per locale (the read path never queries the
 * database per lookup) until `invalidate()`.
 */
import type { Logger } from '../core/errors.js';
import { messageKey } from './catalog.js';
import type { PluralRule } from './plural.js';
import type { TranslationLayer } from './merged.js';

/**
 * A locale's stored translations by message key (`msgid`, or `context + "\u0004" + msgid`, see
 * `messageKey`): one string, or the plural forms in catalog order.
 */
export type StoredMessages = Readonly<Record<string, string | readonly string[]>>;

/** Where database-backed translations come from. */
export interface TranslationStore {
  /** Every stored translation of `locale`. */
  load(locale: string): Promise<StoredMessages>;
}

/** What `PrismaTranslationStore` needs of a generated PrismaClient: tagged raw queries. */
export interface RawQueryClient {
  /** Runs a tagged SQL query with `values` as bound parameters, answering its rows. */
  $queryRaw<T = unknown>(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<T>;
}

/** Options of `PrismaTranslationStore`. */
export interface PrismaTranslationStoreOptions {
  /** The table (default `fw_translations`, the `Translation` model's `@@map`). */
  table?: string;
}

interface Row {
  context: string | null;
  msgid: string;
  form: number | bigint;
  msgstr: string;
}

/**
 * Reads translations from a table of the `I18N_DATABASE_BIND` bind through its PrismaClient
 * (`db.bind(fluid.config.I18N_DATABASE_BIND)`). The table has the columns `locale`, `context`
 * (`''` for none), `msgid`, `form` (plural form index, 0 for singular) and `msgstr`; see
 * `@fw/kernel/docs/i18n.md` for the Prisma model.
 */
export class PrismaTranslationStore implements TranslationStore {
  readonly #client: RawQueryClient;
  readonly #query: TemplateStringsArray;

  /** A store on `client`'s `options.table`; throws a `TypeError` for a table name that is not a plain SQL identifier. */
  constructor(client: RawQueryClient, options: PrismaTranslationStoreOptions = {}) {
    const table = options.table ?? 'fw_translations';
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(table)) throw new TypeError(`PrismaTranslationStore: invalid table name ${JSON.stringify(table)}`);
    this.#client = client;
    const text = `SELECT "context", "msgid", "form", "msgstr" FROM "${table}" WHERE "locale" = `;
    this.#query = Object.assign([text, ' ORDER BY "form"'], { raw: [text, ' ORDER BY "form"'] });
  }

  /** Every stored translation of `locale`, read in one query (plural forms in `form` order). */
  async load(locale: string): Promise<StoredMessages> {
    const rows = await this.#client.$queryRaw<Row[]>(this.#query, locale);
    const forms = new Map<string, string[]>();
    for (const row of rows) {
      const key = messageKey(row.context, row.msgid);
      const list = forms.get(key) ?? [];
      list[Number(row.form)] = row.msgstr;
      forms.set(key, list);
    }
    const out: Record<string, string | readonly string[]> = {};
    for (const [key, list] of forms) out[key] = list.length === 1 ? (list[0] ?? '') : list.map((s) => s ?? '');
    return out;
  }
}

/** A store's messages as a layer, with the plural rule of the locale's catalogs. */
export function storedLayer(messages: StoredMessages, plural: PluralRule): TranslationLayer {
  return {
    find(key) {
      const v = messages[key];
      if (v === undefined) return null;
      return typeof v === 'string' ? v : (v[0] ?? null);
    },
    findPlural(key, n) {
      const v = messages[key];
      if (v === undefined) return null;
      if (typeof v === 'string') return v;
      return v[plural.select(n)] ?? v[v.length - 1] ?? null;
    },
    *entries() {
      for (const [key, v] of Object.entries(messages)) yield [key, typeof v === 'string' ? [v] : v] as const;
    },
  };
}

/**
 * The cached read path of a `TranslationStore`: one snapshot per locale, loaded once, kept until
 * `invalidate()`. While a reload runs, synchronous lookups keep using the previous snapshot; the
 * async `a*` twins wait for the new one.
 */
export class CachedTranslations {
  readonly #store: TranslationStore;
  readonly #logger: Logger | undefined;
  readonly #snapshots = new Map<string, StoredMessages>();
  readonly #loading = new Map<string, Promise<void>>();
  #loads = 0;

  /** Caches `store`. A failed load is logged through `logger` and rejects its waiting lookups; the previous snapshot stays. */
  constructor(store: TranslationStore, logger?: Logger) {
    this.#store = store;
    this.#logger = logger;
  }

  /** How many times the store was queried (for tests and metrics). */
  get loads(): number {
    return this.#loads;
  }

  /** The current snapshot of `locale` (`undefined` before the first load finishes). */
  snapshot(locale: string): StoredMessages | undefined {
    return this.#snapshots.get(locale);
  }

  /** Resolves once `locale` has a current snapshot (loading it when needed). A failed load rejects and is retried next time. */
  ready(locale: string): Promise<void> {
    const pending = this.#loading.get(locale);
    if (pending) return pending;
    if (this.#snapshots.has(locale)) return Promise.resolve();
    return this.#reload(locale);
  }

  /**
   * Drops the cached keys of `locale` (every loaded locale when omitted) and reloads them now;
   * until the reload lands, synchronous lookups keep the previous snapshot and async lookups wait.
   */
  invalidate(locale?: string): Promise<void> {
    const locales = locale === undefined ? [...new Set([...this.#snapshots.keys(), ...this.#loading.keys()])] : [locale];
    return Promise.all(locales.map((l) => this.#reload(l))).then(() => undefined);
  }

  #reload(locale: string): Promise<void> {
    this.#loads++;
    const pending: Promise<void> = this.#store.load(locale).then(
      (messages) => {
        if (this.#loading.get(locale) === pending) {
          this.#snapshots.set(locale, messages);
          this.#loading.delete(locale);
        }
      },
      (err: unknown) => {
        if (this.#loading.get(locale) === pending) this.#loading.delete(locale);
        this.#logger?.error('translations: loading database keys failed', { locale, error: err });
        throw err;
      },
    );
    this.#loading.set(locale, pending);
    return pending;
  }
}
