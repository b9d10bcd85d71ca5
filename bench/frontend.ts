/**
 * Frontend: (1) boot time to first response of a production app with 1 and with 8 Vite surfaces
 * (build output present, FW_CHECK_FRONTEND/FW_BUILD_FRONTEND off, so the figure is fw's own
 * wiring), against the same app with an htmx surface; each boot in a fresh Node process,
 * `new Fluid` → listen → first `GET /` answered. (2) Catch-all asset throughput (cookie check,
 * rule checks, contained(), send) against koa-static alone serving the same file.
 *
 *   npx tsx --tsconfig test/tsconfig.json bench/frontend.ts   # BENCH_BOOTS=5 BENCH_SECONDS=3 BENCH_CONNECTIONS=50
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import autocannon from 'autocannon';
import Koa from 'koa';
import serve from 'koa-static';
import { Fluid } from '../runtime-kernel/src/index.ts';
import { createLogger } from '../runtime-kernel/src/core/index.ts';

const boots = Number(process.env.BENCH_BOOTS ?? 5);
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const repo = join(import.meta.dirname, '..');

function write(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
}

function project(surfaces: number): string {
  const root = mkdtempSync(join(tmpdir(), 'fw-bench-frontend-'));
  const vite = surfaces > 0;
  write(root, {
    'fw.json': JSON.stringify({
      name: 'bench',
      config: { APP_FRONTEND: vite ? { type: 'vite', framework: 'react' } : { type: 'htmx' }, FW_CHECK_FRONTEND: false, FW_BUILD_FRONTEND: false },
    }),
    'app_configs/bench.ini': 'SECRET_KEY = bench\n',
    'fluid/frontend/dist/index.html': '<html><head></head><body><script type="module" src="/frontend/assets/i.js"></script></body></html>',
    'fluid/frontend/public/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'.repeat(20),
  });
  for (let i = 1; i < surfaces; i++) {
    write(root, {
      [`additives/s${i}/manifest.json`]: JSON.stringify({ name: `s${i}`, version: '1.0.0', frontend: { type: 'vite', framework: 'vue' } }),
      [`additives/s${i}/frontend/dist/index.html`]: '<html><head></head><body>x</body></html>',
    });
  }
  return root;
}

const BOOT = `
const t0 = performance.now();
const { Fluid, Additive } = await import(process.argv[2]);
const root = process.argv[3]; const n = Number(process.argv[4]);
const fluid = new Fluid({ root, env: {}, logger: { debug() {}, info() {}, warn() {}, error() {} } });
if (n === 0) fluid.app.get('home', '/', () => 'home');
for (let i = 1; i < n; i++) fluid.additive(new Additive('s' + i, { root: root + '/additives/s' + i }));
const server = await fluid.listen(0, '127.0.0.1');
const res = await fetch('http://127.0.0.1:' + server.address().port + '/');
await res.text();
if (res.status !== 200) throw new Error('status ' + res.status);
console.log(performance.now() - t0);
await fluid.close();
`;

const bootScript = join(mkdtempSync(join(repo, '.tmp', 'bench-boot-')), 'boot.mts');
writeFileSync(bootScript, BOOT);
const kernel = join(repo, 'runtime-kernel/src/index.ts');
const bootRows: [string, number][] = [];
for (const [label, n] of [['htmx app (no Vite surface)', 0], ['1 Vite surface', 1], ['8 Vite surfaces', 8]] as const) {
  const root = project(n);
  const times: number[] = [];
  for (let i = 0; i < boots; i++) {
    const r = spawnSync(join(repo, 'node_modules/.bin/tsx'), [bootScript, kernel, root, String(n)], { cwd: repo, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    times.push(Number(r.stdout.trim().split('\n').pop()));
  }
  bootRows.push([label, median(times)]);
  rmSync(root, { recursive: true, force: true });
}
rmSync(dirname(bootScript), { recursive: true, force: true });

// Catch-all throughput against koa-static alone.
const root = project(1);
const fluid = new Fluid({ root, env: {}, logger: createLogger('silent') });
const fwServer = await fluid.listen(0, '127.0.0.1');
const koa = new Koa();
koa.silent = true;
koa.use(serve(join(root, 'fluid/frontend/public')));
const bare: Server = createServer(koa.callback()).listen(0, '127.0.0.1');
await new Promise((r) => bare.once('listening', r));
const url = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/logo.svg`;

async function rps(target: string, headers: Record<string, string>): Promise<number> {
  const r = await autocannon({ url: target, connections, duration: seconds, headers });
  if (r.non2xx > 0) throw new Error(`${target}: ${r.non2xx} non-2xx answers`);
  return r.requests.average;
}
const cookie = { cookie: 'vite_ns=fluid/frontend' };
await rps(url(fwServer), cookie); // warm-up
await rps(url(bare), {});
const fw = [await rps(url(fwServer), cookie), await rps(url(bare), {})];
const fw2 = [await rps(url(bare), {}), await rps(url(fwServer), cookie)];
const fwRps = (fw[0]! + fw2[1]!) / 2;
const bareRps = (fw[1]! + fw2[0]!) / 2;
await fluid.close();
await new Promise((r) => bare.close(r));

console.log(`Boot to first response (production, build present), median of ${boots} fresh processes`);
console.log('| App | ms | vs htmx app |');
console.log('|---|---:|---:|');
for (const [label, ms] of bootRows) console.log(`| ${label} | ${ms.toFixed(0)} | ${(ms / bootRows[0]![1]).toFixed(2)}x |`);
console.log();
console.log(`Asset throughput, GET /logo.svg (1.3 KB), ${connections} connections, ${seconds}s x2 alternating`);
console.log('| Server | req/s | vs koa-static |');
console.log('|---|---:|---:|');
console.log(`| koa-static alone | ${bareRps.toFixed(0)} | 1.00x |`);
console.log(`| fw catch-all (full app stack, vite_ns cookie) | ${fwRps.toFixed(0)} | ${(fwRps / bareRps).toFixed(2)}x |`);
await new Promise((r) => setTimeout(r, 1000)); // let streams cut off by autocannon's last requests settle
rmSync(root, { recursive: true, force: true });
