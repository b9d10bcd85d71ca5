import { additiveGeneratorId } from '../project/generators.js';
import { loadBlueprint, renderBlueprint } from '../render/blueprint.js';
import type { Tree } from '../pipeline/tree.js';
import { additiveVariable } from './names.js';

/** The folder of the Additive `name`, relative to the project root. */
export function additiveDir(name: string): string {
  return `additives/${name}`;
}

/**
 * Renders the files of one Additive (`blueprints/additive` → `additives/<name>/`) into `tree`,
 * recorded with the generator id `additive:<name>`. Returns the paths rendered.
 */
export async function renderAdditive(tree: Tree, name: string, projectName: string): Promise<string[]> {
  const blueprint = await loadBlueprint('additive');
  return renderBlueprint(blueprint, { name, id: additiveVariable(name), project: projectName }, tree, additiveGeneratorId(name), additiveDir(name));
}
