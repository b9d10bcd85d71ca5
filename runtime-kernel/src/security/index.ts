/**
 * `@fw/kernel/security`: the security headers every response carries (CSP with a per-response
 * nonce on demand, X-Content-Type-Options, X-Frame-Options / frame-ancestors, Referrer-Policy,
 * HSTS over HTTPS, and helmet's other defaults), configured by the `SECURITY_*` keys and changed
 * per route with `securityHeaders()`. See `@fw/kernel/docs/security.md`.
 */
export { security } from './plugin.js';
export { cspNonce, scriptNonce, nonceScripts, overrideSecurityHeaders, securityHeaders } from './state.js';
export type { SecurityState } from './state.js';
export { HeaderPolicy, defaultDirectives, checkOverrides } from './policy.js';
export type { CspDirectives, HeaderList, SecurityHeaderOverrides } from './policy.js';
