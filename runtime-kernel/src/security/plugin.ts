/**
 * The security-headers plugin (`SECURITY_HEADERS`, on by default): every response — pages, JSON,
 * static files, error pages, 404s, responses a route wrote itself — carries the headers of the
 * app's `HeaderPolicy`.
 *
 * They go on when the response's head is written (an arrival hook wraps the response's
 * `writeHead`), so they see the final response: its `Content-Type` (an inert one, such as JSON,
 * gets the short list: `HeaderPolicy.inert`), the CSP nonce it used and the route's overrides,
 * after the error handler and the processors had their say. A header the app set itself on the
 * response is left as it is; a route changes fw's with `securityHeaders()` or
 * `overrideSecurityHeaders()` (`@fw/kernel/docs/security.md`).
 */
import { ServerResponse } from 'node:http';
import type { Config } from '@fw/schemas';
import type { FluidContext } from '../core/context.js';
import { renderingContext } from '../core/context.js';
import { ConfigError, FrameworkException } from '../core/errors.js';
import type { ArrivalHook } from '../core/fluid.js';
import type { Plugin } from '../core/plugin.js';
import { isHttps } from '../auth/https.js';
import { cspNonce, policyOf, setPolicy, stateOf } from './state.js';
import { HeaderPolicy, isInert } from './policy.js';

/** The security-headers plugin (the `Fluid` of `@fw/kernel` has it); see the module comment. */
export function security(): Plugin {
  return {
    name: 'security',
    register(fluid) {
      fluid.templates.registerHelper('csp_nonce', () => {
        if (!policyOf(fluid)?.cspHeader) return '';
        const ctx = renderingContext();
        if (!ctx) throw new FrameworkException('{{csp_nonce}} renders only during a request, through ctx.render(...)');
        return cspNonce(ctx) ?? '';
      });
      if (!fluid.config.SECURITY_HEADERS) return;
      const policy = new HeaderPolicy(fluid.config);
      setPolicy(fluid, policy);
      if (!policy.sendsAny) return;
      fluid.onRequest(headersOnWrite(policy, fluid.config));
      // Node's own answers to requests its parser refuses (400, 431, 408): empty, so inert; the
      // plain-HTTP list, as the request that could say it came over HTTPS was never parsed.
      fluid.clientErrorHeaders(policy.inert.http);
      // A styled error page replacing a response keeps those the app set itself.
      fluid.processors.keepHeaders([...policy.http, ...policy.https].map(([name]) => name));
    },
    start(fluid) {
      // A browser sends `Origin: null` on a form post under no-referrer, which the CSRF check refuses.
      if (fluid.plugins.has('auth') && fluid.config.SECURITY_HEADERS && fluid.config.SECURITY_REFERRER_POLICY === 'no-referrer') {
        const line =
          'SECURITY_REFERRER_POLICY: got "no-referrer"; with auth installed, use "same-origin" or "strict-origin-when-cross-origin" ' +
          '(under no-referrer browsers send "Origin: null" on form posts, which the CSRF check refuses)';
        throw new ConfigError(line, [{ source: undefined, path: 'SECURITY_REFERRER_POLICY', line }]);
      }
    },
  };
}

const CONTEXT: unique symbol = Symbol('fw.securityHeaders');
type SecuredResponse = ServerResponse & { [CONTEXT]?: FluidContext };
const writeHeadOf = ServerResponse.prototype.writeHead;

/**
 * The arrival hook: the response's `writeHead` (which Node calls itself before the first byte,
 * `res.end()` and streams included) first sends `policy`'s headers for the final response.
 */
function headersOnWrite(policy: HeaderPolicy, config: Config): ArrivalHook {
  // One function for every response (it finds its request on the response): no closure per request.
  function writeHead(this: SecuredResponse, ...args: unknown[]): ServerResponse {
    const ctx = this[CONTEXT];
    if (ctx !== undefined) {
      this[CONTEXT] = undefined;
      send(ctx, this);
    }
    return Reflect.apply(writeHeadOf, this, args) as ServerResponse;
  }
  const send = (ctx: FluidContext, res: ServerResponse): void => {
    const https = isHttps(ctx, config);
    const state = stateOf(ctx);
    let effective = policy;
    if (state?.overrides) for (const overrides of state.overrides) effective = effective.with(overrides);
    const inert = isInert(res.getHeader('content-type')); // lowercase: see HeaderPolicy.http
    const nonced = !inert && state?.nonce && effective.cspHeader ? effective.noncedCsp(https, state.nonce) : undefined;
    const list = effective.headers(https, inert);
    // The app's own value wins. One look at the names already set (lowercase, as the list's are)
    // instead of a `hasHeader` per header, which lowercases the name and looks it up each time.
    const set = res.getHeaderNames();
    for (let i = 0; i < list.length; i++) {
      const [name, value] = list[i]!;
      if (set.includes(name)) continue;
      res.setHeader(name, nonced !== undefined && name === effective.cspHeader ? nonced : value);
    }
  };
  return (ctx) => {
    const res = ctx.res as SecuredResponse;
    res[CONTEXT] = ctx;
    res.writeHead = writeHead as ServerResponse['writeHead'];
  };
}
