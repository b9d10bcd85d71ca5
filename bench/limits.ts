/**
 * Rate limits: the hello JSON route of an app with `RATELIMIT_DEFAULT` set (memory counters, the
 * default for one process) against the same app without it. The limit is high enough that no
 * request is refused, so the row is the cost of counting.
 *
 *   npm run bench -- limits      # BENCH_ROUNDS=5 BENCH_SECONDS=2
 */
import { join } from 'node:path';
import { compareHttp, httpSettings } from './lib/http-compare.ts';
import { kernelProject } from './lib/project.ts';
import { report } from './lib/report.ts';
import { startServer, stopAll, type RunningServer } from './lib/server.ts';
import { BENCH_DIR, rounds } from './lib/settings.ts';

const ROUNDS = rounds(5);
const LIMIT = '1000000000/minute';
const servers: RunningServer[] = [];
try {
  const script = join(BENCH_DIR, 'servers', 'fw-hello.ts');
  const [limited, open] = await Promise.all([
    startServer(script, [kernelProject({ RATELIMIT_DEFAULT: LIMIT }), '0'], { name: 'fw kernel, RATELIMIT_DEFAULT' }),
    startServer(script, [kernelProject(), '0'], { name: 'fw kernel' }),
  ]);
  servers.push(limited, open);
  const rows = await compareHttp(
    'limits',
    [
      {
        name: 'RATELIMIT_DEFAULT on vs off',
        fw: { label: `fw, RATELIMIT_DEFAULT "${LIMIT}" (memory)`, server: limited, path: '/hello' },
        baseline: { label: 'fw, no limit (default)', server: open, path: '/hello' },
        target: 'CPU ≤ 1.10×',
        note: 'The limit is set high so that no request is refused; every request is counted.',
      },
    ],
    { rounds: ROUNDS },
  );
  report('Rate limits', httpSettings(ROUNDS), rows);
} finally {
  await stopAll(servers);
}
