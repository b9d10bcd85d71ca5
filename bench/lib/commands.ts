/**
 * Whole-process timings of commands, as hyperfine takes them: every run is a fresh process of
 * the real built binary, timed from spawn to exit, sides interleaved round by round. The CPU
 * column is the process tree's user + system time (this process's `cutime + cstime` before and
 * after the wait), so work a command hands to children counts too.
 */
import { spawnSync } from 'node:child_process';
import { interleave } from './interleave.ts';
import { childrenCpuMicros } from './procfs.ts';
import { pairedRow, type Row, type Sample } from './report.ts';

/** A command line to time. */
export interface Command {
  /** What it is, e.g. "node -e 0". */
  label: string;
  /** The executable and its arguments. */
  argv: readonly [string, ...string[]];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Untimed preparation before every run (a fresh folder, a config edit). */
  prepare?: (round: number) => void | Promise<void>;
}

/** One row: a command against a baseline command (or alone, with no ratio). */
export interface CommandComparison {
  name: string;
  fw: Command;
  baseline?: Command;
  target?: string;
  note?: string;
}

/** One timed run. */
export interface CommandRun {
  ms: number;
  cpuMicros: number;
}

/** Runs a command once (after its `prepare`), failing loudly on a non-zero exit. */
export async function timeCommand(c: Command, round: number): Promise<CommandRun> {
  await c.prepare?.(round);
  const cpu = childrenCpuMicros();
  const started = performance.now();
  const r = spawnSync(c.argv[0], c.argv.slice(1), { cwd: c.cwd, env: c.env ?? process.env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - started;
  if (r.status !== 0) {
    throw new Error(`${c.label} (${c.argv.join(' ')} in ${c.cwd}) exited ${r.status ?? r.signal}:\n${(r.stderr || r.stdout).slice(-2000)}`);
  }
  return { ms, cpuMicros: childrenCpuMicros() - cpu };
}

const key = (c: Command): string => `${c.label}\u0000${c.cwd}\u0000${c.argv.join('\u0000')}`;

/** Times every comparison; a command used by several rows runs once per round. */
export async function compareCommands(bench: string, comparisons: readonly CommandComparison[], options: { rounds: number; warmup?: number }): Promise<Row[]> {
  const commands = new Map<string, Command>();
  for (const c of comparisons) for (const cmd of [c.fw, c.baseline]) if (cmd) commands.set(key(cmd), cmd);
  for (let i = 0; i < (options.warmup ?? 1); i++) for (const cmd of commands.values()) await timeCommand(cmd, -1 - i); // disk cache, compile cache
  const runs = await interleave([...commands.keys()], options.rounds, (k, round) => timeCommand(commands.get(k)!, round));
  const sample = (r: CommandRun): Sample => ({ value: r.ms, cpu: r.cpuMicros });
  return comparisons.map((c) =>
    pairedRow({
      bench,
      name: c.name,
      unit: 'ms',
      per: 'run',
      fw: { label: c.fw.label, samples: runs[key(c.fw)]!.map(sample) },
      ...(c.baseline ? { baseline: { label: c.baseline.label, samples: runs[key(c.baseline)]!.map(sample) } } : {}),
      ...(c.target ? { target: c.target } : {}),
      ...(c.note ? { note: c.note } : {}),
    }),
  );
}
