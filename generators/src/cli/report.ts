import type { PipelineResult } from '../pipeline/run.js';
import { loadDiff } from '../pipeline/diff.js';
import { hasConflicts, planDiff, summarise, toJSON, type PlanJson } from '../pipeline/print.js';
import type { CommandIO } from './io.js';

/** How a command reports its pipeline run (see {@link report}). */
export interface ReportOptions {
  dryRun: boolean;
  /** Print the `--json` document instead of text. */
  json?: boolean;
  /** With `dryRun`, print every change as a unified diff before the summary (default true). */
  diffs?: boolean;
  /** Lines the command adds after the summary (registrations, notes). */
  lines?: string;
  /** Fields the command adds to the `--json` document. */
  extra?: Record<string, unknown>;
  /** The command's own failure (a registration it could not make): exit status 1. */
  failed?: boolean;
  /** The last line of a real run (`Created additive "blog" ...`). */
  done?: string;
  /** The command to run again once conflicts are resolved (default `fw generate`). */
  again?: string;
}

/** The `--json` document of a run: the plan, the exit status, and the command's own fields. */
export interface RunJson extends PlanJson {
  dryRun: boolean;
  leftovers: string[];
}

/**
 * Prints a run the way every pipeline command does: with `--dry-run` the unified diffs, then the
 * summary (one line per change, the counts, the conflicts to resolve), the command's lines, the temp
 * files of an interrupted run that were removed, and `Dry run: nothing was written.` or the command's
 * last line. With `--json` the same as one JSON document. Returns the exit status: 1 when a file
 * holds conflicts or the command failed, else 0.
 */
export async function report(io: CommandIO, result: PipelineResult<unknown>, options: ReportOptions): Promise<number> {
  const { plan, applied } = result;
  if (options.dryRun) await loadDiff();
  const exitCode = hasConflicts(plan) || options.failed ? 1 : 0;
  const leftovers = applied?.leftovers ?? [];
  if (options.json) {
    const doc: RunJson = { ...toJSON(plan, { diffs: options.dryRun }), exitCode, dryRun: options.dryRun, leftovers, ...options.extra };
    io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    return exitCode;
  }
  let out = options.dryRun && options.diffs !== false ? planDiff(plan) : '';
  out += summarise(plan, options.again) + (options.lines ?? '');
  if (leftovers.length > 0) out += `Removed ${leftovers.length} temp file(s) of an interrupted run: ${leftovers.join(', ')}\n`;
  if (options.dryRun) out += 'Dry run: nothing was written.\n';
  else if (options.done) out += options.done.endsWith('\n') ? options.done : `${options.done}\n`;
  io.stdout.write(out);
  return exitCode;
}
