import { writeSync } from 'node:fs';

/**
 * A test seam for kill trials: with `FW_TEST_PAUSE_AT=<point>` in the environment, the process
 * freezes at that moment of the apply step (after announcing `fw: paused at <point>` on stderr)
 * until it is killed, so a test can SIGKILL it exactly there instead of racing a timer. Points,
 * each right after a temp file was written and synced and before it is renamed into place:
 * `file-write` (a project file), `store-write` (a `.fw/store` copy), `record-write`
 * (`.fw/record.json`). Unset, it costs one comparison.
 */
const PAUSE_AT = process.env.FW_TEST_PAUSE_AT;

/** Freezes the process when `FW_TEST_PAUSE_AT` names `point` (see the module comment). */
export function pausePoint(point: string | undefined): void {
  if (PAUSE_AT === undefined || PAUSE_AT !== point) return;
  writeSync(2, `fw: paused at ${point}\n`);
  // Blocks this thread for good: nothing after this point runs, as if the kill landed here.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}
