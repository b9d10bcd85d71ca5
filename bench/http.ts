/**
 * HTTP hello JSON: the kernel against bare Koa + @koa/router, raw node:http and fastify; and the
 * kernel with 8 Additives registered (each with a route of its own) against bare Koa, since a
 * feature or Additive a request does not use should cost it nothing. Both kernel servers run with
 * issue 17's production defaults off (security headers, body parser, health routes, request log),
 * so the row measures the kernel's own request path; `bench/defaults.ts` and `bench/scale.ts`
 * measure the defaults.
 *
 *   npm run bench -- http        # BENCH_ROUNDS=5 BENCH_SECONDS=2 BENCH_CONNECTIONS=50
 */
import { join } from 'node:path';
import { compareHttp, httpSettings, type Endpoint } from './lib/http-compare.ts';
import { kernelProject } from './lib/project.ts';
import { report } from './lib/report.ts';
import { startServer, stopAll, type RunningServer } from './lib/server.ts';
import { BENCH_DIR, rounds } from './lib/settings.ts';

const ROUNDS = rounds(5);
const server = (file: string, args: string[], name: string): Promise<RunningServer> => startServer(join(BENCH_DIR, 'servers', file), args, { name });
const project = kernelProject({ SECURITY_HEADERS: false, BODY_PARSER: false, HEALTH_ENABLED: false, FW_LOG_REQUESTS: false });
const servers: RunningServer[] = [];
try {
  const [fw, fw8, koa, node, fastify] = await Promise.all([
    server('fw-hello.ts', [project, '0'], 'fw kernel'),
    server('fw-hello.ts', [project, '8'], 'fw kernel, 8 Additives'),
    server('koa-hello.ts', [], 'bare Koa'),
    server('node-hello.ts', [], 'raw node:http'),
    server('fastify-hello.ts', [], 'fastify'),
  ]);
  servers.push(fw!, fw8!, koa!, node!, fastify!);
  const at = (label: string, s: RunningServer): Endpoint => ({ label, server: s, path: '/hello' });
  const kernel = at('fw kernel (production defaults off)', fw!);
  const bareKoa = at('bare Koa + @koa/router', koa!);
  const rows = await compareHttp(
    'http',
    [
      { name: 'hello JSON vs bare Koa', fw: kernel, baseline: bareKoa, target: 'CPU/request ≤ 1.05×' },
      { name: 'hello JSON, 8 Additives vs bare Koa', fw: at('fw kernel + 8 Additives (production defaults off)', fw8!), baseline: bareKoa, target: 'CPU/request ≤ 1.05×' },
      { name: 'hello JSON vs raw node:http', fw: kernel, baseline: at('raw node:http', node!) },
      { name: 'hello JSON vs fastify', fw: kernel, baseline: at('fastify 5', fastify!) },
    ],
    { rounds: ROUNDS },
  );
  report('HTTP: hello JSON', httpSettings(ROUNDS), rows);
} finally {
  await stopAll(servers);
}
