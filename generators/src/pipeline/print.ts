import { PLAN_ACTIONS, SIDECAR_SUFFIX, type PlanAction } from './classify.js';
import { unifiedDiff } from './diff.js';
import type { Plan, PlanItem } from './plan.js';

/** True when the run must exit non-zero: a conflict was written, or a file still holds unresolved markers. */
export function hasConflicts(plan: Plan): boolean {
  return plan.items.some((i) => i.conflicts > 0 || i.unresolved);
}

/** Number of items per action (every action present, zeros included). */
export function countActions(plan: Plan): Record<PlanAction, number> {
  const counts = Object.fromEntries(PLAN_ACTIONS.map((a) => [a, 0])) as Record<PlanAction, number>;
  for (const item of plan.items) counts[item.action]++;
  return counts;
}

/** Whether applying the item writes or removes anything. */
export function itemChangesDisk(item: PlanItem): boolean {
  return item.write !== undefined || item.sidecar !== undefined || item.remove;
}

/** Whether applying the plan writes or removes anything. */
export function planChangesDisk(plan: Plan): boolean {
  return plan.items.some(itemChangesDisk);
}

/**
 * The unified diff of what applying the item would do: the path's change, then the sidecar's
 * creation when there is one. '' when the item writes nothing. A secret's bytes are never shown.
 */
export function itemDiff(item: PlanItem): string {
  if (item.secret && itemChangesDisk(item)) return `--- ${item.disk ? `a/${item.path}` : '/dev/null'}\n+++ b/${item.path}\n(holds a secret: contents not shown)\n`;
  const main = item.remove ? unifiedDiff(item.path, item.disk, undefined) : item.write ? unifiedDiff(item.path, item.disk, item.write) : '';
  const side = item.sidecar ? unifiedDiff(item.path + SIDECAR_SUFFIX, undefined, item.sidecar) : '';
  return main + side;
}

/** Every change of the plan as one unified diff (what `--dry-run` shows). */
export function planDiff(plan: Plan): string {
  return plan.items.map(itemDiff).join('');
}

const WIDTH = Math.max(...PLAN_ACTIONS.map((a) => a.length));

function unresolvedReason(item: PlanItem): string {
  return item.sidecarLeft ? `${item.path}${SIDECAR_SUFFIX} from an earlier run is still there` : 'still holds conflict markers from an earlier run';
}

/** One line of a summary: `  <label>  <path>  (<note>)`, labels aligned with the actions'. */
export function summaryLine(label: string, file: string, note: string): string {
  return `  ${label.padEnd(WIDTH)}  ${file}  (${note})`;
}

/** Why a folder of `plan.prune` is removed, in the summary. */
const EMPTIED_REASON = "emptied by fw's deletions";

/**
 * Human summary of a plan: one line per path that is not `unchanged`, then one per folder the run
 * removes (`delete  additives/blog/static/`, see `emptiedFolders`), the counts per action, and
 * the files with conflicts and how to resolve them, then the command to run `again` (for a
 * `dryRun`, the conflicts are those the real run would write).
 */
export function summarise(plan: Plan, again = 'fw generate', dryRun = false): string {
  const lines: string[] = [];
  for (const item of plan.items) {
    if (item.action === 'unchanged' && !item.unresolved) continue;
    // A dry run writes no marker: its conflicts are the ones the real run would mark.
    const reason = dryRun && item.conflicts > 0 ? item.reason.replace(/ marked in the file$/, ' the real run would mark in the file') : item.reason;
    lines.push(summaryLine(item.action, item.path, item.unresolved ? unresolvedReason(item) : reason));
  }
  for (const folder of plan.prune) lines.push(summaryLine('delete', `${folder}/`, EMPTIED_REASON));
  const counts = countActions(plan);
  const parts = PLAN_ACTIONS.filter((a) => counts[a] > 0).map((a) => `${counts[a]} ${a}`);
  lines.push(`${plan.items.length} file${plan.items.length === 1 ? '' : 's'}: ${parts.join(', ') || 'nothing to do'}`);
  const conflicted = plan.items.filter((i) => i.conflicts > 0 || i.unresolved);
  if (conflicted.length > 0) {
    const regions = conflicted.reduce((n, i) => n + i.conflicts, 0);
    // Left from an earlier run only (markers, a .fw-new): no new conflict to count.
    const counted = regions > 0 ? ` (${regions} conflict${regions === 1 ? '' : 's'})` : '';
    lines.push(`${conflicted.length} file${conflicted.length === 1 ? '' : 's'} need${conflicted.length === 1 ? 's' : ''} your attention${counted}:`);
    for (const item of conflicted) {
      const how = item.sidecar || item.sidecarLeft || item.action === 'conflict-untracked'
        ? `compare with ${item.path}${SIDECAR_SUFFIX}, keep what you want, delete the .fw-new file`
        : 'edit the regions between <<<<<<< and >>>>>>>, remove the markers';
      lines.push(`  ${item.path}: ${how}`);
    }
    lines.push(dryRun ? `Run \`${again}\` to write them, resolve them, then run it again.` : `Then run \`${again}\` again.`);
  }
  return `${lines.join('\n')}\n`;
}

/** One path in the `--json` output. */
export interface PlanJsonItem {
  path: string;
  action: PlanAction;
  reason: string;
  conflicts: number;
  unresolved: boolean;
  /** The sibling written with the new render, if any. */
  sidecar?: string;
  /** Unified diff of the change (only with `diffs: true`). */
  diff?: string;
}

/** The `--json` shape of a plan. */
export interface PlanJson {
  version: 1;
  root: string;
  generator: string;
  /** Exit status the command should use: 1 when {@link hasConflicts}, else 0. */
  exitCode: 0 | 1;
  counts: Record<PlanAction, number>;
  conflicts: { files: string[]; regions: number };
  files: PlanJsonItem[];
  /** The folders the run removes after the files, because its deletions leave them empty (sorted, no trailing `/`). */
  emptiedFolders: string[];
}

/** The machine-readable form of a plan (`--json`); `diffs: true` adds each item's unified diff. */
export function toJSON(plan: Plan, options: { diffs?: boolean } = {}): PlanJson {
  const conflicted = plan.items.filter((i) => i.conflicts > 0 || i.unresolved);
  return {
    version: 1,
    root: plan.root,
    generator: plan.generatorId,
    exitCode: conflicted.length > 0 ? 1 : 0,
    counts: countActions(plan),
    conflicts: { files: conflicted.map((i) => i.path), regions: conflicted.reduce((n, i) => n + i.conflicts, 0) },
    files: plan.items.map((i) => ({
      path: i.path,
      action: i.action,
      reason: i.reason,
      conflicts: i.conflicts,
      unresolved: i.unresolved,
      ...(i.sidecar ? { sidecar: i.path + SIDECAR_SUFFIX } : {}),
      ...(options.diffs ? { diff: itemDiff(i) } : {}),
    })),
    emptiedFolders: [...plan.prune],
  };
}
