import { writeSync } from 'node:fs';

/**
 * A test seam for kill trials: with `FW_TEST_PAUSE_AT=<point>` in the environment, the process
 * stops itself with SIGSTOP (after announcing `fw: paused at <point>` on stderr) the first time it
 * reaches that moment of the apply step, so a test can SIGKILL it exactly there instead of racing a
 * timer, or look at the project while the run is still going and SIGCONT it to let it finish.
 * Points, each right after a temp file was written and synced and before it is renamed into place:
 * `file-write` (a project file), `store-write` (a `.fw/store` copy), `record-write`
 * (`.fw/record.json`); and `folder-prune`: the files are deleted and the record written, the
 * folders the deletions emptied not removed yet (reached only by a run that has some). Unset, it
 * costs one comparison.
 */
const PAUSE_AT = process.env.FW_TEST_PAUSE_AT;
let paused = false;

/** Stops the process when `FW_TEST_PAUSE_AT` names `point`, once (see the module comment). */
export function pausePoint(point: string | undefined): void {
  if (PAUSE_AT === undefined || PAUSE_AT !== point || paused) return;
  paused = true;
  writeSync(2, `fw: paused at ${point}\n`);
  // The signal is delivered before kill() returns: nothing after this line runs until SIGCONT.
  process.kill(process.pid, 'SIGSTOP');
}
