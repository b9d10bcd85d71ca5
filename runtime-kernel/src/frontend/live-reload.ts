/**
 * Live reload (debug only; the frontend plugin imports this module only when `DEBUG` is on, so
 * production neither loads nor pays for it). The way AdonisJS and Laravel's Vite plugin do it:
 *
 * - every HTML response gets `<script src="/fluid/dev/reload.js">` (not the Vite index pages:
 *   Vite's own client has those);
 * - the script listens to `/fluid/dev/events` (server-sent events): `reload` reloads the page,
 *   `css` swaps the page's stylesheets in place, and `hello` carries this process's id, so a page
 *   that reconnects to a restarted server reloads once;
 * - `fw dev` watches the files and sends template and static changes over the IPC channel
 *   (`{ type: 'fw:changed', changes }`); with `FW_TAILWIND` on, Tailwind recompiles before the
 *   browsers hear about it, so a new class in a template is in the stylesheet the reload fetches.
 *   Only the app `fw dev` runs listens ({@link underFwDev}): any other parent that forked the
 *   process (a process manager, a test runner) has an IPC channel too, and is not heard.
 */
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import type { FluidMiddleware } from '../core/context.js';
import { devParentPid } from '../core/dev-parent.js';
import type { FluidCore } from '../core/fluid.js';
import type { AfterRequestProcessor } from '../core/processors.js';
import { generateTailwindCss } from './frontend.js';
import { VITE_DEV_PREFIX } from './html.js';
import { rawStylesheetName } from './tailwind.js';

/** Where the live-reload endpoints live (under the kernel's reserved `/fluid` prefix). */
export const LIVE_RELOAD_PREFIX = '/fluid/dev';
/** The event stream. */
export const LIVE_RELOAD_EVENTS = `${LIVE_RELOAD_PREFIX}/events`;
/** The client script. */
export const LIVE_RELOAD_SCRIPT = `${LIVE_RELOAD_PREFIX}/reload.js`;
/** The tag injected into HTML responses. */
export const LIVE_RELOAD_TAG = `<script src="${LIVE_RELOAD_SCRIPT}" defer></script>`;

/** What `fw dev` sends the app when templates or static files change. */
export interface ChangedMessage {
  type: 'fw:changed';
  changes: { path: string; kind: 'template' | 'static' }[];
}

const CLIENT = `// fw live reload (debug only): reloads on template changes and after a server restart.
(() => {
  const events = new EventSource(${JSON.stringify(LIVE_RELOAD_EVENTS)});
  let boot;
  events.addEventListener('hello', (e) => {
    if (boot !== undefined && boot !== e.data) location.reload();
    boot = e.data;
  });
  events.addEventListener('reload', () => location.reload());
  events.addEventListener('css', () => {
    for (const link of document.querySelectorAll('link[rel="stylesheet"]')) {
      const url = new URL(link.href, location.href);
      if (url.origin !== location.origin) continue;
      url.searchParams.set('fw-reload', String(Date.now()));
      link.href = url.href;
    }
  });
})();
`;

/** A running live reload: its middleware, its processor, and how to stop it. */
export interface LiveReload {
  /** This process's id, sent as the `hello` event. */
  readonly bootId: string;
  /** Serves the event stream and the client script. */
  readonly middleware: FluidMiddleware;
  /** Injects the client into HTML responses. */
  readonly processor: AfterRequestProcessor;
  /** Sends an event to every connected browser. */
  broadcast(event: 'reload' | 'css'): void;
  /** Handles a change notice from `fw dev` (recompiles Tailwind first when it is on). */
  changed(message: ChangedMessage): Promise<void>;
  /** Ends the event streams (destroying their sockets) and refuses new ones, and stops listening to `fw dev`. */
  close(): void;
}

export { DEV_PARENT_MARK } from '../core/dev-parent.js';

/**
 * True when this process is the app `fw dev` runs: `fw run` marked it ({@link DEV_PARENT_MARK})
 * with the id of its parent, and the IPC channel to that parent is open. An IPC channel alone
 * says nothing: any process started with `fork()` has one.
 */
export function underFwDev(): boolean {
  const mark = devParentPid();
  return mark !== undefined && mark === process.ppid && process.send !== undefined && process.connected;
}

/** True for the message `fw dev` sends. */
export function isChangedMessage(value: unknown): value is ChangedMessage {
  const m = value as Partial<ChangedMessage> | null;
  return typeof m === 'object' && m !== null && m.type === 'fw:changed' && Array.isArray(m.changes);
}

/** Inserts the client tag before `</body>` (or at the end). */
export function injectClient(html: string): string {
  const at = html.search(/<\/body\s*>/i);
  return at >= 0 ? html.slice(0, at) + LIVE_RELOAD_TAG + '\n' + html.slice(at) : html + '\n' + LIVE_RELOAD_TAG;
}

/**
 * Starts live reload for `fluid`; in the app `fw dev` runs ({@link underFwDev}), it listens for
 * `fw dev`'s change notices on the IPC channel (a message from any other parent is not heard).
 */
export function startLiveReload(fluid: FluidCore): LiveReload {
  const bootId = randomUUID();
  // Each open event stream and its socket. On close the sockets are destroyed, not ended: an
  // ended stream leaves a keep-alive socket, and the browser reconnects within `retry`, both of
  // which held the server's close for the whole SERVER_DRAIN_TIMEOUT (10 s per restart).
  const clients = new Map<PassThrough, Socket>();
  let closed = false;
  const send = (stream: PassThrough, event: string, data: string): void => {
    stream.write(`event: ${event}\ndata: ${data}\n\n`);
  };
  const broadcast = (event: 'reload' | 'css'): void => {
    for (const stream of clients.keys()) send(stream, event, String(Date.now()));
  };

  const middleware: FluidMiddleware = async (ctx, next) => {
    if (!ctx.path.startsWith(LIVE_RELOAD_PREFIX + '/') || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    if (ctx.path === LIVE_RELOAD_SCRIPT) {
      ctx.type = 'application/javascript';
      ctx.set('Cache-Control', 'no-store');
      ctx.body = CLIENT;
      return;
    }
    if (ctx.path !== LIVE_RELOAD_EVENTS) return next();
    if (closed) {
      // Shutting down: a network error, so the browser's EventSource retries (and reaches the
      // restarted app); any HTTP answer would either stop it for good or hold the server open.
      ctx.respond = false;
      ctx.req.socket.destroy();
      return;
    }
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/event-stream';
    const stream = new PassThrough();
    clients.set(stream, ctx.req.socket);
    const drop = (): void => {
      clients.delete(stream);
      stream.end();
    };
    ctx.req.once('close', drop);
    stream.write('retry: 500\n\n');
    send(stream, 'hello', bootId);
    ctx.status = 200;
    ctx.body = stream;
  };

  const processor: AfterRequestProcessor = (res) => {
    if (!res.type.startsWith('text/html') || typeof res.body !== 'string') return undefined;
    if (res.body.includes(`${VITE_DEV_PREFIX}/@vite/client`)) return undefined; // a Vite index: Vite's client reloads it
    const keep = Object.keys(res.headers).filter((h) => h !== 'content-length' && h !== 'content-type');
    return { status: res.status, body: injectClient(res.body), type: 'html', keepHeaders: keep };
  };

  const raws = new Set([rawStylesheetName(true), rawStylesheetName(false)]);
  let queue: Promise<void> = Promise.resolve();
  const changed = (message: ChangedMessage): Promise<void> => {
    queue = queue.then(async () => {
      const templates = message.changes.some((c) => c.kind === 'template');
      const raw = message.changes.some((c) => raws.has(c.path.split('/').pop() ?? ''));
      if (fluid.config.FW_TAILWIND && (templates || raw)) {
        try {
          await generateTailwindCss(fluid);
        } catch (err) {
          fluid.logger.error('tailwind recompile failed', { error: err });
        }
      }
      const cssOnly = !templates && message.changes.every((c) => c.path.endsWith('.css'));
      broadcast(cssOnly ? 'css' : 'reload');
    });
    return queue;
  };
  const onMessage = (message: unknown): void => {
    if (isChangedMessage(message)) void changed(message);
  };
  const listening = underFwDev();
  if (listening) process.on('message', onMessage);

  return {
    bootId,
    middleware,
    processor,
    broadcast,
    changed,
    close() {
      closed = true;
      if (listening) process.off('message', onMessage);
      for (const [stream, socket] of clients) {
        stream.end();
        socket.destroy();
      }
      clients.clear();
    },
  };
}
