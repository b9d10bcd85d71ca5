/**
 * The debug error page (like Youch in AdonisJS or Ignition in Laravel), **only when `DEBUG` is
 * on**: the app's error handler imports this module the first time a request fails in debug, so
 * production never loads it, and a failing request there keeps its bare 500.
 *
 * It shows the error (and its causes), the stack with source excerpts of the app's own files
 * (source-mapped: see stack.ts), the request (method, URL, headers with cookies and credentials
 * redacted) and the matched route. A JSON caller gets the same facts as JSON. An error that
 * knows its place in a file (a template with conflict markers: `file` and `line`) shows that
 * file first.
 *
 * A renderer of fw's own rather than `youch`: a few dozen lines of escaped HTML, no dependency
 * added to every production install of the kernel, and the redaction and JSON shape fw wants.
 */
import type { FluidContext } from '../context.js';
import { escape } from '../markup.js';
import { frame, stackFrames, type StackFrame } from './stack.js';

/** Request headers whose values never appear on the page. */
export const REDACTED_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-csrf-token',
  'x-xsrf-token',
  'x-api-key',
]);

/** Everything the page shows, also the JSON body's `debug` field. */
export interface DebugReport {
  error: { name: string; message: string; causes: { name: string; message: string }[] };
  /** The file an error points at itself (conflict markers), before the stack. */
  location: StackFrame | undefined;
  frames: StackFrame[];
  request: { method: string; url: string; headers: Record<string, string> };
  route: { name: string | undefined; path: string | undefined; params: Record<string, string> } | undefined;
}

/** Collects the report for an error thrown while serving `ctx`. */
export function debugReport(ctx: FluidContext, err: unknown, root: string): DebugReport {
  const e = err instanceof Error ? err : new Error(String(err));
  const causes: { name: string; message: string }[] = [];
  for (let c = e.cause, n = 0; c instanceof Error && n < 5; c = c.cause, n++) causes.push({ name: c.name, message: c.message });
  const located = err as { file?: unknown; line?: unknown; column?: unknown };
  const column = typeof located.column === 'number' ? located.column : 1;
  const location =
    typeof located.file === 'string' && typeof located.line === 'number' ? frame(undefined, located.file, located.line, column, root) : undefined;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.headers)) {
    if (value === undefined) continue;
    headers[name] = REDACTED_HEADERS.has(name) ? '[redacted]' : Array.isArray(value) ? value.join(', ') : value;
  }
  const matched = ctx as unknown as { _matchedRoute?: unknown; _matchedRouteName?: unknown; params?: Record<string, string> };
  const path = typeof matched._matchedRoute === 'string' ? matched._matchedRoute : undefined;
  const name = typeof matched._matchedRouteName === 'string' ? matched._matchedRouteName : undefined;
  return {
    error: { name: e.name, message: e.message, causes },
    location,
    frames: stackFrames(e, root),
    request: { method: ctx.method, url: ctx.originalUrl, headers },
    route: path || name ? { name, path, params: { ...(matched.params ?? {}) } } : undefined,
  };
}

/** The report as a page. */
export function debugPage(report: DebugReport, status: number): string {
  const first = report.location ?? report.frames.find((f) => f.app && f.excerpt);
  const table = (rows: [string, string][]) =>
    `<table>${rows.map(([k, v]) => `<tr><th>${escape(k)}</th><td>${escape(v)}</td></tr>`).join('')}</table>`;
  const source = (f: StackFrame) =>
    f.excerpt
      ? `<pre class="src">${f.excerpt
          .map((l) => `<span class="${l.line === f.line ? 'hit' : ''}"><i>${l.line}</i>${escape(l.text) || ' '}</span>`)
          .join('')}</pre>` // block spans, one a line: a newline between them would be a blank line in the <pre>
      : '';
  const where = (f: StackFrame) => `${escape(f.shown)}:${f.line}:${f.column}`;
  const frames = report.frames
    .map((f) =>
      f.app
        ? `<li class="app"><b>${escape(f.fn ?? '(anonymous)')}</b> <code>${where(f)}</code>${source(f)}</li>`
        : `<li class="lib">${escape(f.fn ?? '(anonymous)')} <code>${where(f)}</code></li>`,
    )
    .join('\n');
  const route = report.route
    ? table([
        ['name', report.route.name ?? '(unnamed)'],
        ['path', report.route.path ?? ''],
        ...Object.entries(report.route.params).map(([k, v]): [string, string] => [`:${k}`, v]),
      ])
    : '<p>No route matched (the error came from middleware or a fallback).</p>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(report.error.name)}: ${escape(report.error.message)}</title>
<style>
body{margin:0;font:15px/1.5 system-ui,sans-serif;background:#f6f7f9;color:#1f2328}
header{background:#b42318;color:#fff;padding:24px 32px}header small{opacity:.8}
h1{margin:4px 0 0;font-size:22px;word-break:break-word}main{padding:16px 32px 48px;max-width:1100px}
h2{font-size:16px;margin:28px 0 8px}code{font:13px ui-monospace,monospace}
pre.src{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:8px 0;overflow:auto;font:13px/1.6 ui-monospace,monospace}
pre.src span{display:block;padding:0 12px;white-space:pre}pre.src span.hit{background:#ffebe9;font-weight:600}
pre.src i{display:inline-block;width:4ch;margin-right:12px;color:#8c959f;font-style:normal;text-align:right}
ol{padding-left:20px}li{margin:6px 0}li.lib{color:#57606a;font-size:13px}
table{border-collapse:collapse;background:#fff;border:1px solid #d0d7de;width:100%}
th,td{text-align:left;padding:4px 10px;border-top:1px solid #eaeef2;font:13px ui-monospace,monospace;vertical-align:top;word-break:break-all}th{width:220px}
.note{color:#57606a;font-size:13px}
</style></head><body>
<header><small>${status} · ${escape(report.request.method)} ${escape(report.request.url)} · DEBUG is on: this page is never shown in production</small>
<h1>${escape(report.error.name)}: ${escape(report.error.message)}</h1>
${report.error.causes.map((c) => `<div>caused by ${escape(c.name)}: ${escape(c.message)}</div>`).join('')}</header>
<main>
${first ? `<h2>${report.location ? 'The file' : 'Where it was thrown'}: <code>${where(first)}</code></h2>${source(first)}` : ''}
<h2>Stack</h2><ol>${frames}</ol>
<h2>Route</h2>${route}
<h2>Request</h2>${table([['method', report.request.method], ['url', report.request.url]])}
<h2>Headers</h2>${table(Object.entries(report.request.headers))}
<p class="note">Cookies and credentials are redacted.</p>
</main></body></html>`;
}
