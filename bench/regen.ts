/**
 * Regeneration core: `planRegeneration` (record + store + disk, three-way merge) against the
 * baseline a plain overwrite engine pays (read every file on disk and compare it with the render),
 * in projects with 10 and 100 additives, side by side in one process. Also `registerAdditive`
 * (ts-morph codemod) on an app.ts already holding 10 / 100 registrations.
 *
 *   npx tsx bench/regen.ts              # BENCH_RUNS=7 by default; the median is reported
 *
 * Each additive has 8 files of ~40 lines; a quarter of the additives carry a user edit. "one-key
 * change" changes one line of every additive's app.ts render (as a config key used by every
 * additive would), so every additive has a file to update or merge. The ratio column is 100/10:
 * linear scaling is 10, better than linear is below 10.
 */
import { readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { registerAdditive } from '../generators/src/codemods/index.ts';
import { apply, Tree, type Plan } from '../generators/src/pipeline/index.ts';

/** The pipeline's planner over a render of one generator (what `regen/` used to export). */
async function planRegeneration(options: { projectRoot: string; rendered: ReadonlyMap<string, Buffer>; generatorId: string }): Promise<Plan> {
  const tree = new Tree(options.projectRoot, { owns: (g) => g === options.generatorId, generatorId: options.generatorId });
  for (const [file, content] of options.rendered) tree.render(file, content, { generator: options.generatorId, format: false });
  return tree.plan();
}

async function applyPlanToDisk(plan: Plan, options: { generatorVersion: string }): Promise<void> {
  await apply(plan, options);
}

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const FILES = ['api.ts', 'app.ts', 'ws.ts', 'hooks.ts', 'manifest.json', 'templates/index.html', 'static/app.css', 'index.ts'];

function render(additives: number, changed: boolean): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (let a = 0; a < additives; a++) {
    for (const f of FILES) {
      const lines = Array.from({ length: 40 }, (_, i) => `// additive ${a} file ${f} line ${i}`);
      if (changed && f === 'app.ts') lines[30] = `// additive ${a} CHANGED by config`;
      out.set(`additives/a${a}/${f}`, Buffer.from(`${lines.join('\n')}\n`));
    }
  }
  return out;
}

async function setup(additives: number): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), `fw-bench-regen-${additives}-`));
  await applyPlanToDisk(await planRegeneration({ projectRoot: root, rendered: render(additives, false), generatorId: 'bench' }), { generatorVersion: 'bench' });
  for (let a = 0; a < additives; a += 4) {
    const file = path.join(root, `additives/a${a}/app.ts`);
    await writeFile(file, (await readFile(file, 'utf8')).replace('line 3\n', 'line 3 (user edit)\n'));
  }
  return root;
}

/** The baseline: read every rendered path from disk and compare bytes (a two-way overwrite check). */
async function baseline(root: string, rendered: Map<string, Buffer>): Promise<number> {
  let differing = 0;
  for (const [p, bytes] of rendered) {
    const disk = await readFile(path.join(root, p)).catch(() => undefined);
    if (!disk?.equals(bytes)) differing++;
  }
  return differing;
}

async function median(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((x, y) => x - y);
  return times[Math.floor(times.length / 2)]!;
}

function appWith(n: number): string {
  const imports = Array.from({ length: n }, (_, i) => `import a${i} from '../additives/a${i}/index.js';`);
  const calls = Array.from({ length: n }, (_, i) => `fluid.additive(a${i});`);
  return ["import { Fluid } from '@fw/kernel';", ...imports, '', "export const fluid = new Fluid({ root: new URL('..', import.meta.url) });", ...calls, 'export default fluid;', ''].join('\n');
}

const rows: Array<[string, number, number]> = [];
const roots: string[] = [];
const sizes = [10, 100] as const;
const results: Record<string, Record<number, number>> = {};
const record = (name: string, size: number, ms: number): void => {
  (results[name] ??= {})[size] = ms;
};

for (const n of sizes) {
  const root = await setup(n);
  roots.push(root);
  const same = render(n, false);
  const changed = render(n, true);
  record('baseline: read + compare (unchanged)', n, await median(() => baseline(root, same)));
  record('planRegeneration (unchanged)', n, await median(() => planRegeneration({ projectRoot: root, rendered: same, generatorId: 'bench' })));
  record('baseline: read + compare (one-key change)', n, await median(() => baseline(root, changed)));
  record('planRegeneration (one-key change)', n, await median(() => planRegeneration({ projectRoot: root, rendered: changed, generatorId: 'bench' })));
  const app = appWith(n);
  record('registerAdditive (ts-morph, warm)', n, await median(() => registerAdditive({ path: 'fluid/app.ts', text: app }, 'blog')));
}
for (const [name, by] of Object.entries(results)) rows.push([name, by[10]!, by[100]!]);

const w = Math.max(...rows.map((r) => r[0].length));
console.log(`${'case'.padEnd(w)}  ${'10 additives'.padStart(13)}  ${'100 additives'.padStart(14)}  ${'100/10'.padStart(7)}`);
for (const [name, ten, hundred] of rows) {
  console.log(`${name.padEnd(w)}  ${`${ten.toFixed(2)} ms`.padStart(13)}  ${`${hundred.toFixed(2)} ms`.padStart(14)}  ${(hundred / ten).toFixed(2).padStart(7)}`);
}
const pair = (a: string, b: string, n: number): string => (results[b]![n]! / results[a]![n]!).toFixed(2);
console.log(`\nplanRegeneration / baseline at 100 additives: unchanged ×${pair('baseline: read + compare (unchanged)', 'planRegeneration (unchanged)', 100)}, one-key change ×${pair('baseline: read + compare (one-key change)', 'planRegeneration (one-key change)', 100)}`);
await Promise.all(roots.map((r) => rm(r, { recursive: true, force: true })));
