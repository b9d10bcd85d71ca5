/**
 * Lists and runs fw's benchmarks (every `bench/<name>.ts` / `.mjs` except this file), each in its
 * own process with tsx, one after another.
 *
 *   npx tsx bench/run.ts --list      # the names
 *   npx tsx bench/run.ts generate    # one benchmark (bench/generate.ts)
 *   npx tsx bench/run.ts             # all of them, in name order
 *
 * Exit status: 1 when a benchmark fails (the others still run) or a name is unknown.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const SELF = path.basename(fileURLToPath(import.meta.url));

/** Benchmark name → file, sorted by name. */
function benchmarks(): Map<string, string> {
  const files = readdirSync(BENCH_DIR).filter((f) => /\.(ts|mjs)$/.test(f) && f !== SELF && !f.endsWith('.d.ts'));
  return new Map(files.map((f) => [f.replace(/\.(ts|mjs)$/, ''), f] as [string, string]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const all = benchmarks();
const args = process.argv.slice(2);
if (args.includes('--list') || args.includes('-l')) {
  process.stdout.write(`${[...all.keys()].join('\n')}\n`);
  process.exit(0);
}
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(`Usage: npx tsx bench/run.ts [--list] [name...]\nBenchmarks: ${[...all.keys()].join(', ')}\n`);
  process.exit(0);
}
const unknown = args.filter((a) => !all.has(a));
if (unknown.length > 0) {
  process.stderr.write(`error: unknown benchmark ${unknown.map((u) => `"${u}"`).join(', ')}; expected one of ${[...all.keys()].join(', ')}\n`);
  process.exit(1);
}
const selected = args.length > 0 ? args : [...all.keys()];
const failed: string[] = [];
for (const name of selected) {
  process.stdout.write(`\n=== bench/${all.get(name)} ===\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(BENCH_DIR, all.get(name)!)], { stdio: 'inherit', cwd: path.dirname(BENCH_DIR) });
  if (result.status !== 0) failed.push(`${name} (exit ${result.status ?? result.signal})`);
}
if (failed.length > 0) {
  process.stderr.write(`\nfailed: ${failed.join(', ')}\n`);
  process.exit(1);
}
