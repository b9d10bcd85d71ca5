/** Turning what a handler returned into the response body. */
import { Readable } from 'node:stream';
import { isMarkup } from './markup.js';
import type { FluidContext } from './context.js';

/**
 * Sets `ctx.body` from a handler's return value: `Markup` → HTML; string → HTML when it starts
 * with `<`, otherwise text (Koa's rule); Buffer/stream as is; `null` → empty; anything else → JSON.
 */
export function setBody(ctx: FluidContext, value: unknown): void {
  if (typeof value === 'string') {
    ctx.body = value;
  } else if (isMarkup(value)) {
    ctx.type = 'html';
    ctx.body = value.toString();
  } else if (value === null || Buffer.isBuffer(value) || value instanceof Readable) {
    ctx.body = value;
  } else {
    ctx.body = value as object;
  }
}
