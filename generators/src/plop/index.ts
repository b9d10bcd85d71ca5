import type { NodePlopAPI } from 'node-plop';
import { renderBlueprint } from '../engine/blueprint.js';
import type { FileTree } from '../engine/file-tree.js';
import { blueprintDir } from '../package-info.js';

/** Custom node-plop action type that renders a blueprint folder into a {@link FileTree}. */
export const BLUEPRINT_ACTION = 'fwBlueprint';

/** Config of a {@link BLUEPRINT_ACTION} action. */
export interface BlueprintActionConfig {
  type: typeof BLUEPRINT_ACTION;
  /** Blueprint kind: the folder under `blueprints/`. */
  blueprint: string;
  /** The tree the files go into (never the disk). */
  tree: FileTree;
  /** Project-relative destination folder (default: the root). */
  destination?: string;
}

function isBlueprintConfig(value: unknown): value is BlueprintActionConfig {
  if (typeof value !== 'object' || value === null) return false;
  const config = value as Record<string, unknown>;
  return typeof config.blueprint === 'string' && typeof config.tree === 'object' && config.tree !== null;
}

/**
 * Creates a node-plop instance with the {@link BLUEPRINT_ACTION} action type registered. node-plop
 * (and inquirer with it) is imported here, lazily: only commands that render blueprints pay for it.
 */
export async function createPlop(projectRoot: string): Promise<NodePlopAPI> {
  const { default: nodePlop } = await import('node-plop');
  const plop = await nodePlop('', { destBasePath: projectRoot, force: false });
  // `{{{json value}}}` writes a value as JSON (blueprints of JSON files).
  plop.setHelper('json', (value: unknown) => JSON.stringify(value));
  plop.setActionType(BLUEPRINT_ACTION, async (answers, config, api) => {
    if (!isBlueprintConfig(config)) throw new Error(`${BLUEPRINT_ACTION} action needs "blueprint" and "tree"`);
    const written = await renderBlueprint({
      source: blueprintDir(config.blueprint),
      data: answers as Record<string, unknown>,
      tree: config.tree,
      generator: `blueprint:${config.blueprint}`,
      render: (template, data) => api.renderString(template, data),
      ...(config.destination === undefined ? {} : { destination: config.destination }),
    });
    return `${written.length} files from blueprints/${config.blueprint}`;
  });
  return plop;
}

/**
 * Runs a node-plop generator's actions and turns any failure into one thrown error that names
 * the failing action and path (node-plop reports failures instead of throwing).
 */
export async function runGenerator(plop: NodePlopAPI, name: string, answers: Record<string, unknown>): Promise<void> {
  const { failures } = await plop.getGenerator(name).runActions(answers);
  const first = failures[0];
  if (first) throw new Error(`generator "${name}" failed in ${first.type}${first.path ? ` (${first.path})` : ''}: ${first.error || first.message}`);
}
