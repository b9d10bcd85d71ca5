/**
 * plop's engine (node-plop) holding fw's built-in generators and the project's own: fw registers
 * its generators with `plop.setGenerator` first, then runs the project's plopfile against the
 * same plop API, so both are plop generators, listed, asked and run the same way.
 */
import type { NodePlopAPI } from 'node-plop';
import type { MakeGeneratorConfig } from './api.js';
import type { Builtin, BuiltinEnv } from './builtin.js';
import { BUILTINS } from './builtins/index.js';
import { MakeError } from './errors.js';
import { findPlopfile, importPlopfile, plopfileError } from './plopfile.js';
import { questionsOf, type Question } from './questions.js';

/** A generator `fw make` can run. */
export interface MakeGenerator {
  name: string;
  description: string;
  /** `fw` for a built-in, else the plopfile that defines it (project-relative). */
  source: string;
  questions: Question[];
  actions: MakeGeneratorConfig['actions'];
  builtin?: Builtin;
}

/** The loaded generators and the plop API their actions run with. */
export interface MakeEngine {
  plop: NodePlopAPI;
  /** Built-ins first, then the project's, each in the order they were registered. */
  generators: MakeGenerator[];
  /** The project's plopfile (project-relative), when it has one. */
  plopfile?: string;
}

/** What plop keeps of a generator registered with `setGenerator`. */
interface Registered {
  description?: string;
  prompts?: unknown;
  actions?: unknown;
}

/**
 * Loads node-plop, registers the built-ins, then the project's plopfile (`generators/plopfile.ts`,
 * or `.mts`/`.js`/`.mjs`, loaded with tsx). A plopfile generator named like a built-in is an error
 * naming both: built-ins are never shadowed, so `fw make page` means the same in every project.
 */
export async function loadEngine(env: BuiltinEnv): Promise<MakeEngine> {
  const { default: nodePlop } = await import('node-plop');
  const plop = await nodePlop('', { destBasePath: env.root, force: false });
  const builtins = new Map<string, { builtin: Builtin; config: Required<Registered> }>();
  for (const builtin of BUILTINS) {
    const config = { description: builtin.description, prompts: builtin.prompts(env), actions: builtin.actions };
    // node-plop's types know plop's own action types only; fw runs these actions itself.
    plop.setGenerator(builtin.name, config as unknown as Parameters<NodePlopAPI['setGenerator']>[1]);
    builtins.set(builtin.name, { builtin, config });
  }
  const plopfile = await findPlopfile(env.root);
  if (plopfile !== undefined) {
    const fn = await importPlopfile(env.root, plopfile);
    plop.setPlopfilePath(`${env.root}/${plopfile}`);
    try {
      await fn(plop, { destBasePath: env.root, force: false });
    } catch (error) {
      throw plopfileError(error, plopfile, env.root, 'running the plopfile');
    }
  }
  const generators: MakeGenerator[] = [];
  for (const { name } of plop.getGeneratorList()) {
    const registered = plop.getGenerator(name) as unknown as Registered;
    const mine = builtins.get(name);
    if (mine && registered.prompts !== mine.config.prompts) {
      throw new MakeError(`${plopfile} defines the generator "${name}", and "${name}" is a built-in of fw make (${mine.builtin.description}): rename yours`);
    }
    generators.push({
      name,
      description: registered.description ?? '',
      source: mine ? 'fw' : (plopfile ?? 'fw'),
      questions: questionsOf(name, registered.prompts),
      actions: registered.actions as MakeGeneratorConfig['actions'],
      ...(mine ? { builtin: mine.builtin } : {}),
    });
  }
  return { plop, generators, ...(plopfile === undefined ? {} : { plopfile }) };
}
