/**
 * Startup cost of the kernel's db module, which loads no `@prisma/*` code until a bind's first
 * query, against the baseline of a db module that imports both driver adapters eagerly.
 * Each figure is the median time of a dynamic import in a fresh Node process (tsx loader).
 *
 *   npx tsx bench/db.ts
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const RUNS = 9;

const cases: [string, string[]][] = [
  ['@fw/kernel/db (lazy adapters)', [pathToFileURL(path.join(root, 'runtime-kernel/src/db/index.ts')).href]],
  ['baseline: eager @prisma/adapter-libsql + @prisma/adapter-pg', ['@prisma/adapter-libsql', '@prisma/adapter-pg']],
];

function once(specifiers: string[]): number {
  const code = `const t = performance.now(); for (const s of ${JSON.stringify(specifiers)}) await import(s); console.log(performance.now() - t);`;
  const run = spawnSync(tsx, ['--eval', code, '--input-type=module'], { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return Number(run.stdout.trim().split('\n').pop());
}

const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows = cases.map(([name, specifiers]) => ({ name, ms: median(Array.from({ length: RUNS }, () => once(specifiers))) }));
const base = rows[1]!.ms;
console.log(`| import (median of ${RUNS} fresh processes) | ms | vs baseline |`);
console.log('| --- | ---: | ---: |');
for (const row of rows) console.log(`| ${row.name} | ${row.ms.toFixed(1)} | ${(row.ms / base).toFixed(2)}x |`);
