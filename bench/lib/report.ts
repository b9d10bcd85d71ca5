/**
 * A benchmark's result rows and the one table they print as: fw, its baseline, the ratio's
 * median (min–max) over the paired rounds, the CPU each side used per operation and their ratio,
 * the target from issue 19 when there is one, and the load average while the row was measured.
 * With `BENCH_JSON=<file>` the rows are also appended there as JSON lines (bench/run.ts collects
 * them into the summary).
 */
import { appendFileSync } from 'node:fs';
import { loadAverage } from './procfs.ts';
import { median, pairedRatios, spread, type Spread } from './stats.ts';

/** One measured quantity of one side. */
export interface Measure {
  /** What was run (e.g. "bare Koa + @koa/router"). */
  label: string;
  /** The median over the rounds. */
  value: number;
}

/** One result row. */
export interface Row {
  /** The benchmark (file name in bench/). */
  bench: string;
  /** What the row compares. */
  name: string;
  /** Unit of the values: "req/s", "ms", "ops/s", "MB" … */
  unit: string;
  fw: Measure;
  baseline?: Measure;
  /** fw ÷ baseline per round (a single value when there is one round). */
  ratio?: Spread;
  /** CPU per operation in µs (the server's per request for HTTP rows, the whole process's for commands), medians. */
  cpu?: { fw: number; baseline?: number; ratio?: Spread; per: string };
  /** The goal from issue 19, for the reader; nothing checks it. */
  target?: string;
  /** Anything a reader must know to trust the row (a non-default setting, a caveat). */
  note?: string;
  /** Rounds measured. */
  rounds: number;
  /** /proc/loadavg (1, 5, 15 min) when the row finished. */
  load: string;
}

/** A row as measured, before the load average is stamped on it. */
export type RowInput = Omit<Row, 'load'>;

/** Stamps the current load average on a row. */
export function row(input: RowInput): Row {
  return { ...input, load: loadAverage() };
}

/** One run of one side: the row's quantity and the CPU it took (µs per operation). */
export interface Sample {
  value: number;
  cpu?: number;
}

/** A row from paired runs of fw and a baseline (same count, same rounds). */
export interface PairedInput {
  bench: string;
  name: string;
  unit: string;
  /** What one CPU figure is per: "request", "run", "op"… */
  per: string;
  fw: { label: string; samples: readonly Sample[] };
  baseline?: { label: string; samples: readonly Sample[] };
  target?: string;
  note?: string;
}

/** Medians, paired ratios and the load average, as a row. */
export function pairedRow(input: PairedInput): Row {
  const values = (ss: readonly Sample[]): number[] => ss.map((s) => s.value);
  const cpus = (ss: readonly Sample[]): number[] | undefined => (ss.every((s) => s.cpu !== undefined) ? ss.map((s) => s.cpu!) : undefined);
  const fwCpu = cpus(input.fw.samples);
  const base = input.baseline;
  const baseCpu = base && cpus(base.samples);
  return row({
    bench: input.bench,
    name: input.name,
    unit: input.unit,
    fw: { label: input.fw.label, value: median(values(input.fw.samples)) },
    ...(base ? { baseline: { label: base.label, value: median(values(base.samples)) }, ratio: spread(pairedRatios(values(input.fw.samples), values(base.samples))) } : {}),
    ...(fwCpu
      ? {
          cpu: {
            fw: median(fwCpu),
            per: input.per,
            ...(baseCpu ? { baseline: median(baseCpu), ratio: spread(pairedRatios(fwCpu, baseCpu)) } : {}),
          },
        }
      : {}),
    ...(input.target ? { target: input.target } : {}),
    ...(input.note ? { note: input.note } : {}),
    rounds: input.fw.samples.length,
  });
}

const number = (n: number): string => {
  const abs = Math.abs(n);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
};

/** A CPU time given in µs: "12.3 µs", or "1,234 ms" from 10 ms up. */
export function micros(us: number): string {
  return us >= 10_000 ? `${number(us / 1000)} ms` : `${number(us)} µs`;
}

/** "0.89× (0.78–1.02)" */
export function formatSpread(s: Spread | undefined): string {
  if (!s) return '–';
  return s.min === s.max ? `${s.median.toFixed(2)}×` : `${s.median.toFixed(2)}× (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
}

/** The table's cells of one row. */
export function cells(r: Row, withBench = false): string[] {
  const value = (m: Measure | undefined): string => (m ? `${number(m.value)} ${r.unit}` : '–');
  const cpu = r.cpu
    ? `${micros(r.cpu.fw)} / ${r.cpu.baseline === undefined ? '–' : micros(r.cpu.baseline)} per ${r.cpu.per}${r.cpu.ratio ? `: ${formatSpread(r.cpu.ratio)}` : ''}`
    : '–';
  const out = [
    r.name,
    `${r.fw.label}: ${value(r.fw)}`,
    r.baseline ? `${r.baseline.label}: ${value(r.baseline)}` : '–',
    formatSpread(r.ratio),
    cpu,
    r.target ?? '',
    r.load,
  ];
  return withBench ? [r.bench, ...out] : out;
}

/** The header matching {@link cells}. */
export function header(withBench = false): string[] {
  const h = ['row', 'fw', 'baseline', 'ratio fw/baseline, median (min–max)', 'CPU fw / baseline, ratio', 'target', 'load avg'];
  return withBench ? ['bench', ...h] : h;
}

/** A Markdown table. */
export function markdown(head: string[], body: string[][]): string {
  const esc = (c: string): string => c.replaceAll('|', '\\|');
  return [head, head.map(() => '---'), ...body].map((line) => `| ${line.map(esc).join(' | ')} |`).join('\n');
}

/**
 * Prints a benchmark's table (with its settings line and the rows' notes) and appends the rows
 * to `BENCH_JSON` when set.
 */
export function report(title: string, settings: string, rows: readonly Row[]): void {
  const notes = rows.filter((r) => r.note).map((r) => `- ${r.name}: ${r.note}`);
  const text = [`\n${title}`, settings, `load average now: ${loadAverage()}`, '', markdown(header(), rows.map((r) => cells(r))), ...(notes.length ? ['', ...notes] : [])];
  process.stdout.write(`${text.join('\n')}\n`);
  const file = process.env.BENCH_JSON;
  if (file) for (const r of rows) appendFileSync(file, `${JSON.stringify(r)}\n`);
}
