/**
 * `I18n`: the app's translations (`fluid.i18n`). It finds the catalogs of every domain, loads one
 * merged set per supported locale, negotiates each request's locale (`ctx.locale`, `ctx.i18n`),
 * registers the template helpers and, with `EXT_I18N` on, the `/ws/i18n` socket.
 *
 * Domains, highest priority first: the database keys (`useStore`), each Additive (in
 * registration order), the app (`fluid/locales/`, else `locales/`), the framework
 * (`@fw/kernel/locales/`). Within a domain a locale falls back to its language (`de-AT.po`, then
 * `de.po`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FluidCore } from '../core/fluid.js';
import type { FluidContext, FluidMiddleware } from '../core/context.js';
import type { Plugin } from '../core/plugin.js';
import { KERNEL_DIR } from '../core/static.js';
import { currentContext } from '../sockets/context.js';
import { sockets } from '../sockets/sockets.js';
import { loadPoFile, type Catalog } from './catalog.js';
import { registerTranslationHelpers } from './helpers.js';
import { MergedTranslations, type TranslationLayer } from './merged.js';
import { LocaleMatcher } from './negotiate.js';
import { categoryIndexes, localePluralRule, type PluralRule } from './plural.js';
import { i18nSocket, type CatalogSnapshot } from './socket.js';
import { CachedTranslations, storedLayer, type TranslationStore } from './store.js';

declare module '../core/fluid.js' {
  interface FluidCore {
    /** Translations (`EXT_I18N`): catalogs, `ctx.locale`/`ctx.i18n`, template helpers, `/ws/i18n`. */
    readonly i18n: I18n;
  }
}

/**
 * The app's locales, for the type of `ctx.locale`. Empty in the kernel, so `ctx.locale` is a
 * `string`; the typed translation modules `fw generate` writes (`fluid/i18n/fluid-locale.ts`)
 * augment it with `locale: Locales`, the app's own locale tags, so that
 * `i18nObject(ctx.locale)` type-checks without a cast:
 *
 *   declare module '@fw/kernel/i18n' {
 *     interface FluidLocales { locale: Locales }
 *   }
 *
 * That is true at run time: the kernel only ever negotiates one of `I18N_SUPPORTED_LOCALES` or
 * `I18N_DEFAULT_LOCALE`, the same tags the typed modules' `Locales` lists.
 */
export interface FluidLocales {}

/** The type of `ctx.locale`: the app's `Locales` once `FluidLocales` names them, else `string`. */
export type FluidLocale = FluidLocales extends { readonly locale: infer L extends string } ? L : string;

declare module '../core/context.js' {
  interface FluidContextExtensions {
    /**
     * The negotiated locale, a BCP 47 tag (`?lang=`, `lang` cookie, `Accept-Language`, else
     * `I18N_DEFAULT_LOCALE`; always a supported one): see `@fw/kernel/docs/i18n.md`. Typed as the app's
     * `Locales` when its typed translation modules are generated (`FluidLocales`).
     */
    readonly locale: FluidLocale;
    /** The translations of `locale` (source strings with `EXT_I18N` off). */
    readonly i18n: MergedTranslations;
  }
}

/** The framework's own catalogs. */
export const KERNEL_LOCALES_DIR = join(KERNEL_DIR, 'locales');

/** A translation domain: a name and the folder holding its `<locale>.po` catalogs. */
export interface TranslationDomain {
  /** The domain's name: an Additive's name, `app` or `fw` (the framework's catalogs). */
  readonly name: string;
  /** The folder holding the domain's `<locale>.po` catalogs (absolute). */
  readonly dir: string;
}

interface LocaleState {
  merged: MergedTranslations;
  catalogs: TranslationLayer[];
  plural: PluralRule;
  /** The layers with the database keys, for the snapshot they were built from. */
  withStore?: { snapshot: object; layers: readonly TranslationLayer[] };
}

const LOCALE = Symbol('fw.locale');
const current = new AsyncLocalStorage<FluidContext>();

/** The app's translations; see the module comment. */
export class I18n {
  /** `EXT_I18N`: when off, every lookup answers the source string (interpolated). */
  readonly enabled: boolean;
  /** `I18N_DEFAULT_LOCALE`. */
  readonly defaultLocale: string;
  /** Matches requested locales against `I18N_SUPPORTED_LOCALES`. */
  readonly matcher: LocaleMatcher;
  readonly #fluid: FluidCore;
  readonly #states = new Map<string, LocaleState>();
  readonly #off: MergedTranslations;
  #domainsKey = '';
  #store: CachedTranslations | undefined;

  /** The translations of `fluid` (its config and domains); the i18n plugin makes the one `fluid.i18n`. */
  constructor(fluid: FluidCore) {
    this.#fluid = fluid;
    const { config } = fluid;
    this.enabled = config.EXT_I18N;
    this.defaultLocale = config.I18N_DEFAULT_LOCALE;
    this.matcher = new LocaleMatcher(config.I18N_SUPPORTED_LOCALES, config.I18N_DEFAULT_LOCALE);
    this.#off = new MergedTranslations(this.defaultLocale, []);
    registerTranslationHelpers(fluid.templates, () => this.current());
    defineContext(fluid, this);
    if (this.enabled) {
      fluid.ws.route('fluid.i18n', '/i18n', i18nSocket(this));
      fluid.onStartup(() => this.load());
    }
  }

  /** The supported locales (`I18N_SUPPORTED_LOCALES`, or just the default). */
  get supportedLocales(): readonly string[] {
    return this.matcher.supported;
  }

  /** The domains in escalation order: each Additive, the app, the framework. */
  domains(): TranslationDomain[] {
    const root = this.#fluid.root;
    const out: TranslationDomain[] = [];
    for (const a of this.#fluid.additives.values()) out.push({ name: a.name, dir: join(a.root, 'locales') });
    const fluidLocales = join(root, 'fluid', 'locales');
    out.push({ name: 'app', dir: existsSync(fluidLocales) ? fluidLocales : join(root, 'locales') });
    out.push({ name: 'fw', dir: KERNEL_LOCALES_DIR });
    return out;
  }

  /**
   * The merged translations of a locale: a supported one, or what it falls back to (`de-AT` →
   * `de` → the default). One instance per supported locale, made on first use. With `EXT_I18N`
   * off: the source strings.
   */
  translations(locale: string = this.defaultLocale): MergedTranslations {
    if (!this.enabled) return this.#off;
    return this.#state(this.matcher.match(locale) ?? this.defaultLocale).merged;
  }

  /** The translations of the request or websocket connection being served (default locale outside one). */
  current(): MergedTranslations {
    const ctx = current.getStore() ?? currentContext();
    return ctx ? ctx.i18n : this.translations();
  }

  /** The negotiated locale of a request: `?lang=`, the `lang` cookie, `Accept-Language`, default. */
  negotiate(ctx: FluidContext): string {
    if (!this.enabled) return this.defaultLocale;
    const q = ctx.query['lang'];
    let cookie: string | undefined;
    try {
      cookie = ctx.cookies.get('lang');
    } catch {
      cookie = undefined; // a malformed Cookie header: no cookie
    }
    return this.matcher.negotiate({ query: q, cookie, acceptLanguage: ctx.get('accept-language') });
  }

  /**
   * Uses a database store (`I18N_DATABASE_BIND`) for overriding keys, e.g.
   * `fluid.i18n.useStore(new PrismaTranslationStore(db.bind(fluid.config.I18N_DATABASE_BIND)))`.
   * Its keys are read once per locale and cached until `invalidate()`.
   */
  useStore(store: TranslationStore): this {
    this.#store = new CachedTranslations(store, this.#fluid.logger);
    return this;
  }

  /** Drops the cached database keys of `locale` (of all locales when omitted) and reloads them. */
  invalidate(locale?: string): Promise<void> {
    return this.#store?.invalidate(locale) ?? Promise.resolve();
  }

  /** Loads every supported locale's catalogs and database keys now (a startup hook). */
  async load(): Promise<void> {
    if (!this.enabled) return;
    for (const locale of this.supportedLocales) this.#state(locale);
    if (this.#store) await Promise.all(this.supportedLocales.map((l) => this.#store!.ready(l)));
  }

  /** The merged catalog of a locale as the browser client caches it (`/ws/i18n` `cache`). */
  snapshot(locale: string): CatalogSnapshot {
    const resolved = this.enabled ? (this.matcher.match(locale) ?? this.defaultLocale) : this.defaultLocale;
    const messages: Record<string, string[]> = {};
    if (!this.enabled) return { locale: resolved, messages, plurals: categoryIndexes(resolved, localePluralRule(resolved)) };
    const state = this.#state(resolved);
    const layers = this.#layers(resolved, state);
    for (let i = layers.length - 1; i >= 0; i--) for (const [key, forms] of layers[i]!.entries()) messages[key] = [...forms];
    return { locale: resolved, messages, plurals: categoryIndexes(resolved, state.plural) };
  }

  /** Koa middleware: requests run with their translations current (template helpers) and database keys loaded. */
  middleware(): FluidMiddleware {
    return async (ctx, next) => {
      const store = this.#store;
      if (store) await store.ready(ctx.locale);
      await current.run(ctx, next);
    };
  }

  #state(locale: string): LocaleState {
    const key = [...this.#fluid.additives.keys()].join('\n');
    if (key !== this.#domainsKey) {
      this.#states.clear(); // an Additive joined: its catalogs join the escalation
      this.#domainsKey = key;
    }
    let state = this.#states.get(locale);
    if (!state) {
      const chain = localeChain(locale);
      const catalogs: Catalog[] = [];
      for (const domain of this.domains()) {
        for (const l of chain) {
          const catalog = loadPoFile(join(domain.dir, `${l}.po`), locale) ?? loadPoFile(join(domain.dir, `${l.replaceAll('-', '_')}.po`), locale);
          if (catalog) catalogs.push(catalog);
        }
      }
      const plural = catalogs[0]?.plural ?? localePluralRule(locale);
      const merged = new MergedTranslations(locale, () => this.#layers(locale, made), () => this.#store?.ready(locale) ?? Promise.resolve());
      const made: LocaleState = { catalogs, plural, merged };
      state = made;
      this.#states.set(locale, state);
    }
    return state;
  }

  #layers(locale: string, state: LocaleState): readonly TranslationLayer[] {
    const stored = this.#store?.snapshot(locale);
    if (!stored) return state.catalogs;
    if (state.withStore?.snapshot !== stored) {
      state.withStore = { snapshot: stored, layers: [storedLayer(stored, state.plural), ...state.catalogs] };
    }
    return state.withStore.layers;
  }
}

/** `de-AT` → `['de-AT', 'de']`. */
export function localeChain(locale: string): string[] {
  const parts = locale.split(/[-_]/);
  const out: string[] = [];
  for (let i = parts.length; i > 0; i--) out.push(parts.slice(0, i).join('-'));
  return out;
}

function defineContext(fluid: FluidCore, i18n: I18n): void {
  Object.defineProperties(fluid.koa.context, {
    locale: {
      get(this: FluidContext & { [LOCALE]?: string }): string {
        return (this[LOCALE] ??= i18n.negotiate(this));
      },
    },
    i18n: {
      get(this: FluidContext): MergedTranslations {
        return i18n.translations(this.locale);
      },
    },
  });
}

/**
 * The i18n plugin: `fluid.i18n`, `ctx.locale`, `ctx.i18n` and the translation template helpers.
 * With `EXT_I18N` off they answer the source strings and nothing runs per request; with it on
 * the catalogs load at startup, the locale is negotiated per request (`context` stage) and
 * `/ws/i18n` is served (the sockets plugin is registered when absent).
 */
export function i18n(): Plugin {
  return {
    name: 'i18n',
    register(fluid) {
      if (fluid.config.EXT_I18N && !fluid.plugins.has('sockets')) fluid.plugin(sockets());
      Object.defineProperty(fluid, 'i18n', { value: new I18n(fluid), enumerable: true });
    },
    build(fluid) {
      if (fluid.i18n.enabled) fluid.use(fluid.i18n.middleware(), 'context');
    },
  };
}
