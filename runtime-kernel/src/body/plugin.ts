/**
 * The body plugin (`BODY_PARSER`, on by default): parses JSON, form and text bodies of unsafe
 * methods into `ctx.request.body` at the `app` stage, before sessions, CSRF and the routers; a
 * safe request (GET, HEAD, ...) costs one method check. A request whose path the routes know but
 * not its method is left unread: it is bound for 405, which a body over the limit must not turn
 * into 413. With `BODY_PARSER` off nothing is parsed
 * ahead, and `parseBody(ctx)` still parses on demand (the CSRF check reads form tokens with it).
 */
import type { FluidContext } from '../core/context.js';
import type { Plugin } from '../core/plugin.js';
import { BodyReader, PARSED_METHODS } from './parse.js';
import { methodNotRouted } from './route.js';

// Each app's reader (its limits), for parseBody.
const readers = new WeakMap<object, BodyReader>();

function readerOf(fluid: FluidContext['fluid']): BodyReader {
  let reader = readers.get(fluid);
  if (!reader) {
    reader = new BodyReader(fluid.config);
    readers.set(fluid, reader);
  }
  return reader;
}

/**
 * Parses the request body now, with the app's limits and the route's markers, unless it already
 * was; resolves to `ctx.request.body` (`undefined` for methods without a parsed body and for
 * `rawBody` routes, `{}` for content types the parser leaves alone).
 */
export async function parseBody(ctx: FluidContext): Promise<unknown> {
  await readerOf(ctx.fluid).parse(ctx);
  return ctx.request.body;
}

/** The body plugin (the `Fluid` of `@fw/kernel` has it; auth registers it when absent). */
export function bodyParser(): Plugin {
  return {
    name: 'body',
    register(fluid) {
      const reader = readerOf(fluid);
      if (!fluid.config.BODY_PARSER) return;
      fluid.use((ctx, next) => {
        if (!PARSED_METHODS.has(ctx.method) || methodNotRouted(ctx)) return next();
        return reader.parse(ctx).then(next);
      });
    },
  };
}
