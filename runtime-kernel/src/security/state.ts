/**
 * Per-request security state: the CSP nonce and the route's header overrides, kept on the
 * request context.
 *
 * A nonce is made only when something asks for one (`cspNonce(ctx)`: the `{{frontend}}` tags, a
 * Vite index, `{{csp_nonce}}` in a template), so responses that need none (JSON, static files)
 * pay nothing for it. Only code that emits trusted markup may put a nonce on a tag: adding one to
 * every `<script>` of a response would bless injected ones too.
 */
import { randomBytes } from 'node:crypto';
import type { FluidContext } from '../core/context.js';
import type { Handler } from '../core/context.js';
import { checkOverrides, type HeaderPolicy, type SecurityHeaderOverrides } from './policy.js';

/** What the security plugin keeps per request. */
export interface SecurityState {
  /** The nonce handed out in this request, if any. */
  nonce?: string;
  /** Overrides for this response, in the order they were given. */
  overrides?: SecurityHeaderOverrides[];
}

const SLOT: unique symbol = Symbol('fw.security');
type WithState = { [SLOT]?: SecurityState };

// The policy of each app that sends a CSP (set by the plugin), so cspNonce knows whether a nonce is used.
const policies = new WeakMap<object, HeaderPolicy>();

/** Records the header policy of an app (the security plugin does, at registration). */
export function setPolicy(fluid: object, policy: HeaderPolicy): void {
  policies.set(fluid, policy);
}

/** The header policy of an app, when the security plugin sends headers. */
export function policyOf(fluid: object): HeaderPolicy | undefined {
  return policies.get(fluid);
}

/** The security state of a request (`undefined` until a nonce or an override was asked for). */
export function stateOf(ctx: FluidContext): SecurityState | undefined {
  return (ctx as WithState)[SLOT];
}

function ensureState(ctx: FluidContext): SecurityState {
  const slot = ctx as WithState;
  return (slot[SLOT] ??= {});
}

// Random bytes are drawn in blocks: one system call per 256 nonces.
let pool = Buffer.alloc(0);
let offset = 0;

function newNonce(): string {
  if (offset + 16 > pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  const nonce = pool.toString('base64url', offset, offset + 16);
  offset += 16;
  return nonce;
}

/**
 * The CSP nonce of this response (128 random bits, base64url), made on first use; `undefined`
 * when the app sends no CSP. Put it on the inline `<script>`/`<style>` tags the app emits itself:
 * `<script nonce="${cspNonce(ctx)}">` (templates: `{{csp_nonce}}`).
 */
export function cspNonce(ctx: FluidContext): string | undefined {
  const policy = policies.get(ctx.fluid);
  if (!policy?.cspHeader) return undefined;
  const state = ensureState(ctx);
  return (state.nonce ??= newNonce());
}

/**
 * The nonce a `<script>` tag the kernel emits needs: always for an inline script, for one with a
 * same-origin `src` only when the policy does not allow `'self'` scripts (`'strict-dynamic'`, or
 * no `'self'`); `undefined` when none is needed (no nonce is made then).
 */
export function scriptNonce(ctx: FluidContext, inline: boolean): string | undefined {
  const policy = policies.get(ctx.fluid);
  if (!policy?.cspHeader || (!inline && !policy.sameOriginNeedsNonce)) return undefined;
  return cspNonce(ctx);
}

/**
 * Puts this response's CSP nonce on the `<script>` tags of a trusted page (a Vite index the
 * developer built or wrote) that need one (see `scriptNonce`); never call it on HTML that
 * contains anything a visitor wrote.
 */
export function nonceScripts(html: string, ctx: FluidContext): string {
  return html.replace(/<script\b([^>]*)>/gi, (tag: string, attributes: string) => {
    if (/\snonce\s*=/i.test(attributes)) return tag;
    const nonce = scriptNonce(ctx, !/\ssrc\s*=/i.test(attributes));
    return nonce ? `<script nonce="${nonce}"${attributes}>` : tag;
  });
}

/**
 * Changes this response's security headers (see `SecurityHeaderOverrides`); later calls win.
 * A route that always needs the same change should use the `securityHeaders()` marker instead,
 * whose policy is computed once.
 */
export function overrideSecurityHeaders(ctx: FluidContext, overrides: SecurityHeaderOverrides): void {
  const state = ensureState(ctx);
  (state.overrides ??= []).push(overrides);
}

/**
 * A route marker changing the security headers of its responses (the policy is computed on the
 * first request and kept):
 *
 * ```ts
 * // an embeddable widget: framable by one partner, and no X-Frame-Options
 * fluid.app.get('widget', '/widget', securityHeaders({
 *   csp: { 'frame-ancestors': ['https://partner.example'] },
 *   headers: { 'X-Frame-Options': null },
 * }), (ctx) => ctx.render('widget.html'));
 * ```
 *
 * A bad directive, source or header name throws a `TypeError` here, at route definition.
 */
export function securityHeaders(overrides: SecurityHeaderOverrides): Handler {
  checkOverrides(overrides);
  return (ctx, next) => {
    overrideSecurityHeaders(ctx, overrides);
    return next();
  };
}
