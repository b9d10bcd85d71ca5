/**
 * The security-headers plugin (`SECURITY_HEADERS`, on by default): every response — pages, JSON,
 * static files, error pages, 404s — carries the headers of the app's `HeaderPolicy`.
 *
 * Its middleware runs at the `outer` stage, around the error handler and the processors: the
 * headers go on before the rest of the stack runs (so a response written directly, such as a
 * proxied one, has them too). A processor replacing the response (the styled error pages) keeps
 * them; they are put back afterwards when an error answer dropped them, when the response used a
 * CSP nonce, or when the route overrode them.
 */
import type { Config } from '@fw/schemas';
import type { FluidContext, FluidMiddleware } from '../core/context.js';
import { renderingContext } from '../core/context.js';
import { ConfigError, FrameworkException } from '../core/errors.js';
import type { Plugin } from '../core/plugin.js';
import { isHttps } from '../auth/https.js';
import { cspNonce, policyOf, setPolicy, stateOf } from './state.js';
import { HeaderPolicy, type HeaderList } from './policy.js';

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
      fluid.use(headersMiddleware(policy, fluid.config), 'outer');
      // A styled error page replacing a response keeps them, rather than having them set again.
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

/** The `outer` middleware sending `policy`'s headers. */
function headersMiddleware(policy: HeaderPolicy, config: Config): FluidMiddleware {
  const after = (ctx: FluidContext, https: boolean, list: HeaderList): void => {
    const res = ctx.res;
    if (res.headersSent) return;
    const state = stateOf(ctx);
    if (state === undefined) {
      // An answer that dropped them (an error's, or a processor's that does not keep them): put them back.
      if (list.length > 0 && !res.hasHeader(list[0]![0])) setAll(ctx, list);
      return;
    }
    let effective = policy;
    for (const overrides of state.overrides ?? []) effective = effective.with(overrides);
    const final = https ? effective.https : effective.http;
    if (effective !== policy) for (const [name] of list) res.removeHeader(name);
    setAll(ctx, final);
    const nonced = state.nonce && effective.cspHeader ? effective.noncedCsp(https, state.nonce) : undefined;
    if (nonced) res.setHeader(effective.cspHeader!, nonced);
  };
  // Not async: one `then` per request.
  return (ctx, next) => {
    const https = isHttps(ctx, config);
    const list = https ? policy.https : policy.http;
    const res = ctx.res;
    for (let i = 0; i < list.length; i++) res.setHeader(list[i]![0], list[i]![1]);
    return next().then(() => after(ctx, https, list));
  };
}

function setAll(ctx: FluidContext, list: HeaderList): void {
  for (const [name, value] of list) ctx.res.setHeader(name, value);
}
