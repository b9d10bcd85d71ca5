/**
 * Tailwind: the kernel compiling the app's raw stylesheet in process (`fluid.frontend.
 * generateTailwind`, what the `FW_TAILWIND` boot step and a reload run; warm) against the Tailwind
 * CLI (`@tailwindcss/cli`, a Node process per compile, what the reference spawns), over the same
 * stylesheet and the same 200 templates, interleaved.
 *
 *   npm run bench -- tailwind    # BENCH_ROUNDS=7
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Fluid } from '@fw/kernel';
import { timeCommand, type Command } from './lib/commands.ts';
import { interleave } from './lib/interleave.ts';
import { kernelProject } from './lib/project.ts';
import { pairedRow, report, type Sample } from './lib/report.ts';
import { rounds } from './lib/settings.ts';

const ROUNDS = rounds(7);
const colors = ['red', 'blue', 'green', 'amber', 'slate', 'violet', 'emerald', 'rose'];
const templates = Object.fromEntries(
  Array.from({ length: 200 }, (_, i) => {
    const c = colors[i % colors.length];
    return [`fluid/templates/t${i}.html`, `<div class="p-${i % 12} m-${i % 8} text-${c}-${((i % 9) + 1) * 100} bg-${c}-50 hover:bg-${c}-200 md:flex grid-cols-${(i % 12) + 1}">${i}</div>`];
  }),
);
const root = kernelProject({}, { ...templates, 'fluid/static/tailwind_raw.css': '@import "tailwindcss";\n' });
const surface = join(root, 'fluid');
const fluid = new Fluid({ root, env: {} });
const cli: Command = {
  label: 'Tailwind CLI (a process per compile)',
  argv: [process.execPath, join(createRequire(import.meta.url).resolve('@tailwindcss/cli/package.json'), '..', 'dist', 'index.mjs'), '-i', 'static/tailwind_raw.css', '-o', 'static/cli.css'],
  cwd: surface,
};

async function inProcess(): Promise<Sample> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await fluid.frontend.generateTailwind(false, true);
  const used = process.cpuUsage(cpu);
  return { value: performance.now() - started, cpu: used.user + used.system };
}
const toSample = async (): Promise<Sample> => {
  const r = await timeCommand(cli, 0);
  return { value: r.ms, cpu: r.cpuMicros };
};

await inProcess(); // the first compile loads @tailwindcss/node and oxide
await toSample();
const runs = await interleave(['fw', 'cli'] as const, ROUNDS, (k) => (k === 'fw' ? inProcess() : toSample()));
const ours = readFileSync(join(surface, 'static', 'tailwind.css'));
const theirs = readFileSync(join(surface, 'static', 'cli.css'));
await fluid.close();
report('Tailwind', `${ROUNDS} interleaved rounds; fw warm in this process, the CLI a fresh process each; CPU = each side's own (threads and children included)`, [
  pairedRow({
    bench: 'tailwind',
    name: 'compile 200 templates',
    unit: 'ms',
    per: 'compile',
    fw: { label: 'fw generateTailwind (in process, warm)', samples: runs.fw },
    baseline: { label: cli.label, samples: runs.cli },
    note: ours.equals(theirs) ? 'Both write identical CSS.' : `The outputs differ: fw ${ours.length} B, CLI ${theirs.length} B.`,
  }),
]);
