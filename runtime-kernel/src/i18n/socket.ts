/**
 * `/ws/i18n`: the translation socket. Each connection translates to its own negotiated locale
 * (`?lang=`, the `lang` cookie, `Accept-Language` of the upgrade request).
 *
 * Frames are JSON objects shaped like the events socket's, with an optional `id` echoed in the
 * answer:
 *
 * - `{ "id": 1, "action": "cache" }` → `{ "id": 1, "ok": true, "data": { locale, messages, plurals } }`
 * - `{ "id": 2, "action": "translate", "fn": "npgettext", "args": ["inbox", "%(num)d message",
 *   "%(num)d messages", 3], "vars": {} }` → `{ "id": 2, "ok": true, "data": "3 Nachrichten" }`; `fn`
 *   is one of `gettext`, `ngettext`, `pgettext`, `npgettext` and `args` are in the server's order.
 *
 * A bad frame is answered `{ "id"?, "error": "<what was wrong>" }`; the socket stays usable.
 */
import type { RawData, WebSocket } from 'ws';
import type { FluidContext } from '../core/context.js';
import type { WsHandler } from '../core/ws-router.js';
import type { TranslationVars } from './interpolate.js';
import type { MergedTranslations } from './merged.js';

/** One locale's merged catalog as the browser client caches it. */
export interface CatalogSnapshot {
  /** The locale. */
  locale: string;
  /** Translations by message key (`msgid` or `context + "\u0004" + msgid`): the forms. */
  messages: Record<string, string[]>;
  /** Which form index each CLDR plural category of the locale takes. */
  plurals: Partial<Record<Intl.LDMLPluralRule, number>>;
}

/** What the socket needs of the app's translations (`I18n`). */
export interface TranslationSource {
  /** The merged catalog of a locale, as the `cache` request answers it. */
  snapshot(locale: string): CatalogSnapshot;
  /** The translations of a locale. */
  translations(locale: string): MergedTranslations;
}

const SIGNATURES = {
  gettext: ['string'],
  ngettext: ['string', 'string', 'number'],
  pgettext: ['string', 'string'],
  npgettext: ['string', 'string', 'string', 'number'],
} as const;

type TranslateFn = keyof typeof SIGNATURES;

/** The `/ws/i18n` handler of an app's translations (its `I18n`). */
export function i18nSocket(i18n: TranslationSource): WsHandler {
  return (socket: WebSocket, ctx: FluidContext) => {
    const locale = ctx.locale;
    socket.on('message', (raw: RawData, isBinary: boolean) => {
      void answer(i18n, locale, raw, isBinary).then((reply) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(reply));
      });
    });
    socket.on('error', () => undefined); // a broken connection just closes
  };
}

type Reply = { id?: unknown; ok?: true; data?: unknown; error?: string };

async function answer(i18n: TranslationSource, locale: string, raw: RawData, isBinary: boolean): Promise<Reply> {
  if (isBinary) return { error: 'Expected a JSON object message, got a binary frame.' };
  let message: unknown;
  try {
    message = JSON.parse(String(raw));
  } catch {
    return { error: 'Expected a JSON object message, got invalid JSON.' };
  }
  if (message === null || typeof message !== 'object' || Array.isArray(message)) {
    return { error: 'Expected a JSON object message.' };
  }
  const m = message as Record<string, unknown>;
  const id = m['id'];
  const reply = (r: Omit<Reply, 'id'>): Reply => (id === undefined ? r : { id, ...r });
  try {
    if (m['action'] === 'cache') return reply({ ok: true, data: i18n.snapshot(locale) });
    if (m['action'] === 'translate') return reply({ ok: true, data: await translate(i18n, locale, m) });
    return reply({ error: `Unknown action ${JSON.stringify(m['action'])}: expected "cache" or "translate".` });
  } catch (err) {
    return reply({ error: err instanceof TypeError ? err.message : 'Translation failed.' });
  }
}

async function translate(i18n: TranslationSource, locale: string, m: Record<string, unknown>): Promise<string> {
  const fn = m['fn'];
  if (typeof fn !== 'string' || !Object.hasOwn(SIGNATURES, fn)) {
    throw new TypeError(`translate: "fn" must be one of ${Object.keys(SIGNATURES).join(', ')}, got ${JSON.stringify(fn)}.`);
  }
  const kinds = SIGNATURES[fn as TranslateFn];
  const args = m['args'];
  if (!Array.isArray(args) || args.length !== kinds.length) {
    throw new TypeError(`translate: ${fn} takes "args" [${kinds.join(', ')}], got ${JSON.stringify(args)}.`);
  }
  args.forEach((a: unknown, i) => {
    if (typeof a !== kinds[i] || (kinds[i] === 'number' && !Number.isFinite(a))) {
      throw new TypeError(`translate: ${fn} args[${i}] must be a ${kinds[i]}, got ${JSON.stringify(a)}.`);
    }
  });
  const varsIn = m['vars'];
  if (varsIn !== undefined && (varsIn === null || typeof varsIn !== 'object' || Array.isArray(varsIn))) {
    throw new TypeError('translate: "vars" must be an object.');
  }
  const vars = varsIn as TranslationVars | undefined;
  const t = i18n.translations(locale);
  const a = args as (string & number)[];
  switch (fn as TranslateFn) {
    case 'gettext':
      return t.agettext(a[0]!, vars);
    case 'ngettext':
      return t.angettext(a[0]!, a[1]!, a[2]!, vars);
    case 'pgettext':
      return t.apgettext(a[0]!, a[1]!, vars);
    case 'npgettext':
      return t.anpgettext(a[0]!, a[1]!, a[2]!, a[3]!, vars);
  }
}
