/**
 * Tailwind: fw's in-process compile (`@tailwindcss/node` + `@tailwindcss/oxide`, what boot runs
 * with FW_TAILWIND) against the Tailwind CLI (`@tailwindcss/cli`, a Node process per compile —
 * what the reference runs), over the same raw stylesheet and the same 200 template files.
 *
 *   npx tsx --tsconfig test/tsconfig.json bench/tailwind.ts      # BENCH_RUNS=10
 *
 * "first" is the first compile in a fresh process (module load included) for the in-process
 * path, measured in a child process; "warm" is the median of BENCH_RUNS further compiles.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateTailwindAsset } from '../runtime-kernel/src/frontend/tailwind.ts';

const runs = Number(process.env.BENCH_RUNS ?? 10);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const repo = join(import.meta.dirname, '..');
mkdirSync(join(repo, '.tmp'), { recursive: true });
const root = mkdtempSync(join(repo, '.tmp', 'bench-tailwind-'));
const colors = ['red', 'blue', 'green', 'amber', 'slate', 'violet', 'emerald', 'rose'];
for (let i = 0; i < 200; i++) {
  const c = colors[i % colors.length];
  writeFileSync(join(root, `t${i}.html`), `<div class="p-${i % 12} m-${i % 8} text-${c}-${(i % 9 + 1) * 100} bg-${c}-50 hover:bg-${c}-200 md:flex grid-cols-${i % 12 + 1}">${i}</div>`);
}
writeFileSync(join(root, 'tailwind_raw.css'), '@import "tailwindcss";\n');
const cli = join(createRequire(import.meta.url).resolve('@tailwindcss/cli/package.json'), '..', 'dist', 'index.mjs');

function timeCli(): number {
  const t = performance.now();
  const r = spawnSync(process.execPath, [cli, '-i', 'tailwind_raw.css', '-o', 'cli.css'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return performance.now() - t;
}

async function timeInProcess(): Promise<number> {
  const t = performance.now();
  await generateTailwindAsset('tailwind_raw.css', 'fw.css', root);
  return performance.now() - t;
}

// First compile in a fresh process (imports included), for the boot-path figure.
const firstScript = join(root, 'first.mts');
writeFileSync(
  firstScript,
  `const t = performance.now(); const m = await import(${JSON.stringify(join(repo, 'runtime-kernel/src/frontend/tailwind.ts'))});` +
    `await m.generateTailwindAsset('tailwind_raw.css', 'first.css', ${JSON.stringify(root)}); console.log(performance.now() - t);`,
);
const firsts: number[] = [];
for (let i = 0; i < 3; i++) {
  const r = spawnSync(join(repo, 'node_modules/.bin/tsx'), [firstScript], { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  firsts.push(Number(r.stdout.trim()));
}
const cliTimes: number[] = [];
const fwTimes: number[] = [];
await timeInProcess();
for (let i = 0; i < runs; i++) {
  if (i % 2 === 0) {
    cliTimes.push(timeCli());
    fwTimes.push(await timeInProcess());
  } else {
    fwTimes.push(await timeInProcess());
    cliTimes.push(timeCli());
  }
}
const same = readFileSync(join(root, 'cli.css'), 'utf8').length;
const ours = readFileSync(join(root, 'fw.css'), 'utf8').length;
const cliMs = median(cliTimes);
const fwMs = median(fwTimes);
console.log(`Tailwind compile, 200 templates, median of ${runs} (output: fw ${ours} B, CLI ${same} B)`);
console.log('| Path | ms | vs CLI |');
console.log('|---|---:|---:|');
console.log(`| Tailwind CLI (process per compile) | ${cliMs.toFixed(1)} | 1.00x |`);
console.log(`| fw in-process, first compile in a fresh process (imports included) | ${median(firsts).toFixed(1)} | ${(cliMs / median(firsts)).toFixed(2)}x faster |`);
console.log(`| fw in-process, warm | ${fwMs.toFixed(1)} | ${(cliMs / fwMs).toFixed(2)}x faster |`);
rmSync(root, { recursive: true, force: true });
