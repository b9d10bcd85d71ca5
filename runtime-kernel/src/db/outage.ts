/**
 * Database outages: telling an error that means "the database is not answering" from one that
 * means "this query is wrong", and what fw does about the first kind.
 *
 * An outage is a refused or lost connection, a connect or statement timeout (a frozen or
 * overloaded server), or a server that is shutting down or out of connections. Queries that hit
 * one fail with {@link DatabaseUnavailableError}: `HttpError(503)` with `Retry-After`, code
 * `DATABASE_UNAVAILABLE`, the bind named and the driver's error as its `cause`. Every other
 * error (a constraint, a missing table, bad SQL) passes through unchanged.
 */
import { HttpError, outageFields, type Logger } from '../core/errors.js';

/** Seconds a client is asked to wait before retrying while a database is away. */
const RETRY_AFTER = '5';

/** Prisma's error codes for an unreachable server, a timeout, a closed connection or an exhausted pool. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** Driver-adapter error kinds of the same. */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
/** PostgreSQL SQLSTATEs: statement timeout, shutting down, cannot connect now, too many connections, connection exceptions. */
const SQLSTATES = /^(57014|57P0[123]|53300|08\d\d\d)$/;
/** Socket errors of a server that went away. */
const NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);
/** pg's own timeout and lost-connection errors (plain `Error`s without a code). */
const PG_MESSAGES = /^(Query read timeout|timeout exceeded when trying to connect|Connection terminated)/;

/** The database of `bind` is not answering: a 503 the error handler answers without a stack. */
export class DatabaseUnavailableError extends HttpError {
  /** Always `'DatabaseUnavailableError'`. */
  override name = 'DatabaseUnavailableError';
  /** The bind that is down. */
  readonly bind: string;
  constructor(bind: string, cause: unknown) {
    super(503, 'Service Unavailable', { code: 'DATABASE_UNAVAILABLE', headers: { 'Retry-After': RETRY_AFTER }, cause });
    this.bind = bind;
  }
}

/** True when `error` (or an error it wraps) says the database is not answering; see the module comment. */
export function isOutage(error: unknown): boolean {
  for (let e = error, depth = 0; e !== null && typeof e === 'object' && depth < 6; depth++) {
    if (e instanceof DatabaseUnavailableError) return true;
    const { code, meta, message, cause } = e as { code?: unknown; meta?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (PRISMA_CODES.has(code) || NODE_CODES.has(code) || SQLSTATES.test(code))) return true;
    if (typeof message === 'string' && PG_MESSAGES.test(message)) return true;
    const adapter = (meta as { driverAdapterError?: { cause?: { kind?: unknown; code?: unknown; originalCode?: unknown } } } | undefined)?.driverAdapterError?.cause;
    if (adapter) {
      if (typeof adapter.kind === 'string' && ADAPTER_KINDS.has(adapter.kind)) return true;
      for (const c of [adapter.code, adapter.originalCode]) if (typeof c === 'string' && SQLSTATES.test(c)) return true;
    }
    e = cause;
  }
  return false;
}

/** How often a database that is down is probed. */
const PROBE_MS = 1000;

/**
 * The outage state of one bind: logs the outage once and the recovery once, and while the bind
 * is down probes it every second so the recovery is noticed (and logged) without traffic.
 */
export class BindWatch {
  readonly #bind: string;
  readonly #logger: () => Logger | undefined;
  readonly #probe: (() => Promise<unknown>) | undefined;
  #down = false;
  #timer: NodeJS.Timeout | undefined;

  /** `probe` runs a trivial query; without one, the recovery is noticed by the next query. */
  constructor(bind: string, logger: () => Logger | undefined, probe?: () => Promise<unknown>) {
    this.#bind = bind;
    this.#logger = logger;
    this.#probe = probe;
  }

  /** True while the bind is down. */
  get down(): boolean {
    return this.#down;
  }

  /** A query failed with `error`: an outage becomes a {@link DatabaseUnavailableError}; other errors are returned as they are. */
  failed(error: unknown): unknown {
    if (!isOutage(error)) return error;
    if (error instanceof DatabaseUnavailableError) return error;
    if (!this.#down) {
      this.#down = true;
      this.#logger()?.error(`database: bind "${this.#bind}" unavailable; requests that need it answer 503`, { bind: this.#bind, ...outageFields(error) });
      this.#schedule();
    }
    return new DatabaseUnavailableError(this.#bind, error);
  }

  /** A query succeeded. */
  succeeded(): void {
    if (!this.#down) return;
    this.#down = false;
    clearTimeout(this.#timer);
    this.#logger()?.info(`database: bind "${this.#bind}" available again`, { bind: this.#bind });
  }

  /** Forgets the outage and stops probing (the database was disposed; it starts afresh when used again). */
  reset(): void {
    this.#down = false;
    clearTimeout(this.#timer);
  }

  #schedule(): void {
    const probe = this.#probe;
    if (!probe) return;
    this.#timer = setTimeout(() => {
      probe().then(
        () => this.succeeded(),
        () => {
          if (this.#down) this.#schedule();
        },
      );
    }, PROBE_MS);
    this.#timer.unref();
  }
}
