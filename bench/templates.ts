/**
 * Templates: `fluid.render()` (lookup across folders, cached compile, Markup result) against raw
 * handlebars rendering the same precompiled template, in this process.
 *
 *   npx tsx --tsconfig test/tsconfig.json bench/templates.ts      # BENCH_RENDERS=20000 BENCH_ROUNDS=5
 *
 * Rounds alternate which side runs first; the best round of each is reported.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Handlebars from 'handlebars';
import { Additive, Fluid } from '../runtime-kernel/src/index.ts';
import { createLogger } from '../runtime-kernel/src/core/index.ts';

const renders = Number(process.env.BENCH_RENDERS ?? 20_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);

const source = `<!doctype html>
<html><head><title>{{title}}</title></head>
<body>
<h1>{{title}}</h1>
<ul>
{{#each items}}  <li class="{{cls}}"><a href="/items/{{id}}">{{name}}</a> {{note}}</li>
{{/each}}</ul>
</body></html>
`;
const data = {
  title: 'Items & <things>',
  items: Array.from({ length: 20 }, (_, i) => ({ id: i, cls: i % 2 ? 'odd' : 'even', name: `Item <${i}>`, note: `"quoted" & 'single' ${i}` })),
};

const root = mkdtempSync(join(tmpdir(), 'fw-bench-tpl-'));
writeFileSync(join(root, 'fw.json'), JSON.stringify({ name: 'bench', config: {} }));
mkdirSync(join(root, 'app_configs'));
writeFileSync(join(root, 'app_configs', 'bench.ini'), 'SECRET_KEY = bench\n');
mkdirSync(join(root, 'fluid', 'templates'), { recursive: true });
mkdirSync(join(root, 'blog', 'templates'), { recursive: true });
writeFileSync(join(root, 'blog', 'templates', 'list.html'), source); // found after one miss in the app folder

const fluid = new Fluid({ root, env: {}, logger: createLogger('silent') });
fluid.additive(new Additive('blog', { root: join(root, 'blog') }));
const raw = Handlebars.create().compile(source);

if (fluid.render('list.html', data).toString() !== raw(data)) throw new Error('outputs differ');

function time(fn: () => unknown): number {
  const t0 = performance.now();
  for (let i = 0; i < renders; i++) fn();
  return performance.now() - t0;
}
const cases: Record<string, () => unknown> = {
  'raw handlebars (compiled template)': () => raw(data),
  'fw render (lookup + cache + Markup)': () => fluid.render('list.html', data),
};
for (const fn of Object.values(cases)) time(fn); // warm-up
const best: Record<string, number> = {};
for (let r = 0; r < rounds; r++) {
  const names = r % 2 === 0 ? Object.keys(cases) : Object.keys(cases).reverse();
  for (const name of names) best[name] = Math.min(best[name] ?? Infinity, time(cases[name]!));
}
const base = best['raw handlebars (compiled template)']!;
console.log(`\nTemplate render, ${renders} renders per round, best of ${rounds}\n`);
console.log('| Renderer | renders/s | µs/render | ratio |');
console.log('|---|---:|---:|---:|');
for (const [name, ms] of Object.entries(best)) {
  console.log(`| ${name} | ${Math.round((renders / ms) * 1000)} | ${((ms * 1000) / renders).toFixed(2)} | ${(base / ms).toFixed(2)}x |`);
}
await fluid.close();
rmSync(root, { recursive: true, force: true });
