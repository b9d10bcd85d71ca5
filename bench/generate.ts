/**
 * `fw generate` and `fw create additive`, end to end through the command list (render, prettier,
 * record + store + disk, three-way merge, registrations, atomic writes), in real projects with 10
 * (the baseline) and 100 additives, side by side in one process. The ratio column is 100/10:
 * linear scaling is 10, better than linear is below 10.
 *
 *   npx tsx bench/generate.ts            # BENCH_RUNS=3 by default; the median is reported
 *
 * Rows: a `fw generate` with nothing changed; a `fw generate` after a one-key config change
 * (APP_FRONTEND.alpine toggled: one file of the project blueprint changes); `fw create additive`
 * (one more additive, registered in fluid/app.ts).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { run } from '../generators/src/commands/index.ts';
import type { CommandIO } from '../generators/src/cli/io.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

function io(cwd: string): CommandIO {
  const sink = new PassThrough();
  sink.resume();
  return { cwd, stdin: new PassThrough(), stdout: sink, stderr: sink, env: process.env };
}

async function fw(cwd: string, ...argv: string[]): Promise<void> {
  const code = await run(argv, io(cwd));
  if (code !== 0) throw new Error(`fw ${argv.join(' ')} exited ${code} in ${cwd}`);
}

async function editConfig(root: string, edit: (c: { additives: string[]; config: Record<string, unknown> }) => void): Promise<void> {
  const file = path.join(root, 'fw.json');
  const json = JSON.parse(await readFile(file, 'utf8'));
  edit(json);
  await writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
}

async function setup(additives: number): Promise<{ root: string; work: string }> {
  const work = await mkdtemp(path.join(tmpdir(), `fw-bench-gen-${additives}-`));
  await fw(work, 'create', 'project', 'bench-app', '--yes');
  const root = path.join(work, 'bench-app');
  await editConfig(root, (c) => (c.additives = Array.from({ length: additives }, (_, i) => `a${i}`)));
  await fw(root, 'generate');
  return { root, work };
}

async function time(fn: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(additives: number): Promise<Record<string, number>> {
  const { root, work } = await setup(additives);
  const out: Record<string, number[]> = { unchanged: [], oneKey: [], create: [] };
  let alpine = false;
  for (let r = 0; r < RUNS; r++) {
    out.unchanged!.push(await time(() => fw(root, 'generate')));
    alpine = !alpine;
    await editConfig(root, (c) => (c.config.APP_FRONTEND = { type: 'htmx', alpine }));
    out.oneKey!.push(await time(() => fw(root, 'generate')));
    out.create!.push(await time(() => fw(root, 'create', 'additive', `extra${r}`)));
  }
  await rm(work, { recursive: true, force: true });
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, median(v)]));
}

// Warm up (module loading, prettier's parsers, ts-morph) so neither size pays it.
await measure(2);
const ten = await measure(10);
const hundred = await measure(100);

const rows: Array<[string, string]> = [
  ['fw generate, nothing changed', 'unchanged'],
  ['fw generate, one-key config change', 'oneKey'],
  ['fw create additive', 'create'],
];
console.log(`fw generate / create additive, median of ${RUNS} runs (ms)\n`);
console.log('| operation | 10 additives (baseline) | 100 additives | ratio 100/10 |');
console.log('|---|---:|---:|---:|');
for (const [label, key] of rows) {
  const a = ten[key]!;
  const b = hundred[key]!;
  console.log(`| ${label} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${(b / a).toFixed(2)}x |`);
}
