import { planRegeneration, type RegenPlan } from './regenerate.js';

/** Input of {@link planDestroy}. */
export interface PlanDestroyOptions {
  projectRoot: string;
  /** Generator whose recorded files are removed, e.g. the additive's generator id. */
  generatorId: string;
  /** Also remove files the user edited (`--force`). */
  force?: boolean;
}

/** A destroy plan: the regeneration plan of an empty render, plus what was refused. */
export interface DestroyPlan extends RegenPlan {
  /** Edited files that block the destroy without `force` (empty with `force`). */
  refused: string[];
}

/**
 * Plans `fw destroy <kind> <name>`: every file recorded for `generatorId` is treated as no longer
 * generated. Unedited files are deleted; edited files (`keep-edited`) are refused, unless `force`
 * turns them into deletions. Files the user already deleted are forgotten. The command should
 * apply nothing when `refused` is not empty, list the files and exit 1.
 */
export async function planDestroy(options: PlanDestroyOptions): Promise<DestroyPlan> {
  const plan = await planRegeneration({ projectRoot: options.projectRoot, rendered: new Map(), generatorId: options.generatorId });
  const refused: string[] = [];
  for (const item of plan.items) {
    if (item.action !== 'keep-edited') continue;
    if (options.force) {
      item.action = 'delete';
      item.remove = true;
      item.reason = 'edited by you, removed because of --force';
    } else {
      refused.push(item.path);
    }
  }
  return { ...plan, refused };
}
