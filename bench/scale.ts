/**
 * Issue 17's production defaults on the hello JSON route, in one run:
 * - the whole default stack (security headers, body parser, health routes, the request log
 *   through pino) against the stack before them (all four off) and against bare Koa +
 *   @koa/router: the goal is that the defaults cost at most 10%;
 * - the request log alone (on against off, everything else default): one pino JSON line per
 *   request, written to a pipe the bench drains, as a log collector would;
 * - `serve()` with `--workers 2` against one process, both through `serve()` with the default
 *   stack. On a 2-core machine the load generator shares the cores with the workers, so this
 *   is the floor of what two workers give; the CPU column is the whole process tree's. These two
 *   servers are not pinned to a core (lib/cpu.ts): two workers need both.
 *
 *   npm run bench -- scale    # BENCH_ROUNDS=5 BENCH_SECONDS=2 BENCH_CONNECTIONS=50
 */
import { join } from 'node:path';
import { compareHttp, httpSettings, type Endpoint } from './lib/http-compare.ts';
import { kernelProject } from './lib/project.ts';
import { report } from './lib/report.ts';
import { startServer, stopAll, type RunningServer } from './lib/server.ts';
import { BENCH_DIR, rounds } from './lib/settings.ts';

const ROUNDS = rounds(5);
const OFF = { SECURITY_HEADERS: false, BODY_PARSER: false, HEALTH_ENABLED: false, FW_LOG_REQUESTS: false };
const server = (file: string, args: string[], name: string, pin: 'server' | false = 'server'): Promise<RunningServer> =>
  startServer(join(BENCH_DIR, 'servers', file), args, { name, pin });
const servers: RunningServer[] = [];
try {
  const started = await Promise.all([
    server('fw-serve.ts', [kernelProject(), '1'], 'fw serve(), default stack'),
    server('fw-serve.ts', [kernelProject(OFF), '1'], 'fw serve(), the stack before the defaults'),
    server('fw-serve.ts', [kernelProject({ FW_LOG_REQUESTS: false }), '1'], 'fw serve(), request log off'),
    server('koa-hello.ts', [], 'bare Koa'),
    // The workers row needs every core: neither of its sides is pinned (see lib/cpu.ts).
    server('fw-serve.ts', [kernelProject(), '2'], 'fw serve(), --workers 2', false),
    server('fw-serve.ts', [kernelProject(), '1'], 'fw serve(), 1 process', false),
  ]);
  servers.push(...started);
  const [defaults, previous, quiet, koa, workers, single] = started.map((s) => s!);
  const at = (label: string, s: RunningServer): Endpoint => ({ label, server: s, path: '/hello' });
  const withDefaults = at('fw: headers + parser + health + request log', defaults!);
  const rows = await compareHttp(
    'scale',
    [
      {
        name: 'hello JSON, the production defaults vs the stack before them',
        fw: withDefaults,
        baseline: at('fw: all four off', previous!),
        target: 'CPU/request ≤ 1.10×',
        note: 'security headers, body parser, /healthz + /readyz, one pino line per request',
      },
      { name: 'hello JSON, the production defaults vs bare Koa', fw: withDefaults, baseline: at('bare Koa + @koa/router', koa!) },
      { name: 'hello JSON, the request log on vs off', fw: withDefaults, baseline: at('fw: request log off', quiet!), note: 'pino JSON lines on a drained pipe' },
      {
        name: 'hello JSON, serve() --workers 2 vs 1 process',
        fw: at('fw: --workers 2', workers!),
        baseline: at('fw: 1 process', single!),
        note: 'req/s: higher is the gain; 2 cores shared with the load generator',
      },
    ],
    { rounds: ROUNDS },
  );
  report('HTTP: production defaults and workers', httpSettings(ROUNDS), rows);
} finally {
  await stopAll(servers);
}
