/**
 * The cost of the secure defaults on the hello JSON route: the kernel with its default stack (the
 * security headers and the body parser on) against the same app with both off (the stack before
 * them), and both against bare Koa + @koa/router, in one run. The body parser costs a GET one
 * method check; the headers are computed once at start (helmet), so a request pays for setting
 * them only. The last row gives bare Koa the same headers (set from memory), which is what the
 * headers cost any server: more bytes per response.
 *
 *   npm run bench -- defaults    # BENCH_ROUNDS=5 BENCH_SECONDS=2 BENCH_CONNECTIONS=50
 */
import { join } from 'node:path';
import { compareHttp, get, httpSettings, type Endpoint } from './lib/http-compare.ts';
import { kernelProject } from './lib/project.ts';
import { report } from './lib/report.ts';
import { startServer, stopAll, type RunningServer } from './lib/server.ts';
import { BENCH_DIR, rounds } from './lib/settings.ts';

const ROUNDS = rounds(5);
const server = (file: string, args: string[], name: string): Promise<RunningServer> => startServer(join(BENCH_DIR, 'servers', file), args, { name });
const servers: RunningServer[] = [];
try {
  const [defaults, previous, koa] = await Promise.all([
    server('fw-hello.ts', [kernelProject(), '0'], 'fw kernel, default stack'),
    server('fw-hello.ts', [kernelProject({ SECURITY_HEADERS: false, BODY_PARSER: false }), '0'], 'fw kernel, headers and parser off'),
    server('koa-hello.ts', [], 'bare Koa'),
  ]);
  servers.push(defaults!, previous!, koa!);
  // The security headers the kernel sends, for a Koa that sends the same ones.
  const sent = (await get(defaults!.url('/hello'))).headers;
  const own = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);
  const security = Object.fromEntries(Object.entries(sent).filter(([name]) => !own.has(name)).map(([name, value]) => [name, String(value)]));
  const koaHeaders = await server('koa-hello.ts', [JSON.stringify(security)], 'bare Koa + the same headers');
  servers.push(koaHeaders);
  const at = (label: string, s: RunningServer): Endpoint => ({ label, server: s, path: '/hello' });
  const withDefaults = at('fw: headers + body parser', defaults!);
  const without = at('fw: headers and parser off', previous!);
  const bareKoa = at('bare Koa + @koa/router', koa!);
  const rows = await compareHttp(
    'defaults',
    [
      { name: 'hello JSON, secure defaults vs the stack without them', fw: withDefaults, baseline: without, target: 'CPU/request ≤ 1.10×', note: '11 headers per response over HTTP (helmet defaults + fw CSP)' },
      { name: 'hello JSON, secure defaults vs bare Koa', fw: withDefaults, baseline: bareKoa, target: 'CPU/request ≤ 1.15×' },
      {
        name: 'hello JSON, secure defaults vs bare Koa sending the same headers',
        fw: withDefaults,
        baseline: at('bare Koa + @koa/router + the same headers', koaHeaders),
        note: `${Object.keys(security).length} headers, set by a Koa middleware from memory`,
      },
      { name: 'hello JSON, without them vs bare Koa', fw: without, baseline: bareKoa, target: 'CPU/request ≤ 1.05×' },
    ],
    { rounds: ROUNDS },
  );
  report('HTTP: the secure defaults', httpSettings(ROUNDS), rows);
} finally {
  await stopAll(servers);
}
