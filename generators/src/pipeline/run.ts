import { apply, type ApplyResult } from './apply.js';
import { withProjectLock } from './lock.js';
import type { Plan } from './plan.js';
import { Tree, type TreeOptions } from './tree.js';

/** Options of {@link runPipeline}. */
export interface PipelineOptions<T> {
  /** Absolute project root. */
  root: string;
  /** The command, as the lock names its holder (`fw generate`). */
  command: string;
  /** Plan only: nothing is written (not the cache, not `.fw/`), and no lock is taken. */
  dryRun: boolean;
  /** Hold the project lock around render, plan and apply (default true; `create project` writes a new folder). */
  lock?: boolean;
  /** How the tree plans (formatter, cache, the generators the run answers for, ...). */
  tree: TreeOptions;
  /** Gathers the command's inputs into the tree: renders, `fw.json` edits, codemods. */
  render: (tree: Tree) => Promise<T>;
  /** Looks at the plan before anything is written; throw to stop with nothing written. */
  check?: (plan: Plan, rendered: T) => void;
}

/** What a {@link runPipeline} run did. */
export interface PipelineResult<T> {
  plan: Plan;
  /** What `render` returned. */
  rendered: T;
  /** Undefined for a dry run. */
  applied?: ApplyResult;
}

/**
 * Every fw command that writes files runs through here: render into one {@link Tree}, plan it
 * (the three-way planner), then stop (a dry run) or apply (atomic writes, then the record and the
 * cache), under the project lock.
 */
export async function runPipeline<T>(options: PipelineOptions<T>): Promise<PipelineResult<T>> {
  const work = async (): Promise<PipelineResult<T>> => {
    const tree = new Tree(options.root, options.tree);
    const rendered = await options.render(tree);
    const plan = await tree.plan();
    options.check?.(plan, rendered);
    if (options.dryRun) return { plan, rendered };
    return { plan, rendered, applied: await apply(plan) };
  };
  return options.dryRun || options.lock === false ? work() : withProjectLock(options.root, options.command, work);
}
