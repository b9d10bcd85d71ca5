/**
 * Ocean client speed: loading (parse + validate) a large index against plain JSON.parse, and
 * resolving / searching it. Run: npx tsx bench/ocean.ts
 */
import { performance } from 'node:perf_hooks';
import { parseIndex, resolveInstall, searchIndex } from '../generators/src/ocean/index.js';

const ADDITIVES = 5_000;
const additives = Array.from({ length: ADDITIVES }, (_, i) => ({
  id: `additive-${i}`,
  package: `@ocean/additive-${i}`,
  description: `Additive number ${i} for the benchmark`,
  versions: ['0.9.0', '1.0.0', '1.0.1', '1.1.0-alpha.1', '1.1.0-beta.2', '1.1.0-rc.1', '1.1.0', '1.2.0-beta.1', '2.0.0-rc.1', '10.0.0'],
  tags: ['bench'],
}));
const bundles = Array.from({ length: 500 }, (_, i) => ({
  id: i,
  name: `bundle-${i}`,
  members: Array.from({ length: 20 }, (_, j) => `additive-${(i * 10 + j) % ADDITIVES}`),
}));
const text = JSON.stringify({ additives, bundles });

function time(label: string, runs: number, fn: () => unknown): { label: string; ms: number } {
  for (let i = 0; i < 3; i++) fn();
  const start = performance.now();
  for (let i = 0; i < runs; i++) fn();
  return { label, ms: (performance.now() - start) / runs };
}

const index = parseIndex(text, 'bench');
const rows = [
  time('baseline: JSON.parse only', 20, () => JSON.parse(text)),
  time('parseIndex (JSON.parse + zod schema + cross-checks)', 20, () => parseIndex(text, 'bench')),
  time('resolveInstall: 5 bundles (100 ids), policy pre', 200, () =>
    resolveInstall({ index, requests: ['additive-3==1.0.0'], bundles: ['0', '1', '2', '000003', '4'], policy: 'pre' }),
  ),
  time('searchIndex("number 42")', 50, () => searchIndex(index, 'number 42')),
];

console.log(`Ocean index: ${ADDITIVES} Additives x 10 versions, ${bundles.length} bundles, ${(text.length / 1e6).toFixed(1)} MB`);
console.log('| operation | ms per run | x baseline |');
console.log('|---|---:|---:|');
const base = rows[0]?.ms ?? 1;
for (const row of rows) console.log(`| ${row.label} | ${row.ms.toFixed(2)} | ${(row.ms / base).toFixed(1)} |`);
