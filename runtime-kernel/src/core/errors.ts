/**
 * Errors and logging: the kernel's shared vocabulary for failure.
 *
 * Every concern throws one of these classes so that callers can tell a framework fault
 * (`FrameworkException`) from an HTTP answer (`HttpError`) without string matching.
 */

/** A fault of the framework or its configuration (the reference's `FrameworkException`). */
export class FrameworkException extends Error {
  /** Always `'FrameworkException'`. */
  override name = 'FrameworkException';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** One problem found while loading the config. */
export interface ConfigErrorProblem {
  /** Where the value came from: `fw.json`, `app_configs/<app>.ini`, `environment`, `overrides`. */
  readonly source: string | undefined;
  /** The key path, e.g. `APP_FRONTEND.type`. */
  readonly path: string;
  /** The full line, e.g. `fw.json: APP_FRONTEND.type: got "x"; expected one of none, htmx, vite`. */
  readonly line: string;
}

/** Bad or missing configuration (thrown when the config of an app cannot be loaded); the message lists every problem. */
export class ConfigError extends FrameworkException {
  /** Always `'ConfigError'`. */
  override name = 'ConfigError';
  /** Every problem, in order. */
  readonly problems: readonly ConfigErrorProblem[];
  constructor(message: string, problems: readonly ConfigErrorProblem[] = [], options?: { cause?: unknown }) {
    super(message, options);
    this.problems = problems;
  }
}

/** Extra fields an `HttpError` carries into the response. */
export interface HttpErrorOptions {
  /** Machine-readable code for API callers, e.g. `EMAIL_NOT_VERIFIED`. */
  code?: string;
  /** Headers the response must keep (e.g. `WWW-Authenticate`, `Retry-After`). */
  headers?: Record<string, string>;
  /** Underlying error, never shown to the client. */
  cause?: unknown;
  /** Whether `message` may be shown to the client. Defaults to true below 500. */
  expose?: boolean;
}

/**
 * An HTTP answer raised from anywhere in a request (the reference's `HTTPException`).
 * The kernel turns it into a JSON body `{ error, code? }`, or a styled page for HTML clients.
 */
export class HttpError extends Error {
  /** Always `'HttpError'`. */
  override name = 'HttpError';
  /** The HTTP status of the answer, e.g. `404`. */
  readonly status: number;
  /** Machine-readable code sent as `code` in a JSON answer (e.g. `EMAIL_NOT_VERIFIED`), if any. */
  readonly code: string | undefined;
  /** Headers the answer carries (e.g. `WWW-Authenticate`, `Retry-After`); `{}` when none. */
  readonly headers: Record<string, string>;
  /** Whether the message is shown to the client; otherwise the status's reason phrase is. Default: true below 500. */
  readonly expose: boolean;
  constructor(status: number, message?: string, options: HttpErrorOptions = {}) {
    super(message ?? defaultMessage(status), { cause: options.cause });
    this.status = status;
    this.code = options.code;
    this.headers = options.headers ?? {};
    this.expose = options.expose ?? status < 500;
  }
}

const MESSAGES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** The standard reason phrase for a status, or `HTTP <status>`. */
export function defaultMessage(status: number): string {
  return MESSAGES[status] ?? `HTTP ${status}`;
}

/** The fields of an outage line that name its cause: see {@link outageFields}. */
export interface OutageFields {
  /** The first meaningful line of the cause's message, e.g. `connect ECONNREFUSED 127.0.0.1:6379`. */
  error: string;
  /** The cause's code, when it (or an error it wraps) has one: `ECONNREFUSED`, `ETIMEDOUT`, Prisma's `P1001`. */
  code?: string;
}

/**
 * The cause of a backend outage as the fields of its one log line (`@fw/kernel/docs/logging.md`, "Outages"):
 * the first meaningful line of its message and its code, never its stack. An outage is expected
 * and logged once, so its line stays one line in both log formats: a stack or Prisma's excerpt of
 * the calling code (a Prisma message opens with an "Invalid ... invocation in" header, the calling
 * file and its numbered source lines, and names the cause after them) would spread it over many.
 * Plain strings, so the JSON line is written without pino (logger.ts, `plainLine`).
 */
export function outageFields(cause: unknown): OutageFields {
  const fields: OutageFields = { error: firstMeaningfulLine(cause) };
  for (let e = cause, depth = 0; e !== null && typeof e === 'object' && depth < 6; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') {
      fields.code = code;
      break;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return fields;
}

/** Lines of a Prisma message that locate the call rather than say what failed. */
const PRISMA_CONTEXT = [
  /^Invalid `[^`]*` invocation( in)?:?$/, // the header
  /^\S.*:\d+:\d+$/, // the calling file, line and column
  /^(→\s*)?\d+\s/, // a numbered source line (→ marks the call)
];

function firstMeaningfulLine(cause: unknown): string {
  const text = cause instanceof Error ? cause.message : typeof cause === 'string' ? cause : String(cause);
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line !== '' && !PRISMA_CONTEXT.some((pattern) => pattern.test(line))) return line;
  }
  const name = cause instanceof Error ? cause.name : 'unknown error';
  return text.trim() === '' ? name : text.trim().replace(/\s*\n\s*/g, ' ');
}

// The logger lives in logger.ts; its types and factory stay importable from here.
export { createLogger } from './logger.js';
export type { Logger, LogFields, LogLevel, LogFormat, LoggerOptions } from './logger.js';
