/**
 * After-request processors: functions that see (and may replace) a finished, buffered response.
 *
 * The body is looked at only when at least one processor is registered and the response is not
 * a stream: streaming responses pass through unseen and unbuffered.
 */
import { Stream } from 'node:stream';
import type { FluidContext, FluidMiddleware } from './context.js';
import type { Logger } from './errors.js';

/** A finished response as a processor sees it. */
export interface BufferedResponse {
  /** HTTP status. */
  readonly status: number;
  /** Content type (`ctx.type`), e.g. `application/json`; `''` when unset. */
  readonly type: string;
  /** The body: a string, a Buffer, a JSON-able object, or `null`. */
  readonly body: unknown;
  /** Response headers (lowercase names). */
  readonly headers: Readonly<Record<string, string | string[] | number | undefined>>;
}

/**
 * A new response a processor answers with. The old response's headers are dropped, except those
 * in `keepHeaders` and those the registry keeps for every replacement (`ProcessorRegistry.keepHeaders`).
 */
export interface ReplacementResponse {
  /** The HTTP status of the new response. */
  status: number;
  /** Its body: a string, a Buffer, an object (sent as JSON) or `null` (none). */
  body: string | Buffer | object | null;
  /** Content type, e.g. `html` or `application/json`. */
  type?: string;
  /** Headers to set on the new response. */
  headers?: Record<string, string | string[]>;
  /** Header names of the old response to carry over (lowercase). */
  keepHeaders?: readonly string[];
}

/**
 * Sees a buffered response; returns a `ReplacementResponse` to replace it, or `undefined` to
 * leave it as it is.
 */
export type AfterRequestProcessor = (
  response: BufferedResponse,
  ctx: FluidContext,
) => ReplacementResponse | undefined | Promise<ReplacementResponse | undefined>;

/** The processors of one app, in registration order. */
export class ProcessorRegistry {
  readonly #list: AfterRequestProcessor[] = [];
  readonly #kept = new Set<string>();

  /**
   * Headers every replacement keeps: those a plugin sets on every response (the security
   * plugin's), which a replaced response must carry too. Keeping them costs less than dropping
   * them and setting them again.
   */
  keepHeaders(names: Iterable<string>): void {
    for (const name of names) this.#kept.add(name.toLowerCase());
  }

  /** Registers a processor; registering the same function twice is a no-op. */
  add(processor: AfterRequestProcessor): void {
    if (!this.#list.includes(processor)) this.#list.push(processor);
  }

  /** Removes a processor. */
  remove(processor: AfterRequestProcessor): void {
    const i = this.#list.indexOf(processor);
    if (i >= 0) this.#list.splice(i, 1);
  }

  /** How many processors are registered. */
  get size(): number {
    return this.#list.length;
  }

  /**
   * The middleware running the processors after the rest of the stack. With no processor
   * registered it only calls `next()`.
   */
  middleware(logger: Logger): FluidMiddleware {
    return async (ctx, next) => {
      await next();
      await this.run(ctx, logger);
    };
  }

  /**
   * Runs the processors on a finished response (nothing for streams or with no processor).
   * Synchronous processors run synchronously (most responses are left alone, so most requests
   * pay no promise here); the result is a promise only once a processor returned one.
   */
  run(ctx: FluidContext, logger: Logger): Promise<void> | undefined {
    const list = this.#list;
    if (list.length === 0 || ctx.body instanceof Stream || ctx.respond === false) return undefined;
    return runFrom(list, 0, new ResponseView(ctx), ctx, logger, this.#kept);
  }
}

/** Runs `list` from `index` on; continues asynchronously after the first processor returning a promise. */
function runFrom(
  list: readonly AfterRequestProcessor[],
  index: number,
  view: ResponseView,
  ctx: FluidContext,
  logger: Logger,
  kept: ReadonlySet<string>,
): Promise<void> | undefined {
  for (let i = index; i < list.length; i++) {
    let result: ReturnType<AfterRequestProcessor>;
    try {
      result = list[i]!(view, ctx);
    } catch (err) {
      failed(logger, err, ctx);
      continue;
    }
    if (result instanceof Promise) {
      return result.then(
        (replacement) => {
          if (replacement) replace(ctx, replacement, kept);
          return runFrom(list, i + 1, view, ctx, logger, kept);
        },
        (err: unknown) => {
          failed(logger, err, ctx);
          return runFrom(list, i + 1, view, ctx, logger, kept);
        },
      );
    }
    if (result) replace(ctx, result, kept);
  }
  return undefined;
}

function failed(logger: Logger, err: unknown, ctx: FluidContext): void {
  logger.error('after-request processor failed; response left as it was', { error: err, path: ctx.path });
}

/** A read-only view of the current response; headers are read only when asked for. */
class ResponseView implements BufferedResponse {
  readonly #ctx: FluidContext;
  constructor(ctx: FluidContext) {
    this.#ctx = ctx;
  }
  get status(): number {
    return this.#ctx.status;
  }
  get type(): string {
    return this.#ctx.type;
  }
  get body(): unknown {
    return this.#ctx.body;
  }
  get headers(): Readonly<Record<string, string | string[] | number | undefined>> {
    return this.#ctx.response.headers;
  }
}

/** Replaces the response with `r`: headers neither `r.keepHeaders` nor `kept` names are removed. */
function replace(ctx: FluidContext, r: ReplacementResponse, kept: ReadonlySet<string>): void {
  const res = ctx.res;
  const keep = r.keepHeaders === undefined ? undefined : lowercased(r.keepHeaders);
  for (const name of res.getHeaderNames()) if (!kept.has(name) && !keep?.has(name)) res.removeHeader(name);
  ctx.status = r.status;
  if (r.type && r.body !== null) {
    ctx.type = r.type; // before the body, so the body setter does not guess a type first
    ctx.body = r.body;
  } else {
    ctx.body = r.body;
    if (r.type) ctx.type = r.type;
  }
  for (const [name, value] of Object.entries(r.headers ?? {})) ctx.set(name, value);
}

// A frozen `keepHeaders` list (a constant, like the styled pages') is lowercased once.
const lowercasedLists = new WeakMap<readonly string[], ReadonlySet<string>>();
function lowercased(names: readonly string[]): ReadonlySet<string> {
  let set = lowercasedLists.get(names);
  if (set === undefined) {
    set = new Set(names.map((name) => name.toLowerCase()));
    if (Object.isFrozen(names)) lowercasedLists.set(names, set);
  }
  return set;
}
