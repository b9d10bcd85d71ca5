import type { PipelineResult } from '../pipeline/run.js';
import { loadDiff } from '../pipeline/diff.js';
import { hasConflicts, planDiff, summarise, toJSON, type PlanJson } from '../pipeline/print.js';
import { afterDependencyChanges, dependencyChanges, runInstall, type DependencyChanges } from './install.js';
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
  /**
   * `--install` (true) / `--no-install` (false): when the run changed `package.json`'s
   * dependencies, run the install command, or not; unset: offer it on a terminal, else print it.
   */
  install?: boolean | undefined;
  /** Whether to report dependency changes at all (default true; `create project` writes a whole new package.json). */
  dependencies?: boolean;
  /** The command to run again once conflicts are resolved (default `fw generate`). */
  again?: string;
}

/** The `--json` document of a run: the plan, the exit status, and the command's own fields. */
export interface RunJson extends PlanJson {
  dryRun: boolean;
  leftovers: string[];
  /** What changed in package.json's dependencies, and the command that installs them (absent: nothing). */
  dependencies?: DependencyChanges & { installed: boolean };
}

/**
 * Prints a run the way every pipeline command does: with `--dry-run` the unified diffs, then the
 * summary (one line per change, the counts, the conflicts to resolve), the command's lines, the temp
 * files of an interrupted run that were removed, and `Dry run: nothing was written.` or the command's
 * last line. When `package.json`'s dependencies changed it lists them and runs, offers or prints
 * the install command (see `afterDependencyChanges`). With `--json` the same as one JSON document.
 * Returns the exit status: 1 when a file holds conflicts or the command failed, else 0.
 */
export async function report(io: CommandIO, result: PipelineResult<unknown>, options: ReportOptions): Promise<number> {
  const { plan, applied } = result;
  if (options.dryRun) await loadDiff();
  const exitCode = hasConflicts(plan) || options.failed ? 1 : 0;
  const leftovers = applied?.leftovers ?? [];
  const changes = options.dependencies === false ? undefined : dependencyChanges(plan, io.env);
  if (options.json) {
    // The install's own output goes to stderr: stdout is the JSON document.
    const installed = changes !== undefined && !options.dryRun && !changes.conflicted && options.install === true;
    if (installed) await runInstall(plan.root, changes.command, { ...io, stdout: io.stderr });
    const doc: RunJson = {
      ...toJSON(plan, { diffs: options.dryRun }),
      exitCode,
      dryRun: options.dryRun,
      leftovers,
      ...(changes ? { dependencies: { ...changes, installed } } : {}),
      ...options.extra,
    };
    io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    return exitCode;
  }
  let out = options.dryRun && options.diffs !== false ? planDiff(plan) : '';
  out += summarise(plan, options.again, options.dryRun) + (options.lines ?? '');
  if (leftovers.length > 0) out += `Removed ${leftovers.length} temp file(s) of an interrupted run: ${leftovers.join(', ')}\n`;
  io.stdout.write(out);
  out = '';
  if (changes) out += await afterDependencyChanges(io, changes, { dryRun: options.dryRun, install: options.install, root: plan.root });
  if (options.dryRun) out += 'Dry run: nothing was written.\n';
  else if (options.done) out += options.done.endsWith('\n') ? options.done : `${options.done}\n`;
  io.stdout.write(out);
  return exitCode;
}
