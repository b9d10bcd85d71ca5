/**
 * The frames of the events socket (`/ws/events`).
 *
 * Client → server, one JSON object per text frame:
 *
 *   { "id"?: string | number, "action": "subscribe" | "unsubscribe", "event": "<name>" }
 *   { "id"?: string | number, "action": "query", "query": "<name>", "payload"?: <any JSON> }
 *
 * Server → client:
 *
 *   { "id"?: ..., "ok": true, "data"?: <any JSON> }     answer to a frame (same id)
 *   { "id"?: ..., "error": "<message>" }                 error answer; the socket stays usable
 *   { "event": "<name>", "data": <payload> }             an event the socket subscribed to
 */

/** An id the client picks to match answers to its frames. */
export type FrameId = string | number;

/** Actions a client frame may carry. */
export type FrameAction = 'subscribe' | 'unsubscribe' | 'query';

/** A parsed, checked client frame. */
export type ClientFrame =
  | { id?: FrameId; action: 'subscribe' | 'unsubscribe'; event: string }
  | { id?: FrameId; action: 'query'; query: string; payload: unknown };

/** An answer: `ok` with optional `data`, or `error`. */
export type AnswerFrame = { id?: FrameId; ok: true; data?: unknown } | { id?: FrameId; error: string };

/** A pushed event. */
export interface EventFrame {
  /** The event name, e.g. `user.created`. */
  event: string;
  /** The event's payload (JSON). */
  data: unknown;
}

/** A frame that could not be read: the error answer to send (with the id when one was readable). */
export class FrameError extends Error {
  /** Always `'FrameError'`. */
  override name = 'FrameError';
  /** The id of the frame that failed, when it could be read; the error answer carries it. */
  readonly id: FrameId | undefined;
  constructor(message: string, id?: FrameId) {
    super(message);
    this.id = id;
  }
}

const ACTIONS: readonly FrameAction[] = ['subscribe', 'unsubscribe', 'query'];

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Reads one websocket message; throws `FrameError` naming what was wrong. */
export function parseFrame(data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): ClientFrame {
  if (isBinary) throw new FrameError('Binary frames are not accepted; send a JSON object as a text frame.');
  const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new FrameError('Malformed frame: not JSON; send a JSON object.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new FrameError(`A frame must be a JSON object, got ${kind(value)}.`);
  }
  const frame = value as Record<string, unknown>;
  const id = frame.id;
  if (id !== undefined && typeof id !== 'string' && !(typeof id === 'number' && Number.isFinite(id))) {
    throw new FrameError(`Frame "id" must be a string or a number, got ${kind(id)}.`);
  }
  const action = frame.action;
  if (typeof action !== 'string' || !ACTIONS.includes(action as FrameAction)) {
    throw new FrameError(`Frame "action" must be one of ${ACTIONS.join(', ')}; got ${JSON.stringify(action) ?? 'nothing'}.`, id);
  }
  const base = id === undefined ? {} : { id };
  if (action === 'query') {
    if (typeof frame.query !== 'string' || frame.query === '') throw new FrameError('Frame "query" must name a query.', id);
    return { ...base, action, query: frame.query, payload: frame.payload ?? null };
  }
  if (typeof frame.event !== 'string' || frame.event === '') throw new FrameError('Frame "event" must name an event.', id);
  return { ...base, action: action as 'subscribe' | 'unsubscribe', event: frame.event };
}
