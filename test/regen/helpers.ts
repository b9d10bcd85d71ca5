/**
 * Test helpers: the regeneration scenarios of this folder, written against the pipeline. A
 * "render" is a map of paths to bytes (never formatted), planned as one generator's output.
 */
import { apply, Tree, type Plan } from '../../generators/src/pipeline/index.js';

/** A rendered file with more than its bytes. */
export interface RenderedFile {
  content: Buffer;
  mode?: number;
  generator?: string;
}

/** Options of {@link planRendered}. */
export interface PlanRenderedOptions {
  projectRoot: string;
  rendered: ReadonlyMap<string, Buffer | RenderedFile>;
  /** The generator of the render; by default the run answers for its record entries only. */
  generatorId: string;
  /** Which other generators' record entries the run answers for. */
  owns?: (generator: string) => boolean;
}

/** Renders `rendered` into a tree and plans it (a dry run: nothing is written). */
export async function planRendered(options: PlanRenderedOptions): Promise<Plan> {
  const owns = options.owns ?? (() => false);
  const tree = new Tree(options.projectRoot, { owns: (g) => g === options.generatorId || owns(g), generatorId: options.generatorId });
  for (const [file, value] of options.rendered) {
    const f = Buffer.isBuffer(value) ? { content: value } : value;
    tree.render(file, f.content, { generator: f.generator ?? options.generatorId, format: false, ...(f.mode === undefined ? {} : { mode: f.mode }) });
  }
  return tree.plan();
}

/** Applies a plan to disk (atomic writes, then the record) with a fixed generator version. */
export async function applyToDisk(plan: Plan): Promise<void> {
  await apply(plan, { generatorVersion: 'test' });
}

/**
 * The plan of destroying one generator's files (what `fw destroy additive` plans): its record
 * entries with nothing rendered, edited files listed in `refused` unless `force` removes them.
 */
export async function planDestroy(options: { projectRoot: string; generatorId: string; force?: boolean }): Promise<Plan & { refused: string[] }> {
  const tree = new Tree(options.projectRoot, { owns: (g) => g === options.generatorId, removeEdited: options.force === true, generatorId: options.generatorId });
  const plan = await tree.plan();
  return { ...plan, refused: plan.items.filter((i) => i.action === 'keep-edited').map((i) => i.path) };
}
