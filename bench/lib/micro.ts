/**
 * In-process comparisons of library calls (token verification, template rendering, lookups): both
 * sides run in this process, the same number of operations per run, interleaved round by round
 * after a warm-up. The CPU column is this process's user + system time per operation.
 */
import { interleave } from './interleave.ts';
import { pairedRow, type Row, type Sample } from './report.ts';

/** One side: an operation and what it is. */
export interface Operation {
  label: string;
  run: () => unknown;
}

/** One row: fw's operation against a baseline operation. */
export interface MicroComparison {
  name: string;
  fw: Operation;
  baseline: Operation;
  /** Operations per timed run. */
  ops: number;
  target?: string;
  note?: string;
}

interface Run {
  opsPerSecond: number;
  cpuPerOp: number;
}

async function time(op: Operation, count: number): Promise<Run> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const out = op.run();
    if (out instanceof Promise) await out;
  }
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { opsPerSecond: count / (ms / 1000), cpuPerOp: (used.user + used.system) / count };
}

/** Measures every comparison in interleaved rounds. */
export async function compareOps(bench: string, comparisons: readonly MicroComparison[], options: { rounds: number }): Promise<Row[]> {
  const out: Row[] = [];
  for (const c of comparisons) {
    const sides = { fw: c.fw, baseline: c.baseline };
    for (const op of Object.values(sides)) await time(op, Math.ceil(c.ops / 5)); // warm-up
    const runs = await interleave(['fw', 'baseline'] as const, options.rounds, (side) => time(sides[side], c.ops));
    const sample = (r: Run): Sample => ({ value: r.opsPerSecond, cpu: r.cpuPerOp });
    out.push(
      pairedRow({
        bench,
        name: c.name,
        unit: 'ops/s',
        per: 'op',
        fw: { label: c.fw.label, samples: runs.fw.map(sample) },
        baseline: { label: c.baseline.label, samples: runs.baseline.map(sample) },
        ...(c.target ? { target: c.target } : {}),
        ...(c.note ? { note: c.note } : {}),
      }),
    );
  }
  return out;
}
