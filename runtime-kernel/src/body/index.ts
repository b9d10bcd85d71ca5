/**
 * `@fw/kernel/body`: request bodies. The body plugin parses JSON, form and text bodies into
 * `ctx.request.body` with per-type limits (`BODY_*_LIMIT`, 413 beyond them); a route streams its
 * body itself with `rawBody`, or takes other limits with `bodyLimit()`. See `@fw/kernel/docs/security.md`.
 */
export { bodyParser, parseBody } from './plugin.js';
export { rawBody, bodyLimit, BodyReader, PARSED_METHODS } from './parse.js';
export type { BodyLimits } from './parse.js';
export { routeMatch, routeMark, marker } from './route.js';
export type { RouteMatch } from './route.js';

declare module 'koa' {
  interface Request {
    /** The parsed body (JSON value, form object or text) of a POST, PUT, PATCH or DELETE; see `@fw/kernel/body`. */
    body?: unknown;
    /** The body as read, when the parser read it. */
    rawBody: string;
  }
}
