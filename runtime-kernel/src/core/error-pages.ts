/**
 * Styled error pages (`FW_PROCESSING`): an after-request processor that answers an HTML client
 * with `errors/<status>.html` for 400, 401, 403, 404, 405, 413, 429, 500, 502 and 503 (413, a
 * body over the parser's limit, is fw's addition to the reference's list).
 *
 * JSON responses and other statuses are left alone. Unlike the reference, the headers HTTP needs
 * (`WWW-Authenticate`, `Retry-After`, `Allow`, `RateLimit-*`) and `Set-Cookie` are kept on the
 * styled page.
 */
import type { FluidContext } from './context.js';
import type { AfterRequestProcessor } from './processors.js';
import type { Markup } from './markup.js';
import { defaultMessage } from './errors.js';

/** Statuses that get a styled page. */
export const STYLED_STATUSES: ReadonlySet<number> = new Set([400, 401, 403, 404, 405, 413, 429, 500, 502, 503]);

/** Headers of the replaced response that the styled page keeps. */
export const KEPT_HEADERS: readonly string[] = Object.freeze([
  'www-authenticate',
  'retry-after',
  'set-cookie',
  'allow',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'ratelimit-policy',
  'ratelimit',
  'x-request-id',
]);

/** Data every `errors/<status>.html` template gets. */
export interface ErrorPageData {
  /** Extra fields for the app's own error templates. */
  [key: string]: unknown;
  /** The HTTP status, e.g. `404`. */
  status: number;
  /** The reason phrase, e.g. `Not Found`. */
  title: string;
  /** A short explanation: the response's own text for a 4xx, otherwise the reason phrase. */
  message: string;
}

// `Accept` header value → what it prefers of JSON and HTML. Clients send few distinct values, and
// the answer is a pure function of the value, so each is negotiated once.
const preferences = new Map<string, 'json' | 'html' | false>();
/** Distinct `Accept` values remembered; when full, all are forgotten (hostile values cannot grow it). */
const PREFERENCES_MAX = 200;

/**
 * What the request prefers of JSON and HTML, as `ctx.accepts('json', 'html')` answers: `'json'`
 * also when there is no `Accept` header, `false` when it accepts neither.
 */
export function prefersJsonOrHtml(ctx: FluidContext): 'json' | 'html' | false {
  const accept = ctx.req.headers.accept;
  if (accept === undefined) return 'json';
  let preferred = preferences.get(accept);
  if (preferred === undefined) {
    const answer = ctx.accepts('json', 'html');
    preferred = answer === 'json' || answer === 'html' ? answer : false;
    if (preferences.size >= PREFERENCES_MAX) preferences.clear();
    preferences.set(accept, preferred);
  }
  return preferred;
}

/** True when the client accepts HTML rather than JSON. */
export function acceptsHtml(ctx: FluidContext): boolean {
  return prefersJsonOrHtml(ctx) === 'html';
}

function isJson(type: string, body: unknown): boolean {
  if (type.includes('json')) return true;
  return body !== null && typeof body === 'object' && !Buffer.isBuffer(body) && type === '';
}

function messageOf(status: number, type: string, body: unknown): string {
  if (status < 500 && typeof body === 'string' && type.startsWith('text/plain') && body.length <= 300) return body;
  return defaultMessage(status);
}

// Requests the debug error page answered (debug only): the styled page must not replace it.
const debugAnswers = new WeakSet<object>();

/** Marks `ctx` as answered by the debug error page, which the styled page then leaves alone. */
export function keepDebugAnswer(ctx: FluidContext): void {
  debugAnswers.add(ctx);
}

/** Options of `errorPageProcessor`. */
export interface ErrorPageOptions {
  /**
   * When rendered pages may be reused: the templates' `generation` (pages rendered under another
   * generation are dropped), or `undefined` for "render every time" (templates that reload,
   * i.e. debug). A page is kept per status, locale and message.
   */
  cacheable?: () => number | undefined;
}

// The full type (what `ctx.type = 'html'` sets), so Koa need not look the extension up.
const HTML = 'text/html; charset=utf-8';

/** Rendered pages kept at most (the message may be the app's own text); beyond, pages render afresh. */
const PAGES_MAX = 256;

/** The styled-error-page processor; `render` renders a template name with data. */
export function errorPageProcessor(render: (template: string, data: ErrorPageData) => Markup, options: ErrorPageOptions = {}): AfterRequestProcessor {
  // Pages kept as strings, not bytes: Node then sends the headers and a small body in one write
  // (a Buffer body takes a second chunk and a writev, measured dearer).
  const pages = new Map<string, string>();
  let generation: number | undefined;
  return (res, ctx) => {
    const status = res.status;
    // The cheap checks first: most responses are not errors, and most error clients want JSON.
    if (!STYLED_STATUSES.has(status) || !acceptsHtml(ctx) || debugAnswers.has(ctx)) return undefined;
    const type = res.type;
    const original = res.body;
    if (isJson(type, original)) return undefined;
    const message = messageOf(status, type, original);
    const now = options.cacheable?.();
    if (now !== generation) {
      pages.clear();
      generation = now;
    }
    const cacheable = now !== undefined;
    const key = cacheable ? `${status}\0${localeOf(ctx)}\0${message}` : '';
    let body = cacheable ? pages.get(key) : undefined;
    if (body === undefined) {
      body = render(`errors/${status}.html`, { status, title: defaultMessage(status), message }).toString();
      if (cacheable && pages.size < PAGES_MAX) pages.set(key, body);
    }
    return { status, body, type: HTML, keepHeaders: KEPT_HEADERS };
  };
}

/** The request's locale when a plugin (i18n) gives one, else `''`. */
function localeOf(ctx: FluidContext): string {
  const locale = (ctx as { locale?: unknown }).locale;
  return typeof locale === 'string' ? locale : '';
}
