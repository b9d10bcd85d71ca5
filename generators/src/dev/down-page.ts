/**
 * `fw dev`'s answer while the app is not running (`fluid/app.ts` or a module it imports cannot
 * load, a config error, a crash): instead of a closed port, `fw dev` itself listens on the app's
 * address until it restarts the app, and answers every request with a 503:
 *
 * - a browser (`Accept: text/html`) gets a page showing what the terminal shows (`error: ...`,
 *   `at fluid/app.ts:12:7`) and the lines of that file around it, and a script that reloads the
 *   page once the app answers again: it listens to the live-reload stream at the kernel's
 *   `/fluid/dev/events`, which this server answers with its own `hello` id, so the app's `hello`
 *   (another id), or any other answer there, means the app is back. Pages of the app open in a
 *   browser reconnect to this stream too, hear a new id, and reload to this page (a Vite page's
 *   client pings instead: see {@link upgrade});
 * - a JSON caller (`/api/...`, or `Accept` naming JSON) gets `{ "error", "debug" }`, anything else
 *   the terminal's lines as text.
 *
 * Details go to loopback peers only: a request from another host (an app listening on `0.0.0.0`)
 * gets the 503 with no error text. It exists only inside `fw dev`: `fw run` and a built app never
 * load this module, so production has no such page.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';
import type { FailureReport } from '../cli/main.js';

/** The kernel's live-reload event stream (`LIVE_RELOAD_EVENTS` in runtime-kernel/src/frontend/live-reload.ts). */
export const LIVE_RELOAD_EVENTS = '/fluid/dev/events';

/** Why the app is not running. */
export interface AppDown {
  /** How it ended, as the terminal said: `code 1`, `SIGKILL`. */
  exit: string;
  /** What the terminal said about the error it could not start with, when it said. */
  report?: FailureReport | undefined;
}

/** A place in a project file, with the lines around it. */
export interface SourceLocation {
  /** Relative to the project root, `/`-separated. */
  file: string;
  line: number;
  column?: number | undefined;
  /** Up to 5 lines either side of `line`; none for a config file (`.ini`, `.env`, `.json`: they hold secrets). */
  excerpt: { line: number; text: string }[];
}

/** A listening page; {@link DownPage.close} frees the port (every connection is dropped). */
export interface DownPage {
  /** `http://host:port` */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Listens on `host:port` and answers as described above until closed. Resolves to undefined when
 * it cannot listen there (another process holds the port: the app's own error said so).
 */
export async function openDownPage(address: { host: string; port: number }, down: AppDown, root: string): Promise<DownPage | undefined> {
  const id = `fw-dev-down-${randomUUID()}`;
  const location = down.report ? locate(down.report, root) : undefined;
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => answer(req, res, { id, down, location }));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (req: IncomingMessage, socket: Socket) => upgrade(req, socket));
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(address.port, address.host, () => resolve(true));
  });
  if (!listening) return undefined;
  const bound = server.address();
  const port = typeof bound === 'object' && bound ? bound.port : address.port;
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy(); // the event streams too: browsers reconnect to the app
      }),
  };
}

/**
 * Vite's client in an open Vite page, having lost its HMR socket, polls with a websocket of the
 * `vite-ping` protocol at `/vite-dev/` and reloads the page once one opens: accepted here (then
 * closed), so such a page reloads to this one as a page with fw's live reload does. Every other
 * upgrade is refused.
 */
function upgrade(req: IncomingMessage, socket: Socket): void {
  const key = req.headers['sec-websocket-key'];
  const protocols = String(req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
  if (typeof key !== 'string' || !protocols.includes('vite-ping') || !isLoopback(req.socket.remoteAddress)) {
    socket.destroy();
    return;
  }
  const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
  socket.end(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\nSec-WebSocket-Protocol: vite-ping\r\n\r\n`,
  );
}

function answer(req: IncomingMessage, res: ServerResponse, page: { id: string; down: AppDown; location: SourceLocation | undefined }): void {
  const url = req.url ?? '/';
  const pathname = url.split('?')[0] ?? '/';
  const local = isLoopback(req.socket.remoteAddress);
  res.setHeader('Cache-Control', 'no-store');
  if (pathname === LIVE_RELOAD_EVENTS && req.method === 'GET' && local) {
    req.socket.setTimeout(0);
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.write(`retry: 500\n\nevent: hello\ndata: ${page.id}\n\n`);
    return;
  }
  const accept = String(req.headers.accept ?? '');
  const kind = /json/i.test(accept) || pathname.startsWith('/api/') ? 'json' : /text\/html/i.test(accept) ? 'html' : 'text';
  res.statusCode = 503;
  const body = !local
    ? kind === 'json'
      ? JSON.stringify({ error: 'Service Unavailable' })
      : 'Service Unavailable\n'
    : kind === 'json'
      ? JSON.stringify({ error: 'Service Unavailable', debug: debugFields(page.down, page.location) })
      : kind === 'html'
        ? downPage(page.down, page.location)
        : `${terminalLines(page.down).join('\n')}\n`;
  res.setHeader('Content-Type', kind === 'json' ? 'application/json; charset=utf-8' : kind === 'html' && local ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8');
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** The lines the terminal shows, and what `fw dev` does next. */
export function terminalLines(down: AppDown): string[] {
  const lines = down.report
    ? [`error: ${down.report.message}`, ...(down.report.frame ? [`  at ${down.report.frame}`] : []), ...(down.report.hint ? [`  ${down.report.hint}`] : [])]
    : [];
  return [...lines, `fw dev: the app exited (${down.exit}); waiting for changes to restart it.`];
}

function debugFields(down: AppDown, location: SourceLocation | undefined): Record<string, unknown> {
  return {
    message: down.report?.message,
    at: down.report?.frame,
    hint: down.report?.hint,
    exit: down.exit,
    location: location ? { file: location.file, line: location.line, column: location.column } : undefined,
    terminal: terminalLines(down),
  };
}

/** Files the page may name, and those whose lines it shows. */
const NAMED = /(?:\.(?:[cm]?[jt]sx?|json|ini|html?|css)|(?:^|[\\/])\.env)$/;
const SHOWN = /\.(?:[cm]?[jt]sx?|html?|css)$/;

/**
 * Where the error points in the project: the frame of the user's code that threw it, else the
 * first `file:line[:column]` its message names (a syntax error, a config key, a conflict marker)
 * that is a file of the project outside node_modules.
 */
export function locate(report: FailureReport, root: string): SourceLocation | undefined {
  const candidates: { file: string; line: number; column?: number }[] = [];
  const frame = report.frame ? /^(.+):(\d+):(\d+)$/.exec(report.frame) : null;
  if (frame) candidates.push({ file: frame[1]!, line: Number(frame[2]), column: Number(frame[3]) });
  for (const m of report.message.matchAll(/((?:[A-Za-z]:)?[^\s:'"()<>]+):(\d+)(?::(\d+))?/g)) {
    candidates.push({ file: m[1]!, line: Number(m[2]), ...(m[3] ? { column: Number(m[3]) } : {}) });
  }
  for (const c of candidates) {
    const absolute = path.resolve(root, c.file.startsWith('file://') ? new URL(c.file).pathname : c.file);
    const rel = path.relative(root, absolute);
    if (rel.startsWith('..') || path.isAbsolute(rel) || rel.split(path.sep).includes('node_modules') || !NAMED.test(rel)) continue;
    let text: string;
    try {
      if (statSync(absolute).size > 1_000_000) continue;
      text = readFileSync(absolute, 'utf8');
    } catch {
      continue;
    }
    const lines = text.split(/\r?\n/);
    if (c.line < 1 || c.line > lines.length) continue;
    const from = Math.max(1, c.line - 5);
    const to = Math.min(lines.length, c.line + 5);
    const excerpt = SHOWN.test(rel) ? lines.slice(from - 1, to).map((t, i) => ({ line: from + i, text: t })) : [];
    return { file: rel.split(path.sep).join('/'), line: c.line, column: c.column, excerpt };
  }
  return undefined;
}

/** The reload script: the kernel's live-reload client, and a reload when the stream's answer is not ours. */
const RELOAD = `(() => {
  const events = new EventSource(${JSON.stringify(LIVE_RELOAD_EVENTS)});
  let boot;
  events.addEventListener('hello', (e) => {
    if (boot !== undefined && boot !== e.data) location.reload();
    boot = e.data;
  });
  // Anything but an event stream there (the app is back with DEBUG off: a 404) ends the stream.
  events.addEventListener('error', () => {
    if (events.readyState === EventSource.CLOSED) location.reload();
  });
})();`;

/** The page: what the terminal shows, the file around the line it names, and the reload script. */
export function downPage(down: AppDown, location: SourceLocation | undefined): string {
  const title = down.report ? down.report.message.split('\n')[0]! : `The app exited (${down.exit})`;
  const where = location ? `${location.file}:${location.line}${location.column ? `:${location.column}` : ''}` : undefined;
  const excerpt = location
    ? `<h2>The file: <code>${escapeHtml(where!)}</code></h2>` +
      (location.excerpt.length > 0
        ? `<pre class="src">${location.excerpt
            .map((l) => `<span class="${l.line === location.line ? 'hit' : ''}"><i>${l.line}</i>${escapeHtml(l.text) || ' '}</span>`)
            .join('')}</pre>` // block spans, one a line: a newline between them would be a blank line in the <pre>
        : '')
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>The app is not running: ${escapeHtml(title)}</title>
<style>
body{margin:0;font:15px/1.5 system-ui,sans-serif;background:#f6f7f9;color:#1f2328}
header{background:#b42318;color:#fff;padding:24px 32px}header small{opacity:.8}
h1{margin:4px 0 0;font-size:22px;word-break:break-word}main{padding:16px 32px 48px;max-width:1100px}
h2{font-size:16px;margin:28px 0 8px}code{font:13px ui-monospace,monospace}
pre{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:8px 12px;overflow:auto;font:13px/1.6 ui-monospace,monospace;white-space:pre-wrap}
pre.src{padding:8px 0;white-space:normal}pre.src span{display:block;padding:0 12px;white-space:pre}pre.src span.hit{background:#ffebe9;font-weight:600}
pre.src i{display:inline-block;width:4ch;margin-right:12px;color:#8c959f;font-style:normal;text-align:right}
.note{color:#57606a;font-size:13px}
</style></head><body>
<header><small>503 · fw dev: the app is not running (it exited: ${escapeHtml(down.exit)}) · this page exists only under fw dev</small>
<h1>${escapeHtml(title)}</h1></header>
<main>
<h2>The terminal says</h2><pre class="terminal">${escapeHtml(terminalLines(down).join('\n'))}</pre>
${excerpt}
<p class="note">Fix it and save: fw dev restarts the app, and this page reloads by itself once the app answers.</p>
</main>
<script>${RELOAD}</script>
</body></html>`;
}

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** True for an IPv4 loopback address (also IPv4-mapped) or `::1`. */
function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}
