/**
 * Request bodies, parsed by @koa/bodyparser (co-body underneath): JSON, urlencoded forms and
 * plain text into `ctx.request.body` (the text as read in `ctx.request.rawBody`), for POST, PUT,
 * PATCH and DELETE only.
 *
 * Limits (bytes, after any `Content-Encoding` is undone, so a compressed bomb stops at the limit):
 * `BODY_JSON_LIMIT` (default 1 MiB), `BODY_FORM_LIMIT` and `BODY_TEXT_LIMIT` (100 KiB). A larger
 * body answers 413 `BODY_TOO_LARGE` (JSON for API callers, the styled page for browsers); a
 * declared `Content-Length` over the limit is refused before a byte is read. Malformed JSON
 * (or a compressed body that does not inflate) answers 400 `INVALID_BODY`; a charset other than UTF-8 (or US-ASCII) 415 `UNSUPPORTED_BODY`
 * (the parser would decode it as UTF-8). Other content types (multipart, binary) are left unread for the
 * handler. A route opts out with `rawBody` (it reads `ctx.req` itself) or changes its limits with
 * `bodyLimit({ json, form, text })`.
 */
import type { bodyParser as koaBodyParser } from '@koa/bodyparser';
import type { Config } from '@fw/schemas';
import type { FluidContext, Handler } from '../core/context.js';
import { HttpError } from '../core/errors.js';
import { marker, routeMark } from './route.js';

/** Per-type body limits in bytes. */
export interface BodyLimits {
  /** `application/json` (and `+json` types); default `BODY_JSON_LIMIT`. */
  readonly json?: number;
  /** `application/x-www-form-urlencoded`; default `BODY_FORM_LIMIT`. */
  readonly form?: number;
  /** `text/plain`; default `BODY_TEXT_LIMIT`. */
  readonly text?: number;
}

/** The methods whose bodies are parsed. */
export const PARSED_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const RAW: unique symbol = Symbol('fw.rawBody');
const LIMITS: unique symbol = Symbol('fw.bodyLimit');

/**
 * Route marker: the body is not parsed, the handler streams `ctx.req` itself (uploads, proxies,
 * webhooks that verify a signature over the raw bytes):
 * `fluid.app.post('upload', '/upload', rawBody, (ctx) => store(ctx.req))`. Such a route's CSRF
 * token must come in the `X-CSRF-Token` header.
 */
export const rawBody: Handler = marker(RAW, true);

/** Route marker: other limits for this route's bodies, e.g. `bodyLimit({ json: 10 * 1024 * 1024 })`. */
export function bodyLimit(limits: BodyLimits): Handler {
  for (const key of ['json', 'form', 'text'] as const) {
    const value = limits?.[key];
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 1)) {
      throw new TypeError(`bodyLimit({ ${key} }): a whole number of bytes >= 1, got ${String(value)}`);
    }
  }
  return marker(LIMITS, { ...limits });
}

/** The content types the parser reads (@koa/bodyparser's JSON, form and text types). */
const PARSED_TYPES = [
  'application/json',
  'application/json-patch+json',
  'application/vnd.api+json',
  'application/csp-report',
  'application/reports+json',
  'application/scim+json',
  'application/x-www-form-urlencoded',
  'text/plain',
];
/** The charsets it decodes correctly: co-body reads every body as UTF-8 whatever the header says. */
const UTF8_CHARSETS: ReadonlySet<string> = new Set(['utf-8', 'utf8', 'us-ascii']);

type Parser = ReturnType<typeof koaBodyParser>;
const noop = async (): Promise<void> => undefined;

// @koa/bodyparser (co-body, qs, raw-body) loads with the first body to parse, not at every app's boot.
let makeParser: typeof koaBodyParser | undefined;
async function loadParser(): Promise<typeof koaBodyParser> {
  return (makeParser ??= (await import('@koa/bodyparser')).bodyParser);
}

/** Parses the bodies of one app (its limits from the config; parsers made once per limit set). */
export class BodyReader {
  /** The size limits from the config (`BODY_JSON_LIMIT`, `BODY_FORM_LIMIT`, `BODY_TEXT_LIMIT`), used when a route sets none of its own. */
  readonly defaults: Required<BodyLimits>;
  readonly #parsers = new Map<string, Parser>();

  constructor(config: Pick<Config, 'BODY_JSON_LIMIT' | 'BODY_FORM_LIMIT' | 'BODY_TEXT_LIMIT'>) {
    this.defaults = { json: config.BODY_JSON_LIMIT, form: config.BODY_FORM_LIMIT, text: config.BODY_TEXT_LIMIT };
  }

  /**
   * Parses the request body into `ctx.request.body` unless it already was, the method carries
   * none, or the route is `rawBody`. Throws `HttpError` 413 / 400 / 415 for a body it refuses.
   */
  async parse(ctx: FluidContext): Promise<void> {
    if (ctx.request.body !== undefined || !PARSED_METHODS.has(ctx.method)) return;
    if (routeMark<boolean>(ctx, RAW)) return;
    const charset = ctx.request.charset.toLowerCase();
    // A Latin-1 form or a UTF-16 text would be decoded as UTF-8: replacement characters, no error.
    if (charset && !UTF8_CHARSETS.has(charset) && ctx.request.is(PARSED_TYPES)) {
      throw new HttpError(415, 'Unsupported body encoding or charset', { code: 'UNSUPPORTED_BODY' });
    }
    const limits = routeMark<BodyLimits>(ctx, LIMITS);
    const parser = this.#parser(makeParser ?? (await loadParser()), limits ? { ...this.defaults, ...limits } : this.defaults);
    try {
      await parser(ctx as never, noop);
    } catch (err) {
      throw translate(err);
    }
  }

  #parser(make: typeof koaBodyParser, limits: Required<BodyLimits>): Parser {
    const key = `${limits.json}/${limits.form}/${limits.text}`;
    let parser = this.#parsers.get(key);
    if (!parser) {
      parser = make({
        enableTypes: ['json', 'form', 'text'],
        parsedMethods: [...PARSED_METHODS],
        jsonLimit: limits.json,
        formLimit: limits.form,
        textLimit: limits.text,
      });
      this.#parsers.set(key, parser);
    }
    return parser;
  }
}

/** co-body's errors as fw's answers (the client never sees a parser's own message). */
function translate(err: unknown): unknown {
  const e = err as { status?: unknown; type?: unknown; limit?: unknown; expose?: unknown; message?: unknown };
  if (e?.type === 'entity.too.large' || e?.status === 413) {
    const limit = typeof e.limit === 'number' ? ` (${e.limit} bytes at most)` : '';
    return new HttpError(413, `Request body too large${limit}`, { code: 'BODY_TOO_LARGE', cause: err });
  }
  if (e?.status === 400 && e.expose !== true) return new HttpError(400, 'Malformed request body', { code: 'INVALID_BODY', cause: err });
  // A body that does not inflate (gzip/deflate: Z_DATA_ERROR, Z_BUF_ERROR; brotli: ERR__ERROR_*)
  // is the client's mistake, not a 500 with a stack in the log.
  if (e?.status === undefined && typeof (err as { code?: unknown })?.code === 'string' && /^(?:Z_|ERR__)/.test((err as { code: string }).code)) {
    return new HttpError(400, 'Malformed request body', { code: 'INVALID_BODY', cause: err });
  }
  if (e?.status === 415) return new HttpError(415, 'Unsupported body encoding or charset', { code: 'UNSUPPORTED_BODY', cause: err });
  return err;
}
