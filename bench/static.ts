/**
 * Static files: fw's `serveStatic` against `koa-static` alone, same files, same process.
 *
 *   npx tsx bench/static.ts            # BENCH_DURATION=5 BENCH_CONNECTIONS=50 by default
 *
 * Both servers run in this process on 127.0.0.1 next to autocannon, so absolute figures are
 * lower than on a dedicated machine; the ratio is the number to watch. Each case is measured
 * three times in alternating order after a warm-up, and the best run of each is reported.
 * koa-static is mounted at `/` (it has no prefix option); serveStatic at `/static`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Koa from 'koa';
import koaStatic from 'koa-static';
import { serveStatic } from '../runtime-kernel/src/core/serve-static.ts';

const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

const dir = mkdtempSync(join(tmpdir(), 'fw-bench-static-'));
writeFileSync(join(dir, 'small.css'), 'body { margin: 0; font-family: system-ui, sans-serif; }\n');
writeFileSync(join(dir, 'big.js'), 'x'.repeat(100 * 1024));

async function listen(app: Koa): Promise<{ url: string; server: Server }> {
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

// autocannon drops its connections when a run ends; Koa would log each aborted stream.
const fwApp = new Koa();
fwApp.silent = true;
fwApp.use(serveStatic('/static', dir));
const baseApp = new Koa();
baseApp.silent = true;
baseApp.use(koaStatic(dir));
const fw = await listen(fwApp);
const base = await listen(baseApp);

interface Run {
  rps: number;
  p99: number;
  errors: number;
}

async function run(url: string, seconds: number): Promise<Run> {
  const result = await autocannon({ url, connections, duration: seconds, pipelining: 1 });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.non2xx + result.errors };
}

const cases = [
  { name: 'small file (56 B)', fw: `${fw.url}/static/small.css`, base: `${base.url}/small.css` },
  { name: '100 KB file', fw: `${fw.url}/static/big.js`, base: `${base.url}/big.js` },
];

const rows: Array<Record<string, string>> = [];
for (const c of cases) {
  await run(c.fw, 1);
  await run(c.base, 1);
  const fwRuns: Run[] = [];
  const baseRuns: Run[] = [];
  for (let round = 0; round < 3; round++) {
    if (round % 2 === 0) {
      fwRuns.push(await run(c.fw, duration));
      baseRuns.push(await run(c.base, duration));
    } else {
      baseRuns.push(await run(c.base, duration));
      fwRuns.push(await run(c.fw, duration));
    }
  }
  const best = (runs: Run[]) => runs.reduce((a, b) => (b.rps > a.rps ? b : a));
  const f = best(fwRuns);
  const b = best(baseRuns);
  rows.push({
    case: c.name,
    'serveStatic req/s': f.rps.toFixed(0),
    'koa-static req/s': b.rps.toFixed(0),
    ratio: (f.rps / b.rps).toFixed(2) + 'x',
    'serveStatic p99 ms': String(f.p99),
    'koa-static p99 ms': String(b.p99),
    errors: String(f.errors + b.errors),
  });
}

console.log(`\nStatic files, ${connections} connections, ${duration} s per run (best of 3), node ${process.version}\n`);
console.table(rows);

fw.server.close();
base.server.close();
rmSync(dir, { recursive: true, force: true });
