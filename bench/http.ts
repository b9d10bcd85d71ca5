/**
 * HTTP: a hello route through the full fw kernel stack (processors with the styled error pages,
 * error handling, client address and rate limiter, static mounts, hooks middleware, routers)
 * against bare Koa + @koa/router, both listening on loopback in this process.
 *
 *   npx tsx --tsconfig test/tsconfig.json bench/http.ts
 *   # BENCH_SECONDS=3 BENCH_CONNECTIONS=50 BENCH_ROUNDS=6
 *
 * After a warm-up, the two servers are measured in adjacent pairs of runs, alternating who goes
 * first; the ratio reported is the median of the per-round ratios, so load from other processes
 * on the machine hits both sides alike. Target: fw ≥ 0.85× bare Koa.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Koa from 'koa';
import Router from '@koa/router';
import { Fluid } from '../runtime-kernel/src/index.ts';
import { createLogger } from '../runtime-kernel/src/core/index.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 6);

const root = mkdtempSync(join(tmpdir(), 'fw-bench-http-'));
writeFileSync(join(root, 'fw.json'), JSON.stringify({ name: 'bench', config: {} }));
mkdirSync(join(root, 'app_configs'));
writeFileSync(join(root, 'app_configs', 'bench.ini'), 'SECRET_KEY = bench\n');

const fluid = new Fluid({ root, env: {}, logger: createLogger('silent') });
fluid.app.get('hello', '/hello', () => 'Hello, world!');
const fwServer = await fluid.listen(0, '127.0.0.1');

const koa = new Koa();
const router = new Router();
router.get('hello', '/hello', (ctx) => {
  ctx.body = 'Hello, world!';
});
koa.use(router.routes()).use(router.allowedMethods());
const koaServer: Server = await new Promise((resolve) => {
  const s = koa.listen(0, '127.0.0.1', () => resolve(s));
});

function url(server: Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hello`;
}

/** CPU microseconds this process spent per request in each run (server + load generator). */
const cpuPerRequest: Record<string, number[]> = {};

async function run(target: string, duration: number): Promise<number> {
  const cpu = process.cpuUsage();
  const result = await autocannon({ url: target, connections, duration, pipelining: 1 });
  const used = process.cpuUsage(cpu);
  if (result.non2xx || result.errors) throw new Error(`${target}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  (cpuPerRequest[target] ??= []).push((used.user + used.system) / result.requests.total);
  return result.requests.average;
}

const cases = { 'bare Koa + @koa/router': url(koaServer), 'fw kernel (full stack)': url(fwServer) };
const [baseName, fwName] = Object.keys(cases) as [string, string];
for (const target of Object.values(cases)) await run(target, 1); // warm-up
const runs: Record<string, number[]> = { [baseName]: [], [fwName]: [] };
const ratios: number[] = [];
for (let round = 0; round < rounds; round++) {
  // Alternate who goes first; a round's two runs are adjacent, so they share the machine's load.
  const order = round % 2 === 0 ? [baseName, fwName] : [fwName, baseName];
  const got: Record<string, number> = {};
  for (const name of order) got[name] = await run(cases[name as keyof typeof cases], seconds);
  runs[baseName]!.push(got[baseName]!);
  runs[fwName]!.push(got[fwName]!);
  ratios.push(got[fwName]! / got[baseName]!);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log(`\nHTTP hello route, ${connections} connections, ${rounds} alternating rounds of ${seconds}s\n`);
console.log('| Server | best req/s | median req/s | median ratio (paired rounds) |');
console.log('|---|---:|---:|---:|');
console.log(`| ${baseName} | ${Math.round(Math.max(...runs[baseName]!))} | ${Math.round(median(runs[baseName]!))} | 1.00x |`);
console.log(`| ${fwName} | ${Math.round(Math.max(...runs[fwName]!))} | ${Math.round(median(runs[fwName]!))} | ${median(ratios).toFixed(2)}x |`);
const cpuBase = median(cpuPerRequest[cases[baseName as keyof typeof cases]]!.slice(1));
const cpuFw = median(cpuPerRequest[cases[fwName as keyof typeof cases]]!.slice(1));
console.log(
  `\nCPU per request (this process: server + autocannon, median): bare ${cpuBase.toFixed(1)} µs, fw ${cpuFw.toFixed(1)} µs ` +
    `-> CPU-bound ratio ${(cpuBase / cpuFw).toFixed(2)}x`,
);
console.log(`paired ratios: ${ratios.map((r) => r.toFixed(2)).join(' ')}  (target >= 0.85x)`);

await fluid.close();
await new Promise((r) => koaServer.close(r));
rmSync(root, { recursive: true, force: true });
