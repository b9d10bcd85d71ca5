import type { Plan, PlanAction } from './plan.js';

const LABEL_WIDTH = 'unchanged'.length;

/** Human-readable listing of a plan: one `<action> <path>` line per entry, then a count per action. */
export function formatPlan(plan: Plan, { header = true }: { header?: boolean } = {}): string {
  const counts: Record<PlanAction, number> = { create: 0, update: 0, delete: 0, unchanged: 0 };
  const lines: string[] = header ? [`Plan for ${plan.root}:`] : [];
  for (const entry of plan.entries) {
    counts[entry.action] += 1;
    lines.push(`  ${entry.action.padEnd(LABEL_WIDTH)}  ${entry.path}`);
  }
  lines.push(`${counts.create} to create, ${counts.update} to update, ${counts.delete} to delete, ${counts.unchanged} unchanged.`);
  return `${lines.join('\n')}\n`;
}
