/**
 * In-process comparisons of library calls (token verification, template rendering, lookups): both
 * sides run in this process, the same number of operations per run, interleaved round by round
 * after a warm-up. The CPU column is this process's user + system time per operation.
 */
import { interleave } from './interleave.ts';
import { row, type Row } from './report.ts';
import { median, pairedRatios, spread } from './stats.ts';

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
    const rate = (rs: Run[]): number[] => rs.map((r) => r.opsPerSecond);
    const cpu = (rs: Run[]): number[] => rs.map((r) => r.cpuPerOp);
    out.push(
      row({
        bench,
        name: c.name,
        unit: 'ops/s',
        fw: { label: c.fw.label, value: median(rate(runs.fw)) },
        baseline: { label: c.baseline.label, value: median(rate(runs.baseline)) },
        ratio: spread(pairedRatios(rate(runs.fw), rate(runs.baseline))),
        cpu: { fw: median(cpu(runs.fw)), baseline: median(cpu(runs.baseline)), ratio: spread(pairedRatios(cpu(runs.fw), cpu(runs.baseline))), per: 'op' },
        ...(c.target ? { target: c.target } : {}),
        ...(c.note ? { note: c.note } : {}),
        rounds: options.rounds,
      }),
    );
  }
  return out;
}
