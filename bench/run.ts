/**
 * Runs fw's benchmarks (every `bench/<name>.ts` except this file; helpers live in bench/lib and
 * bench/servers), each in its own Node process, one after another, and prints one summary table
 * of every row. The rows are also written to bench/results/latest.json and latest.md.
 *
 *   npm run bench                    # all of them (a fresh clone needs only npm ci; this builds)
 *   npm run bench -- http generate   # some of them
 *   npm run bench -- --list          # the names
 *   BENCH_QUICK=1 npm run bench      # smoke run: one short round each (checks every benchmark works)
 *
 * Exit status 1 when a benchmark fails (the others still run) or a name is unknown.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOAD_TOOL } from './lib/load.ts';
import { nodeScript } from './lib/node.ts';
import { loadAverage } from './lib/procfs.ts';
import { cells, header, markdown, type Row } from './lib/report.ts';
import { BENCH_DIR, QUICK, REPO, SCRATCH } from './lib/settings.ts';

const all = readdirSync(BENCH_DIR)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
  .map((f) => f.slice(0, -3))
  .sort();
const args = process.argv.slice(2);
if (args.includes('--list') || args.includes('-l')) {
  process.stdout.write(`${all.join('\n')}\n`);
  process.exit(0);
}
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(`Usage: npm run bench -- [--list] [name...]\nBenchmarks: ${all.join(', ')}\n`);
  process.exit(0);
}
const unknown = args.filter((a) => !all.includes(a));
if (unknown.length > 0) {
  process.stderr.write(`error: unknown benchmark ${unknown.map((u) => `"${u}"`).join(', ')}; expected one of ${all.join(', ')}\n`);
  process.exit(1);
}

const selected = args.length > 0 ? args : all;
const results = join(BENCH_DIR, 'results');
rmSync(SCRATCH, { recursive: true, force: true }); // leftovers of an interrupted run
mkdirSync(SCRATCH, { recursive: true });
mkdirSync(results, { recursive: true });
const jsonLines = join(SCRATCH, 'rows.jsonl');
writeFileSync(jsonLines, '');
const startedAt = new Date();
const loadBefore = loadAverage();
const failed: string[] = [];
const durations: string[] = [];
for (const name of selected) {
  process.stdout.write(`\n=== bench/${name}.ts ===\n`);
  const started = performance.now();
  const [node, argv] = nodeScript(join(BENCH_DIR, `${name}.ts`));
  const r = spawnSync(node, argv, { stdio: 'inherit', cwd: REPO, env: { ...process.env, BENCH_JSON: jsonLines } });
  durations.push(`${name} ${((performance.now() - started) / 1000).toFixed(0)} s`);
  if (r.status !== 0) failed.push(`${name} (exit ${r.status ?? r.signal})`);
}

const rows: Row[] = readFileSync(jsonLines, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Row);
const minutes = ((Date.now() - startedAt.getTime()) / 60_000).toFixed(1);
const meta = [
  `${startedAt.toISOString()}, node ${process.version}, ${LOAD_TOOL}${QUICK ? ', BENCH_QUICK=1 (smoke run: the figures are not meaningful)' : ''}`,
  `load average before ${loadBefore}, after ${loadAverage()}; ${minutes} min (${durations.join(', ')})`,
];
const table = markdown(header(true), rows.map((r) => cells(r, true)));
const summary = `\n## Summary: ${rows.length} rows\n\n${meta.join('\n')}\n\n${table}\n`;
process.stdout.write(summary);
writeFileSync(join(results, 'latest.md'), summary.trimStart());
writeFileSync(join(results, 'latest.json'), `${JSON.stringify({ startedAt, node: process.version, loadTool: LOAD_TOOL, quick: QUICK, loadBefore, loadAfter: loadAverage(), rows }, null, 2)}\n`);
if (failed.length > 0) {
  process.stderr.write(`\nfailed: ${failed.join(', ')}\n`);
  process.exit(1);
}
