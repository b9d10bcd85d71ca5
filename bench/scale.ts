/**
 * Issue 17's production defaults on the hello JSON route, in one run:
 * - the whole default stack (security headers, body parser, health routes, the request log
 *   through pino) against the stack before them (all four off) and against bare Koa +
 *   @koa/router: the goal is that the defaults cost at most 10%;
 * - the same defaults against what a user would assemble by hand in Koa: helmet, @koa/bodyparser
 *   and pino-http, each with its defaults;
 * - the request log alone (on against off, everything else default): one pino JSON line per
 *   request, written to a pipe the bench drains, as a log collector would;
 * - `serve()` with `--workers 2` against one process, both through `serve()` with the default
 *   stack. On a 2-core machine the load generator shares the cores with the workers, so this
 *   is the floor of what two workers give; the CPU column is the whole process tree's. These two
 *   servers are not pinned to a core (lib/cpu.ts): two workers need both.
 *
 * The pinned sides each run in BENCH_PROCESSES processes (default 3), and round r measures
 * process r mod n: identical processes here differ by up to ~10% in CPU per request for their
 * whole life (memory layout, JIT decisions), as much as the target. The first row is the check:
 * the stack before the defaults against itself in other processes should read 1.00×.
 *
 *   npm run bench -- scale    # BENCH_ROUNDS=9 BENCH_SECONDS=2 BENCH_CONNECTIONS=50 BENCH_PROCESSES=3
 */
import { join } from 'node:path';
import { compareHttp, httpSettings, type Endpoint } from './lib/http-compare.ts';
import { kernelProject } from './lib/project.ts';
import { report } from './lib/report.ts';
import { startServer, stopAll, type RunningServer } from './lib/server.ts';
import { BENCH_DIR, PROCESSES, rounds } from './lib/settings.ts';

const ROUNDS = rounds(9);
const OFF = { SECURITY_HEADERS: false, BODY_PARSER: false, HEALTH_ENABLED: false, FW_LOG_REQUESTS: false };
const server = (file: string, args: string[], name: string, pin: 'server' | false = 'server'): Promise<RunningServer> =>
  startServer(join(BENCH_DIR, 'servers', file), args, { name, pin });
/** `PROCESSES` processes of one pinned server, all started together. */
const group = (file: string, args: string[], name: string): Promise<RunningServer[]> =>
  Promise.all(Array.from({ length: PROCESSES }, (_, i) => server(file, args, `${name} #${i + 1}`)));
const servers: RunningServer[] = [];
try {
  const defaultsProject = kernelProject();
  const offProject = kernelProject(OFF);
  const [defaults, previous, previousAgain, quiet, koa, handmade, [workers, single]] = await Promise.all([
    group('fw-serve.ts', [defaultsProject, '1'], 'fw serve(), default stack'),
    group('fw-serve.ts', [offProject, '1'], 'fw serve(), the stack before the defaults'),
    group('fw-serve.ts', [offProject, '1'], 'fw serve(), the stack before the defaults, other processes'),
    group('fw-serve.ts', [kernelProject({ FW_LOG_REQUESTS: false }), '1'], 'fw serve(), request log off'),
    group('koa-hello.ts', [], 'bare Koa'),
    group('koa-defaults.ts', [], 'Koa + helmet + @koa/bodyparser + pino-http'),
    // The workers row needs every core: neither of its sides is pinned (see lib/cpu.ts).
    Promise.all([server('fw-serve.ts', [defaultsProject, '2'], 'fw serve(), --workers 2', false), server('fw-serve.ts', [defaultsProject, '1'], 'fw serve(), 1 process', false)]),
  ]);
  servers.push(...[defaults, previous, previousAgain, quiet, koa, handmade].flat(), workers, single);
  const at = (label: string, [first, ...replicas]: readonly RunningServer[], path = '/hello'): Endpoint => ({ label, server: first!, replicas, path });
  const withDefaults = at('fw: headers + parser + health + request log', defaults);
  const rows = await compareHttp(
    'scale',
    [
      {
        name: 'hello JSON, the stack before the defaults vs itself in other processes',
        fw: at('fw: all four off', previous),
        baseline: at('fw: all four off, other processes', previousAgain),
        note: 'the noise floor: should read 1.00×',
      },
      {
        name: 'hello JSON, the production defaults vs the stack before them',
        fw: withDefaults,
        baseline: at('fw: all four off', previous),
        target: 'CPU/request ≤ 1.10×',
        note: 'security headers, body parser, /healthz + /readyz, one pino line per request',
      },
      { name: 'hello JSON, the production defaults vs bare Koa', fw: withDefaults, baseline: at('bare Koa + @koa/router', koa) },
      {
        name: 'hello JSON, the production defaults vs the same assembled by hand',
        fw: withDefaults,
        baseline: at('Koa + helmet + @koa/bodyparser + pino-http', handmade),
        note: "helmet's, @koa/bodyparser's and pino-http's defaults (bench/servers/koa-defaults.ts)",
      },
      { name: 'hello JSON, the request log on vs off', fw: withDefaults, baseline: at('fw: request log off', quiet), note: 'pino JSON lines on a drained pipe' },
      {
        name: 'hello JSON, serve() --workers 2 vs 1 process',
        fw: at('fw: --workers 2', [workers]),
        baseline: at('fw: 1 process', [single]),
        note: 'req/s: higher is the gain; 2 cores shared with the load generator',
      },
    ],
    { rounds: ROUNDS },
  );
  report('HTTP: production defaults and workers', httpSettings(ROUNDS), rows);
} finally {
  await stopAll(servers);
}
