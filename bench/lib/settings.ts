/**
 * The knobs every benchmark reads from the environment, and the repository's paths.
 *
 *   BENCH_QUICK=1        a smoke run: one short round of everything (checks that each benchmark works)
 *   BENCH_ROUNDS=n       interleaved rounds per comparison (default per benchmark, 1 when quick)
 *   BENCH_SECONDS=n      seconds of load per HTTP run (default 2, 1 when quick)
 *   BENCH_CONNECTIONS=n  keep-alive connections of the load generator (default 50)
 *   BENCH_PROCESSES=n    processes per side where a benchmark rotates over several (default 3, 1 when quick)
 *   BENCH_LOAD=wrk|autocannon  the load generator (default wrk when it is on PATH)
 *   BENCH_JSON=file      also append every row as one JSON line to this file (bench/run.ts sets it)
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** The repository root. */
export const REPO = join(import.meta.dirname, '..', '..');
/** The bench folder. */
export const BENCH_DIR = join(REPO, 'bench');
/** Scratch space inside the checkout (gitignored), so generated projects resolve the monorepo's packages. */
export const SCRATCH = join(REPO, '.tmp', 'bench');
/** The built `fw` command (@fw/cli). */
export const FW_BIN = join(REPO, 'generators', 'dist', 'bin', 'fw.js');
/** The built create-fw-app package's bin (the esbuild bundle that `npm create fw-app` runs). */
export const CREATE_FW_APP_BIN = join(REPO, 'generators', 'create-fw-app', 'dist', 'index.js');

/** True for a smoke run (`BENCH_QUICK=1`). */
export const QUICK = process.env.BENCH_QUICK === '1';

/** A positive integer from the environment, else `full` (or `quick` in a smoke run). */
export function knob(name: string, full: number, quick = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return QUICK ? quick : full;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name}: got ${JSON.stringify(raw)}; expected a positive integer`);
  return value;
}

/** Interleaved rounds of a comparison (`BENCH_ROUNDS`, else `full`). */
export const rounds = (full: number): number => knob('BENCH_ROUNDS', full);
/** Seconds of load per HTTP run. */
export const SECONDS = knob('BENCH_SECONDS', 2);
/** Processes per side in the benchmarks that rotate over several (`replicas` in http-compare.ts). */
export const PROCESSES = knob('BENCH_PROCESSES', 3);
/** Keep-alive connections of the load generator. */
export const CONNECTIONS = knob('BENCH_CONNECTIONS', 50, 50);

/** Creates (once) and answers the scratch folder, so a fresh clone needs no setup. */
export function scratch(): string {
  mkdirSync(SCRATCH, { recursive: true });
  return SCRATCH;
}
