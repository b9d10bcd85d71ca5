/**
 * The header values the security plugin sends, computed once from the config.
 *
 * helmet (pinned in the kernel's dependencies) is the engine: its header middlewares validate
 * the options (a CSP directive or keyword written wrong throws) and produce each value. fw runs
 * them once, against a response that only records the headers, instead of per request, because
 * the kernel needs two things helmet's per-request middleware does not give: headers that survive
 * the after-request processors (they replace a response, headers included), and a CSP nonce only
 * for the responses that use one (so a JSON answer pays nothing for it).
 *
 * fw's default policy (production):
 *
 * ```
 * default-src 'self'; base-uri 'self'; font-src 'self' https: data:; form-action 'self';
 * frame-ancestors 'none'; img-src 'self' data:; object-src 'none'; script-src 'self';
 * script-src-attr 'none'; style-src 'self'; upgrade-insecure-requests (HTTPS only)
 * ```
 *
 * plus `'nonce-…'` in `script-src` and `style-src` when the response asked for a nonce. In debug
 * (Vite's dev client injects `<style>` elements and talks to its HMR websocket) `style-src` gets
 * `'unsafe-inline'` instead of the nonce, `connect-src` allows `ws:`/`wss:` and `worker-src`
 * `'self' blob:` (the client's reconnect ping runs in a blob: worker). `FW_ALPINE_BUILD`
 * `standard` adds `'unsafe-eval'` to `script-src` (the standard Alpine build compiles expressions
 * with `new Function`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { contentSecurityPolicy, strictTransportSecurity } from 'helmet';
import type { Config } from '@fw/schemas';
import { ConfigError } from '../core/errors.js';

/** CSP directives: name → sources (`null` drops the directive). */
export type CspDirectives = Readonly<Record<string, readonly string[] | null>>;

/** A header list, in sending order: `[name, value]`. */
export type HeaderList = readonly (readonly [string, string])[];

/** What a route may change for its own responses (`securityHeaders()`, `overrideSecurityHeaders()`). */
export interface SecurityHeaderOverrides {
  /** CSP directives merged over the app's policy (`null` drops one); `false` sends no CSP. */
  readonly csp?: CspDirectives | false;
  /** Any header: a value replaces fw's, `null` drops it (names are case-insensitive). */
  readonly headers?: Readonly<Record<string, string | null>>;
}

// Stands for the nonce in the precomputed nonced policy; the policy is split around it.
const NONCE_MARK = 'fwnoncemark';
const NONCE_SOURCE = `'nonce-${NONCE_MARK}'`;

/** The frame-ancestors that goes with each X-Frame-Options choice. */
const FRAME_ANCESTORS = { DENY: ["'none'"], SAMEORIGIN: ["'self'"] } as const;

/** The config keys the policy reads. */
type PolicyConfig = Pick<
  Config,
  | 'DEBUG'
  | 'SECURITY_CSP'
  | 'SECURITY_CSP_MODE'
  | 'SECURITY_FRAME_OPTIONS'
  | 'SECURITY_REFERRER_POLICY'
  | 'SECURITY_HSTS_MAX_AGE'
  | 'SECURITY_HSTS_INCLUDE_SUBDOMAINS'
  | 'SECURITY_HSTS_PRELOAD'
  | 'SECURITY_HEADER_OVERRIDES'
  | 'FW_ALPINE_BUILD'
>;

/** fw's CSP for the config, before the app's `SECURITY_CSP`. */
export function defaultDirectives(config: PolicyConfig): Record<string, string[]> {
  const script = ["'self'"];
  if (config.FW_ALPINE_BUILD === 'standard') script.push("'unsafe-eval'");
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'font-src': ["'self'", 'https:', 'data:'],
    'form-action': ["'self'"],
    'img-src': ["'self'", 'data:'],
    'object-src': ["'none'"],
    'script-src': script,
    'script-src-attr': ["'none'"],
    'style-src': config.DEBUG ? ["'self'", "'unsafe-inline'"] : ["'self'"],
  };
  if (config.SECURITY_FRAME_OPTIONS !== 'off') directives['frame-ancestors'] = [...FRAME_ANCESTORS[config.SECURITY_FRAME_OPTIONS]];
  if (config.DEBUG) {
    directives['connect-src'] = ["'self'", 'ws:', 'wss:'];
    // Vite's client, having lost its HMR socket (the app restarted), pings the server from a
    // SharedWorker made from a blob: URL, then reloads the page; without this the worker was
    // refused and a Vite page never reloaded after a restart.
    directives['worker-src'] = ["'self'", 'blob:'];
  }
  return directives;
}

/** Records the headers a helmet middleware sets. */
function capture(middleware: (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void): [string, string][] {
  const headers: [string, string][] = [];
  const res = {
    setHeader(name: string, value: string) {
      headers.push([name, String(value)]);
      return res;
    },
    removeHeader() {},
  };
  let failure: unknown;
  middleware({} as IncomingMessage, res as unknown as ServerResponse, (err) => {
    failure = err;
  });
  if (failure !== undefined) throw failure;
  return headers;
}

function configError(key: string, err: unknown): ConfigError {
  let message = err instanceof Error ? err.message : String(err);
  // helmet's own advice names one of its options, which fw's config has no way to set.
  if (/needs a default-src/.test(message)) {
    message =
      'the Content-Security-Policy needs a default-src, and "default-src": null dropped it; give it sources ' +
      `(e.g. "default-src": ["'self'"]), or set SECURITY_CSP_MODE = off for no CSP at all`;
  }
  return new ConfigError(`${key}: ${message}`, [{ source: undefined, path: key, line: `${key}: ${message}` }], { cause: err });
}

/** Merges `extra` over `base` (a `null` drops the directive). */
function merge(base: Readonly<Record<string, readonly string[]>>, extra: CspDirectives): Record<string, readonly string[]> {
  const out: Record<string, readonly string[]> = { ...base };
  for (const [name, sources] of Object.entries(extra)) {
    if (sources === null) delete out[name];
    else out[name] = [...sources];
  }
  return out;
}

/** The CSP header value of `directives` through helmet (validated); `nonce` adds the nonce mark. */
function cspValue(directives: Readonly<Record<string, readonly string[]>>, https: boolean, nonce: boolean, debug: boolean): string {
  const d: Record<string, string[]> = {};
  for (const [name, sources] of Object.entries(directives)) d[name] = [...sources];
  if (nonce) {
    // A nonce would switch 'unsafe-inline' off, so debug styles keep 'unsafe-inline' instead.
    for (const name of debug ? ['script-src'] : ['script-src', 'style-src']) {
      const target = d[name] ?? (d[name] === undefined && d['default-src'] ? [...d['default-src']] : undefined);
      if (target && !target.includes("'none'")) d[name] = [...target, NONCE_SOURCE];
    }
  }
  if (https && !('upgrade-insecure-requests' in d)) d['upgrade-insecure-requests'] = [];
  if (!https) delete d['upgrade-insecure-requests']; // it would send a plain-HTTP site's own requests to https
  const [[, value]] = capture(contentSecurityPolicy({ useDefaults: false, directives: d })) as [[string, string]];
  return value;
}

/** One request shape's CSP: the value without a nonce, and the nonced value split at the nonce. */
interface CspPair {
  readonly plain: string;
  readonly nonced: readonly string[];
}

/** What a policy is made of, once the config and any route overrides are folded in. */
interface PolicyParts {
  /** The CSP directives. */
  readonly directives: Readonly<Record<string, readonly string[]>>;
  /** Whether a CSP is sent. */
  readonly csp: boolean;
  /** Route header overrides (lowercase names), applied after `SECURITY_HEADER_OVERRIDES`. */
  readonly headers: Readonly<Record<string, string | null>>;
}

/**
 * The app's security headers: the lists to send over plain HTTP and over HTTPS (HSTS and
 * `upgrade-insecure-requests` only there), and the CSP with a nonce on demand.
 */
export class HeaderPolicy {
  /**
   * Headers for a plain-HTTP request (the CSP without a nonce). Every list holds its names in
   * lowercase, as HTTP/2 writes them: Node's `setHeader` keys its table by the lowercased name, and
   * a name already in lowercase costs no new string per response (about 1 µs for five headers).
   */
  readonly http: HeaderList;
  /** Headers for an HTTPS request, directly or through a trusted proxy. */
  readonly https: HeaderList;
  /**
   * The headers of an inert response (see {@link isInert}: JSON, CSS, images, fonts, …), over
   * plain HTTP and HTTPS: those of `http`/`https` that apply to a resource a browser never runs
   * as a page or a worker (no `Cross-Origin-Opener-Policy`, `Origin-Agent-Cluster`,
   * `X-DNS-Prefetch-Control`, `X-Download-Options`, `X-Permitted-Cross-Domain-Policies`,
   * `X-XSS-Protection`), and fw's CSP shortened to `default-src 'none'` plus the policy's
   * `frame-ancestors`.
   */
  readonly inert: { readonly http: HeaderList; readonly https: HeaderList };
  /** `content-security-policy`, `…-report-only`, or `undefined` when no CSP is sent. */
  readonly cspHeader: string | undefined;
  /** The directives the CSP is made of (fw's defaults with `SECURITY_CSP` and any overrides). */
  readonly directives: Readonly<Record<string, readonly string[]>>;
  /**
   * Whether a same-origin `<script src>` needs the nonce too: `script-src` (or `default-src`) has
   * no `'self'`, or has `'strict-dynamic'` (which makes browsers ignore `'self'`).
   */
  readonly sameOriginNeedsNonce: boolean;
  readonly #parts: PolicyParts;
  readonly #csp: { http: CspPair; https: CspPair } | undefined;
  // Whether the sent CSP is fw's own (a header override of the CSP wins over the nonce).
  readonly #nonceable: { http: boolean; https: boolean };
  readonly #config: PolicyConfig;
  readonly #variants = new WeakMap<SecurityHeaderOverrides, HeaderPolicy>();

  /** The policy of `config`; throws `ConfigError` naming the key of a value helmet refuses. */
  constructor(config: PolicyConfig, parts?: PolicyParts, what = 'SECURITY_CSP') {
    this.#config = config;
    const debug = config.DEBUG;
    const p: PolicyParts = parts ?? {
      directives: merge(defaultDirectives(config), config.SECURITY_CSP),
      csp: config.SECURITY_CSP_MODE !== 'off',
      headers: {},
    };
    this.#parts = p;
    this.directives = p.directives;
    const scripts = p.directives['script-src'] ?? p.directives['default-src'] ?? [];
    this.sameOriginNeedsNonce = p.csp && (!scripts.includes("'self'") || scripts.includes("'strict-dynamic'"));
    try {
      this.#csp = p.csp
        ? {
            http: { plain: cspValue(p.directives, false, false, debug), nonced: cspValue(p.directives, false, true, debug).split(NONCE_MARK) },
            https: { plain: cspValue(p.directives, true, false, debug), nonced: cspValue(p.directives, true, true, debug).split(NONCE_MARK) },
          }
        : undefined;
    } catch (err) {
      throw configError(what, err);
    }
    this.cspHeader = p.csp ? (config.SECURITY_CSP_MODE === 'report-only' ? 'content-security-policy-report-only' : 'content-security-policy') : undefined;

    const base = capture(
      helmet({
        contentSecurityPolicy: false,
        strictTransportSecurity: false,
        xFrameOptions: config.SECURITY_FRAME_OPTIONS === 'off' ? false : { action: config.SECURITY_FRAME_OPTIONS === 'DENY' ? 'deny' : 'sameorigin' },
        referrerPolicy: config.SECURITY_REFERRER_POLICY === 'off' ? false : { policy: config.SECURITY_REFERRER_POLICY },
      }),
    );
    const hsts =
      config.SECURITY_HSTS_MAX_AGE > 0
        ? capture(
            strictTransportSecurity({
              maxAge: config.SECURITY_HSTS_MAX_AGE,
              includeSubDomains: config.SECURITY_HSTS_INCLUDE_SUBDOMAINS,
              preload: config.SECURITY_HSTS_PRELOAD,
            }),
          )
        : [];
    const finish = (list: [string, string][], csp: CspPair | undefined): HeaderList => {
      const all: HeaderList = csp && this.cspHeader ? [[this.cspHeader, csp.plain], ...list] : list;
      return applyOverrides(applyOverrides(all, config.SECURITY_HEADER_OVERRIDES), p.headers).map(([name, value]) => [name.toLowerCase(), value] as const);
    };
    this.http = finish(base, this.#csp?.http);
    this.https = finish([...base, ...hsts], this.#csp?.https);
    const own = (list: HeaderList, csp: CspPair | undefined) => csp !== undefined && list.some(([name, value]) => name === this.cspHeader && value === csp.plain);
    this.#nonceable = { http: own(this.http, this.#csp?.http), https: own(this.https, this.#csp?.https) };
    let inertCsp: string | undefined;
    try {
      inertCsp = p.csp ? cspValue(inertDirectives(p.directives), false, false, debug) : undefined;
    } catch (err) {
      throw configError(what, err);
    }
    const inert = (list: HeaderList, csp: CspPair | undefined): HeaderList =>
      list
        .filter(([name]) => !DOCUMENT_ONLY.has(name.toLowerCase()))
        .map(([name, value]) => (inertCsp !== undefined && name === this.cspHeader && value === csp?.plain ? [name, inertCsp] : [name, value]));
    this.inert = { http: inert(this.http, this.#csp?.http), https: inert(this.https, this.#csp?.https) };
  }

  /** The headers of a response: over HTTPS or not, inert (see {@link isInert}) or not. */
  headers(https: boolean, inert: boolean): HeaderList {
    if (inert) return https ? this.inert.https : this.inert.http;
    return https ? this.https : this.http;
  }

  /** True when some header is sent at all. */
  get sendsAny(): boolean {
    return this.http.length > 0 || this.https.length > 0;
  }

  /** The CSP value carrying `nonce` (`undefined` when no CSP is sent or a header override replaced it). */
  noncedCsp(https: boolean, nonce: string): string | undefined {
    const csp = this.#csp;
    if (!csp || !(https ? this.#nonceable.https : this.#nonceable.http)) return undefined;
    return (https ? csp.https : csp.http).nonced.join(nonce);
  }

  /**
   * This policy with a route's overrides on top. Computed once per overrides object (kept while
   * the object lives), so a route marker's policy is built on its first request only.
   */
  with(overrides: SecurityHeaderOverrides): HeaderPolicy {
    let variant = this.#variants.get(overrides);
    if (!variant) {
      const headers: Record<string, string | null> = { ...this.#parts.headers };
      for (const [name, value] of Object.entries(overrides.headers ?? {})) headers[name.toLowerCase()] = value;
      const parts: PolicyParts = {
        directives: overrides.csp ? merge(this.#parts.directives, overrides.csp) : this.#parts.directives,
        csp: this.#parts.csp && overrides.csp !== false,
        headers,
      };
      variant = new HeaderPolicy(this.#config, parts, 'securityHeaders({ csp })');
      this.#variants.set(overrides, variant);
    }
    return variant;
  }
}

/** The headers that only a page (or a worker) heeds: an inert response goes without them. */
const DOCUMENT_ONLY = new Set([
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
]);

/** An inert response's CSP: nothing may load, framed as the policy says. */
function inertDirectives(directives: Readonly<Record<string, readonly string[]>>): Record<string, readonly string[]> {
  const frame = directives['frame-ancestors'];
  return frame ? { 'default-src': ["'none'"], 'frame-ancestors': frame } : { 'default-src': ["'none'"] };
}

// Content types seen, and whether each is inert (bounded: a type is a handful of strings per app).
const inertTypes = new Map<string, boolean>();

/**
 * Whether a response of this `Content-Type` is inert: a browser never renders it as a page nor
 * runs it as a worker, so the page-only headers mean nothing on it. JSON (`+json` too), CSS,
 * plain text, CSV, event streams, images other than SVG, fonts, audio, video, `wasm` and
 * octet streams are. HTML, XML and SVG (documents that can run scripts), JavaScript (a worker's
 * CSP is its own response's), PDF, anything else and a missing type are not.
 */
export function isInert(type: unknown): boolean {
  if (typeof type !== 'string') return false;
  let inert = inertTypes.get(type);
  if (inert === undefined) {
    const semi = type.indexOf(';');
    const mime = (semi === -1 ? type : type.slice(0, semi)).trim().toLowerCase();
    const top = mime.slice(0, mime.indexOf('/'));
    inert =
      INERT.has(mime) ||
      mime.endsWith('+json') ||
      top === 'font' ||
      top === 'audio' ||
      top === 'video' ||
      (top === 'image' && mime !== 'image/svg+xml');
    if (inertTypes.size < 256) inertTypes.set(type, inert);
  }
  return inert;
}

const INERT = new Set([
  'application/json',
  'application/x-ndjson',
  'application/octet-stream',
  'application/wasm',
  'text/css',
  'text/csv',
  'text/event-stream',
  'text/plain',
]);

/** Applies name → value | null overrides (case-insensitive names) to a header list. */
function applyOverrides(list: HeaderList, overrides: Readonly<Record<string, string | null>>): HeaderList {
  const entries = Object.entries(overrides);
  if (entries.length === 0) return list;
  const lower = new Map(entries.map(([name, value]) => [name.toLowerCase(), [name, value] as const]));
  const out: [string, string][] = [];
  for (const [name, value] of list) {
    const override = lower.get(name.toLowerCase());
    if (!override) out.push([name, value]);
    else if (override[1] !== null) out.push([name, override[1]]);
    lower.delete(name.toLowerCase());
  }
  for (const [name, value] of lower.values()) if (value !== null) out.push([name, value]);
  return out;
}

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
const HEADER_VALUE = /^[\x20-\x7e]*$/;

/** Throws a `TypeError` naming what is wrong in a route's overrides (helmet's own CSP checks). */
export function checkOverrides(overrides: SecurityHeaderOverrides): void {
  if (overrides === null || typeof overrides !== 'object') throw new TypeError('securityHeaders(overrides): overrides must be an object { csp?, headers? }');
  if (overrides.csp) {
    const directives: Record<string, readonly string[]> = { 'default-src': ["'self'"] };
    for (const [name, sources] of Object.entries(overrides.csp)) if (sources !== null) directives[name] = sources;
    try {
      capture(contentSecurityPolicy({ useDefaults: false, directives }));
    } catch (err) {
      throw new TypeError(`securityHeaders({ csp }): ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
  }
  for (const [name, value] of Object.entries(overrides.headers ?? {})) {
    if (!HEADER_NAME.test(name)) throw new TypeError(`securityHeaders({ headers }): ${JSON.stringify(name)} is not a header name`);
    if (value !== null && (typeof value !== 'string' || !HEADER_VALUE.test(value))) {
      throw new TypeError(`securityHeaders({ headers }): the value of ${name} must be a string of visible characters and spaces, or null`);
    }
  }
}
