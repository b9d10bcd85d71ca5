import { isIP } from 'node:net';
import * as z from 'zod';
import { frontendSchema } from './frontend.js';

/**
 * One rate limit: `<n>/<unit>`, `<n> per <unit>` or `<n> per <m> <unit>`, unit second|minute|hour|day
 * (a trailing `s` is accepted, case is not significant).
 */
export const RATE_LIMIT_PATTERN = /^\s*(\d+)\s*(?:\/|\s+per\s+)\s*(?:(\d+)\s*)?(second|minute|hour|day)s?\s*$/i;

/** A rate-limit list: one or more limits separated by `;` or `,` (JSON Schema pattern). */
const RATE_LIMITS_PATTERN = new RegExp(
  `^${RATE_LIMIT_PATTERN.source.slice(1, -1)}(?:[;,]${RATE_LIMIT_PATTERN.source.slice(1, -1)})*$`,
  'i',
);

const UNIT_SECONDS = { second: 1, minute: 60, hour: 3600, day: 86400 } as const;

/** A parsed rate limit: `points` requests per `seconds`. */
export interface RateLimit {
  /** Requests allowed in the window. */
  readonly points: number;
  /** Window length in seconds. */
  readonly seconds: number;
  /** The limit normalised, e.g. `10/1 minute`. */
  readonly text: string;
}

/** Parses one limit (see {@link RATE_LIMIT_PATTERN}); undefined when malformed or zero. */
export function parseRateLimit(text: string): RateLimit | undefined {
  const m = RATE_LIMIT_PATTERN.exec(text);
  if (m === null) return undefined;
  const points = Number(m[1]);
  const multiplier = m[2] === undefined ? 1 : Number(m[2]);
  const unit = (m[3] ?? '').toLowerCase() as keyof typeof UNIT_SECONDS;
  if (!Number.isSafeInteger(points) || points <= 0 || !(multiplier >= 1)) return undefined;
  return { points, seconds: multiplier * UNIT_SECONDS[unit], text: `${points}/${multiplier} ${unit}` };
}

/**
 * Parses a limit list such as `10/minute;100/hour` (separated by `;` or `,`). The answer names the
 * first malformed part instead of the limits when one is malformed.
 */
export function parseRateLimits(spec: string): RateLimit[] | { invalid: string } {
  const limits: RateLimit[] = [];
  for (const raw of spec.split(/[;,]/)) {
    const limit = parseRateLimit(raw);
    if (limit === undefined) return { invalid: raw.trim() };
    limits.push(limit);
  }
  return limits;
}

/** Names proxy-addr accepts for whole address ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** True for an IP address, a CIDR range (`10.0.0.0/8`, `fd00::/8`) or a proxy-addr range name. */
export function isTrustedHostEntry(text: string): boolean {
  if (PROXY_RANGE_NAMES.includes(text)) return true;
  const [ip, prefix, ...rest] = text.split('/');
  if (rest.length > 0 || ip === undefined) return false;
  const family = isIP(ip);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** True for an http(s) origin written as browsers send it in `Origin`: `https://app.example.com[:port]`, no path. */
export function isWebOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text.toLowerCase();
  } catch {
    return false;
  }
}

const LOCALE = /^[a-zA-Z]{2,3}(?:[_-][a-zA-Z0-9]{2,8})*$/;
const BIND_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const URL_LIKE = /^[a-zA-Z][a-zA-Z0-9+.-]*:\S+$/;
const GUARD_NAME = /^[A-Za-z][A-Za-z0-9_.:-]*$/;

const CSP_DIRECTIVE = /^[a-z]+(?:-[a-z]+)*$/;
const CSP_SOURCE = /^[^\s;,]+$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
const HEADER_VALUE = /^[\x20-\x7e]*$/;
/** The values of the Referrer-Policy header. */
const REFERRER_POLICIES = [
  'no-referrer',
  'no-referrer-when-downgrade',
  'origin',
  'origin-when-cross-origin',
  'same-origin',
  'strict-origin',
  'strict-origin-when-cross-origin',
  'unsafe-url',
] as const;

const bool = (description: string, value: boolean) => z.boolean().default(value).describe(description);
const httpUrl = (what: string) =>
  z.url({ protocol: /^https?$/, error: `an http(s) URL for ${what}, e.g. "https://example.com"` });
const port = () =>
  z.int({ error: 'an integer port number 0-65535' }).min(0, { error: 'a port number 0-65535' }).max(65535, {
    error: 'a port number 0-65535',
  });
const seconds = (min: number) =>
  z
    .int({ error: `a whole number of seconds${min === 0 ? '' : `, at least ${min}`}` })
    .min(min, { error: `a whole number of seconds${min === 0 ? '' : `, at least ${min}`}` });
const count = (min: number, error: string) => z.int({ error }).min(min, { error });
const healthPath = () =>
  z.string().regex(/^\/[A-Za-z0-9._~\/-]*$/, { error: 'an absolute path such as "/healthz"' });
const bodyLimit = (what: string, value: number) =>
  z
    .int({ error: 'a whole number of bytes >= 1' })
    .min(1, { error: 'a whole number of bytes >= 1' })
    .default(value)
    .describe(`Largest ${what} request body parsed, in bytes; a larger one is answered 413. Default ${value}.`);
/**
 * A locale identifier, canonicalized to a BCP 47 tag: `pt_BR` (gettext's and Babel's spelling) is
 * `pt-BR` from here on, the form `Intl`, typesafe-i18n, `Accept-Language` and `<html lang>` take
 * (`Intl.PluralRules('pt_BR')` throws). A catalog may still be named `pt_BR.po`.
 */
const locale = () =>
  z
    .string()
    .regex(LOCALE, { error: 'a locale identifier such as "en", "en_US" or "pt-BR"' })
    .transform((tag) => tag.replaceAll('_', '-'));
const guardNames = (what: string) =>
  z
    .array(z.string().regex(GUARD_NAME, { error: `a ${what} name matching ^[A-Za-z][A-Za-z0-9_.:-]*$` }))
    .refine((list) => new Set(list).size === list.length, { error: `a list of distinct ${what} names` });

/**
 * The shape of every runtime config key the kernel reads, with defaults. Keys are the reference's
 * UPPERCASE names (renamed ones are listed in `CONFIG_ALIASES`).
 */
export const configShape = {
  SECRET_KEY: z
    .string()
    .min(1, { error: 'a non-empty secret string' })
    .optional()
    .describe('Secret used to sign sessions, CSRF and tokens. Lives in app_configs/<app>.ini (or SECRET_KEY_FILE). Required at runtime; no default.'),
  DEBUG: bool('Development mode: Vite dev server proxy, verbose errors. Default false.', false),
  BASE_URL: httpUrl('BASE_URL')
    .optional()
    .describe('Prefix for external URLs built by urlFor(name, params, { external: true }), e.g. "https://example.com".'),
  HOST: z.string().min(1).default('127.0.0.1').describe('Interface fw run listens on. Default 127.0.0.1.'),
  PORT: port().default(8000).describe('Port fw run listens on (0 picks a free port). Default 8000.'),
  APP_FRONTEND: frontendSchema
    .default({ type: 'htmx', alpine: false })
    .describe('Frontend block of the main app (the fluid/ surface). Default {"type":"htmx","alpine":false}.'),
  FW_TAILWIND: bool('Compile every raw Tailwind stylesheet (app and framework) at startup. Default false.', false),
  FW_THEMES: bool('Use the themed raw stylesheet tailwind_raw.css (true) or tailwind_no_themes.css (false). Default true.', true),
  FW_CHECK_FRONTEND: bool('In production, run `npm run check` over the frontend workspaces at boot. Default false (`fw build` checks).', false),
  FW_BUILD_FRONTEND: bool('In production, run `npm run build` over the frontend workspaces at boot. Default false (`fw build` builds).', false),
  FW_ENV: z
    .enum(['production', 'development'])
    .default('production')
    .describe('Which defaults apply: "development" (set by fw dev / fw run --watch) makes DEBUG default to true and SERVER_DRAIN_DELAY to 0; an explicit value in fw.json, the ini or the environment still wins. Default "production".'),
  FW_PROCESSING: bool('Serve styled error pages (errors/<status>.html) to clients that accept HTML. Default true.', true),
  MAIL_SERVER: z.string().min(1).optional().describe('SMTP server host name. Unset: mail is not sent over SMTP.'),
  MAIL_PORT: port().default(587).describe('SMTP port. Default 587 (STARTTLS); use 465 with MAIL_USE_TLS for implicit TLS.'),
  MAIL_USE_TLS: bool('Implicit TLS from the first byte (port 465). Default false. Cannot be combined with MAIL_USE_STARTTLS.', false),
  MAIL_USE_STARTTLS: bool('Upgrade the SMTP connection with STARTTLS. Default true. Cannot be combined with MAIL_USE_TLS.', true),
  MAIL_USERNAME: z.string().optional().describe('SMTP login user name.'),
  MAIL_PASSWORD: z.string().optional().describe('SMTP login password (use MAIL_PASSWORD_FILE for a file).'),
  MAIL_DEFAULT_SENDER: z.string().min(1).optional().describe('From address used when a message names none, e.g. "App <noreply@example.com>".'),
  MAIL_OUTBOX_DIR: z.string().min(1).optional().describe('Folder for .eml files when MAIL_SERVER is unset (development). Default var/outbox.'),
  MAIL_TLS_CA: z.string().min(1).optional().describe('PEM certificate(s) to trust for the SMTP server (e.g. a private CA); usually given as MAIL_TLS_CA_FILE.'),
  MAIL_TLS_REJECT_UNAUTHORIZED: bool('Refuse SMTP servers whose certificate does not verify. Default true; turn off only for local testing.', true),
  PROXY_FIX: bool('Trust X-Forwarded-For from peers listed in PROXY_TRUSTED_HOSTS. Default false.', false),
  PROXY_TRUSTED_HOSTS: z
    .array(
      z.string().refine(isTrustedHostEntry, {
        error: 'an IP address, a CIDR range such as "10.0.0.0/8", or one of loopback, linklocal, uniquelocal',
      }),
    )
    .default([])
    .describe('Proxies whose X-Forwarded-For is believed (with PROXY_FIX): IPs, CIDR ranges, or loopback/linklocal/uniquelocal. Default [].'),
  RATELIMIT_DEFAULT: z
    .string()
    .refine((text) => Array.isArray(parseRateLimits(text)), {
      error:
        'a rate limit like "100/minute", "100 per minute" or "20 per 5 minutes", several separated by ";" (at least 1; unit second, minute, hour or day)',
    })
    .meta({ pattern: RATE_LIMITS_PATTERN.source })
    .optional()
    .describe('Limit applied to every route without its own limit (exempt routes excepted), e.g. "100/minute". Unset: no default limit.'),
  RATELIMIT_ENABLED: bool('Master switch for rate limiting. Default true.', true),
  RATELIMIT_IPV6_PREFIX: z
    .int({ error: 'a prefix length, a whole number 1-128' })
    .min(1, { error: 'a prefix length, a whole number 1-128' })
    .max(128, { error: 'a prefix length, a whole number 1-128' })
    .default(64)
    .describe('Prefix length of the IPv6 network a rate limit counts as one client (IPv4 clients count per address). Default 64.'),
  EVENTS_EVENT_QUEUE_SIZE: z
    .int({ error: 'a positive integer' })
    .positive({ error: 'a positive integer' })
    .default(100)
    .describe('Size of the bounded per-listener event buffer; the oldest events are dropped on overflow. Default 100.'),
  EVENTS_REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: 'a redis URL such as "redis://127.0.0.1:6379/0"' })
    .optional()
    .describe('Redis that carries events between processes. Unset: CACHE_REDIS_URL when CACHE_TYPE is redis, else events stay in the process.'),
  WS_MAX_PAYLOAD: z
    .int({ error: 'a positive integer (bytes)' })
    .positive({ error: 'a positive integer (bytes)' })
    .default(65_536)
    .describe('Largest websocket message a client may send, in bytes; a larger one closes the socket with 1009. Default 65536.'),
  WS_ALLOWED_ORIGINS: z
    .array(
      z.string().refine((value) => value === '*' || isWebOrigin(value), {
        error: 'an origin such as "https://app.example.com" (scheme, host and port only), or "*" for any',
      }),
    )
    .default([])
    .describe(
      'Other origins whose pages may open websockets (an upgrade from a browser page on another origin is refused with 403); the request\'s own origin and BASE_URL\'s are always allowed, "*" allows any. Default [].',
    ),
  WS_MAX_BUFFERED_BYTES: z
    .int({ error: 'a positive integer (bytes)' })
    .positive({ error: 'a positive integer (bytes)' })
    .default(1_048_576)
    .describe('Pushed events are skipped for a socket with more than this many bytes still unsent (a slow client). Default 1048576.'),
  CACHE_TYPE: z
    .enum(['memory', 'file', 'redis'])
    .default('file')
    .describe('Cache backend for cache entries, sessions and JWT signing keys: memory, file or redis. Default file.'),
  CACHE_REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: 'a redis URL such as "redis://127.0.0.1:6379/0"' })
    .optional()
    .describe('Redis URL used when CACHE_TYPE is redis, e.g. "redis://127.0.0.1:6379/0".'),
  CACHE_DIR: z
    .string()
    .min(1)
    .default('./var/cache')
    .describe('Folder of the file cache, relative to the project root. Default "./var/cache".'),
  EXT_I18N: bool('Turn the translation extension on (reference: EXT_BABEL). Default false, or true when I18N_SUPPORTED_LOCALES is set (and EXT_I18N is not).', false),
  I18N_DEFAULT_LOCALE: locale().default('en').describe('Default locale (reference: BABEL_DEFAULT_LOCALE). Default "en".'),
  I18N_SUPPORTED_LOCALES: z
    .array(locale())
    .min(1, { error: 'a list of at least one locale' })
    .default(['en'])
    .describe('Locales a request may select through ?lang=, the lang cookie or Accept-Language; one catalog set is loaded per locale (reference: BABEL_SUPPORTED_LOCALES). Default ["en"].'),
  I18N_DATABASE_BIND: z
    .string()
    .regex(BIND_NAME, { error: 'a bind name from DATABASE_BINDS' })
    .optional()
    .describe('DATABASE_BINDS entry holding translations (reference: BABEL_DATABASE_BIND).'),
  DATABASE_BINDS: z
    .record(
      z.string().regex(BIND_NAME, { error: 'a bind name matching ^[A-Za-z_][A-Za-z0-9_-]*$' }),
      z.string().regex(URL_LIKE, { error: 'a database URL such as "file:./var/main.db" or "postgres://host/db"' }),
    )
    .default({ main: 'file:./var/main.db' })
    .describe('Database binds: name -> URL (reference: SQLALCHEMY_BINDS). Default {"main":"file:./var/main.db"}.'),
  SECURITY_MODELS_DB_BIND: z
    .string()
    .regex(BIND_NAME, { error: 'a bind name from DATABASE_BINDS' })
    .default('main')
    .describe('DATABASE_BINDS entry holding users and security models. Default "main".'),
  AUTH_ROLES: guardNames('role').default([]).describe('Role names; the generators write a guard per role. Default [].'),
  AUTH_PERMISSIONS: guardNames('permission')
    .default([])
    .describe('Permission names; the generators write a guard per permission. Default [].'),
  AUTH_TWO_FACTOR: bool(
    'With the auth scaffold (`fw create auth`): generate TOTP two-factor pages (enrol, challenge, recovery codes, disable). Default true.',
    true,
  ),
  FW_OCEAN_URL: z
    .string()
    .refine((v) => /^(https?|file):/i.test(v) || !/^[a-z][a-z0-9+.-]*:/i.test(v), {
      error: 'an http(s) or file: URL, or a path, of the Ocean index document',
    })
    .optional()
    .describe('Where `fw ocean` reads its index: the URL (http, https or file:) or path of the index JSON document. Unset: the index shipped with fw.'),
  SERVER_HEADERS_TIMEOUT: seconds(1)
    .default(20)
    .describe('Seconds a client has to send a request\'s headers (counted from its first byte); slower connections (slowloris) get 408 and are closed. Default 20.'),
  SERVER_REQUEST_TIMEOUT: seconds(1)
    .default(120)
    .describe('Seconds a client has to send a whole request, body included. Default 120.'),
  SERVER_KEEP_ALIVE_TIMEOUT: seconds(1)
    .default(65)
    .describe('Seconds an idle keep-alive connection stays open; keep it above your load balancer\'s idle timeout (60 s on most). Default 65.'),
  SERVER_MAX_CONNECTIONS: count(0, 'a whole number of connections (0 = no cap)')
    .default(10_000)
    .describe('Open connections (websockets included) one process accepts; more are refused at once. 0 = no cap. Default 10000.'),
  SERVER_DRAIN_DELAY: seconds(0)
    .default(5)
    .describe('On SIGTERM, seconds the readiness route fails (while requests are still served) before the server stops accepting, so load balancers stop sending traffic first. Applied only when the readiness route was probed in the last minute, and not on SIGINT. Default 5.'),
  SERVER_DRAIN_TIMEOUT: seconds(1)
    .default(10)
    .describe('Seconds in-flight requests get to finish once the server stops accepting; then their connections are closed. Default 10.'),
  WEB_CONCURRENCY: count(1, 'a whole number of worker processes, at least 1')
    .default(1)
    .describe('Worker processes `npm start` / `fw start` runs on node:cluster (`--workers N` wins). Default 1.'),
  FW_INSTANCES: count(1, 'a whole number of instances, at least 1')
    .default(1)
    .describe('Hosts or containers that run this app behind one load balancer. Above 1, fw warns at startup about backends that are not shared between hosts. Default 1.'),
  HEALTH_ENABLED: bool('Serve the liveness and readiness routes (HEALTH_LIVE_PATH, HEALTH_READY_PATH). Default true.', true),
  HEALTH_LIVE_PATH: healthPath().default('/healthz').describe('Path of the liveness route. Default "/healthz".'),
  HEALTH_READY_PATH: healthPath().default('/readyz').describe('Path of the readiness route. Default "/readyz".'),
  HEALTH_ACCESS: z
    .enum(['public', 'loopback', 'token'])
    .default('public')
    .describe('Who may call the health routes: anyone, loopback peers only, or callers sending HEALTH_TOKEN in the X-Health-Token header. Default public.'),
  HEALTH_TOKEN: z
    .string()
    .min(16, { error: 'a token of at least 16 characters' })
    .optional()
    .describe('The token HEALTH_ACCESS=token requires in the X-Health-Token header (use HEALTH_TOKEN_FILE for a file).'),
  HEALTH_CHECK_TIMEOUT: seconds(1)
    .default(2)
    .describe('Seconds each readiness check (cache, events bus, database binds, the app\'s own) may take before it counts as failed. Default 2.'),
  REDIS_TIMEOUT: seconds(1)
    .default(2)
    .describe('Seconds a Redis command (cache, rate-limit counters, events bus ping) may take; a frozen Redis fails requests that need it with 503 after this. Default 2.'),
  DATABASE_CONNECT_TIMEOUT: seconds(1)
    .default(5)
    .describe('Seconds to open a PostgreSQL connection of a bind before the query fails with 503. Default 5.'),
  DATABASE_STATEMENT_TIMEOUT: seconds(1)
    .default(30)
    .describe('Seconds one PostgreSQL statement may run (server-side statement_timeout; the client gives up 1 s later, e.g. on a frozen server); then the request answers 503. Default 30.'),
  WS_PING_INTERVAL: seconds(0)
    .default(30)
    .describe('Seconds between websocket pings; a socket that has not answered the previous ping is dropped. 0 turns the heartbeat off. Default 30.'),
  FW_LOG_LEVEL: z
    .enum(['debug', 'info', 'warn', 'error', 'silent'])
    .default('info')
    .describe('Lowest level the default logger writes: debug, info, warn, error or silent. Default info.'),
  FW_LOG_FORMAT: z
    .enum(['json', 'text'])
    .optional()
    .describe('Default logger format: json (pino, one JSON object per line) or text (one readable line). Unset: text on a terminal, json otherwise.'),
  FW_LOG_REQUESTS: bool('Log one line per request (method, path, status, duration, request id) and answer X-Request-Id. Default true.', true),
  SECURITY_HEADERS: bool(
    'Send the security headers (CSP, X-Content-Type-Options, X-Frame-Options, Referrer-Policy, HSTS over HTTPS, ...) on every response. Default true.',
    true,
  ),
  SECURITY_CSP: z
    .record(
      z.string().regex(CSP_DIRECTIVE, { error: 'a CSP directive name such as "img-src"' }),
      z.union([z.array(z.string().regex(CSP_SOURCE, { error: 'a CSP source without spaces, ";" or ",", e.g. "\'self\'" or "https://cdn.example"' })), z.null()]),
    )
    .default({})
    .describe('Content-Security-Policy directives merged over fw\'s default policy: directive -> list of sources, null drops a directive. Default {}.'),
  SECURITY_CSP_MODE: z
    .enum(['enforce', 'report-only', 'off'])
    .default('enforce')
    .describe('Send the CSP as Content-Security-Policy (enforce), Content-Security-Policy-Report-Only, or not at all (off). Default enforce.'),
  SECURITY_FRAME_OPTIONS: z
    .enum(['DENY', 'SAMEORIGIN', 'off'])
    .default('DENY')
    .describe('X-Frame-Options and the CSP frame-ancestors that go with it (DENY: \'none\', SAMEORIGIN: \'self\'); off sends neither. Default DENY.'),
  SECURITY_REFERRER_POLICY: z
    .enum([...REFERRER_POLICIES, 'off'])
    .default('strict-origin-when-cross-origin')
    .describe('Referrer-Policy header value, or off. Default strict-origin-when-cross-origin.'),
  SECURITY_HSTS_MAX_AGE: z
    .int({ error: 'a whole number of seconds >= 0' })
    .min(0, { error: 'a whole number of seconds >= 0' })
    .default(31_536_000)
    .describe('Strict-Transport-Security max-age in seconds, sent on HTTPS requests only (also through a trusted proxy); 0 sends no HSTS. Default 31536000 (one year).'),
  SECURITY_HSTS_INCLUDE_SUBDOMAINS: bool('Add includeSubDomains to Strict-Transport-Security. Default true.', true),
  SECURITY_HSTS_PRELOAD: bool('Add preload to Strict-Transport-Security (only after submitting the domain to the preload list). Default false.', false),
  SECURITY_HEADER_OVERRIDES: z
    .record(
      z.string().regex(HEADER_NAME, { error: 'an HTTP header name such as "Cross-Origin-Opener-Policy"' }),
      z.union([z.string().regex(HEADER_VALUE, { error: 'a header value of visible characters and spaces' }), z.null()]),
    )
    .default({})
    .describe('Last word on any security header fw sends: header name -> value, null to drop it. Default {}.'),
  FW_ALPINE_BUILD: z
    .enum(['csp', 'standard'])
    .default('csp')
    .describe('The Alpine build served at /fluid/static/vendor/alpine.min.js: csp (@alpinejs/csp, no eval) or standard (alpinejs; adds \'unsafe-eval\' to the CSP script-src). Default csp.'),
  BODY_PARSER: bool('Parse JSON, form and text request bodies of POST, PUT, PATCH and DELETE into ctx.request.body. Default true.', true),
  BODY_JSON_LIMIT: bodyLimit('JSON', 1_048_576),
  BODY_FORM_LIMIT: bodyLimit('application/x-www-form-urlencoded', 102_400),
  BODY_TEXT_LIMIT: bodyLimit('text/plain', 102_400),
} as const;

/** A runtime config key the kernel knows. */
export type KnownConfigKey = keyof typeof configShape;

/** Every known runtime config key, in documentation order. */
export const CONFIG_KEYS = Object.keys(configShape) as KnownConfigKey[];
