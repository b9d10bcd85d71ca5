/**
 * CPU pinning for HTTP benchmarks: on a machine with two or more cores and `taskset` (util-linux),
 * the servers under test run on one core and the load generator on another, so neither is
 * scheduled onto the other's core mid-run. On this project's 2-core machine that cut the spread
 * of CPU per request between rounds from about ±30% to about ±5%; both sides of every comparison
 * are pinned alike, so ratios stay fair. `BENCH_PIN=0` turns it off; a server that needs every
 * core (`--workers N`) opts out with `pin: false`.
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** The core the load generator runs on, and the one servers run on. */
const LOAD_CORE = '0';
const SERVER_CORE = '1';

/** Whether pinning is on for this run (see the module comment). */
export const PIN = process.env.BENCH_PIN !== '0' && availableParallelism() >= 2 && spawnSync('taskset', ['-V']).error === undefined;

/** `[command, args]` running on the servers' core (`role: 'server'`) or the load generator's, when pinning is on. */
export function pinned(command: string, args: readonly string[], role: 'server' | 'load'): [string, string[]] {
  if (!PIN) return [command, [...args]];
  return ['taskset', ['-c', role === 'server' ? SERVER_CORE : LOAD_CORE, command, ...args]];
}

/** One line for report headers. */
export function pinningNote(): string {
  return PIN ? `servers pinned to CPU ${SERVER_CORE}, the load generator to CPU ${LOAD_CORE} (taskset; BENCH_PIN=0 turns it off)` : 'no CPU pinning';
}
