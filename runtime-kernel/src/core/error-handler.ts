/**
 * The outermost request middleware: turns a thrown error into an answer.
 *
 * - `HttpError` (or any error carrying an exposed 4xx `status`, like Koa's `ctx.throw`) → its
 *   status and headers; API and JSON callers get `{ error, code? }`, others the message as text.
 * - anything else → 500, logged with its stack through the logger; the client never sees it.
 * - an `HttpError(503)` is not logged per request: its backend logs the outage once.
 */
import { Stream } from 'node:stream';
import type { FluidContext, FluidMiddleware } from './context.js';
import { keepDebugAnswer, prefersJsonOrHtml } from './error-pages.js';
import { defaultMessage, HttpError, type Logger } from './errors.js';

/** True when the caller should get JSON: an `/api` path, or an `Accept` that prefers JSON to HTML. */
export function wantsJson(ctx: FluidContext): boolean {
  if (ctx.path === '/api' || ctx.path.startsWith('/api/')) return true;
  return prefersJsonOrHtml(ctx) === 'json'; // negotiated once per distinct Accept value
}

interface Answer {
  status: number;
  message: string;
  code: string | undefined;
  headers: Record<string, string>;
}

function answerFor(err: unknown): Answer | undefined {
  if (err instanceof HttpError) {
    return {
      status: err.status,
      message: err.expose ? err.message : defaultMessage(err.status),
      code: err.code,
      headers: err.headers,
    };
  }
  if (err !== null && typeof err === 'object') {
    const e = err as { status?: unknown; statusCode?: unknown; expose?: unknown; message?: unknown; headers?: unknown };
    const status = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : undefined;
    if (status !== undefined && status >= 400 && status < 500) {
      const headers = e.headers && typeof e.headers === 'object' ? (e.headers as Record<string, string>) : {};
      return {
        status,
        message: e.expose === true && typeof e.message === 'string' ? e.message : defaultMessage(status),
        code: undefined,
        headers,
      };
    }
  }
  return undefined;
}

/**
 * Answers a thrown error on `ctx` (JSON or text); logs, with its stack, anything that is not a
 * 4xx answer, except an `HttpError(503)`: that is a deliberate "unavailable" answer, and the
 * backend that is down (cache, database, rate-limit store) logs its outage once, not once per
 * request.
 */
export function answerError(ctx: FluidContext, err: unknown, logger: Logger): void {
  let answer = answerFor(err);
  if (!answer || (answer.status >= 500 && !(err instanceof HttpError && err.status === 503))) {
    // The id the request log gave the response (X-Request-Id), so the stack is found from the id
    // a user or a proxy reports. Read off the response: the core knows no plugin.
    const requestId = ctx.response.get('x-request-id');
    logger.error('request failed', {
      method: ctx.method,
      path: ctx.path,
      ...(typeof requestId === 'string' && requestId !== '' ? { requestId } : {}),
      error: err,
      stack: err instanceof Error ? err.stack : undefined,
    });
    answer ??= { status: 500, message: defaultMessage(500), code: undefined, headers: {} };
  }
  if (ctx.headerSent || !ctx.writable) return;
  for (const name of ['Content-Type', 'Content-Length', 'Content-Encoding', 'Content-Disposition', 'ETag', 'Last-Modified']) {
    ctx.remove(name);
  }
  for (const [name, value] of Object.entries(answer.headers)) ctx.set(name, value);
  ctx.status = answer.status;
  if (wantsJson(ctx)) {
    ctx.body = answer.code ? { error: answer.message, code: answer.code } : { error: answer.message };
  } else {
    ctx.type = 'text';
    ctx.body = answer.message;
  }
}

/**
 * `answerError` with `DEBUG` on: a server error (5xx) gets the debug page, or for a JSON caller
 * the JSON answer plus a `debug` field with the same facts (core/errors/debug-page.ts, imported
 * here on first use, so production never loads it). `root` is the project root (whose files get
 * source excerpts).
 */
export async function answerErrorInDebug(ctx: FluidContext, err: unknown, logger: Logger, root: string): Promise<void> {
  answerError(ctx, err, logger);
  if (ctx.status < 500 || ctx.headerSent || !ctx.writable) return;
  try {
    const { debugPage, debugReport } = await import('./errors/debug-page.js');
    const report = debugReport(ctx, err, root);
    if (wantsJson(ctx)) {
      ctx.body = { ...(ctx.body as Record<string, unknown>), debug: report };
    } else {
      const status = ctx.status;
      ctx.type = 'html';
      ctx.body = debugPage(report, status);
      ctx.status = status;
      keepDebugAnswer(ctx); // not replaced by the styled errors/500.html
    }
  } catch (failure) {
    logger.error('the debug error page failed; answered without it', { error: failure });
  }
}

/** Gives an error status without a body (no route, 405) a JSON body for JSON callers. */
export function fillErrorBody(ctx: FluidContext): void {
  if (ctx.status >= 400 && ctx.body == null && ctx.respond !== false && wantsJson(ctx)) {
    const status = ctx.status;
    ctx.body = { error: defaultMessage(status) };
    ctx.status = status;
  }
}

/**
 * Turns an object body into its JSON text now, as Koa would once every middleware has run: there
 * a failure (nested deeper than the stack allows, a cycle, a BigInt) would get Koa's bare
 * text/plain 500 without the app's headers; here it throws to the caller's error handling.
 * Bodies Koa sends as they are (strings, buffers, streams, blobs, fetch responses) and bodies Koa
 * drops (204, 205, 304) are left alone.
 */
export function serialiseBody(ctx: FluidContext): void {
  const body: unknown = ctx.body;
  if (body === null || typeof body !== 'object' || ctx.respond === false || Buffer.isBuffer(body) || body instanceof Stream) return;
  if (body instanceof Blob || body instanceof ReadableStream || body instanceof Response) return;
  const status = ctx.status;
  if (status === 204 || status === 205 || status === 304) return;
  const json: string | undefined = JSON.stringify(body);
  if (json === undefined) throw new TypeError('the response body serialises to nothing: its toJSON() returned undefined');
  ctx.body = json; // the JSON type Koa gave the object stays
}

/** The error-handling middleware: `answerError` for thrown errors, then `fillErrorBody`. */
export function errorHandler(logger: Logger): FluidMiddleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      answerError(ctx, err, logger);
      return;
    }
    fillErrorBody(ctx);
  };
}
