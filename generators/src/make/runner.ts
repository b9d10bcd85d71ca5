/**
 * Runs a generator's actions with plop's semantics (strings are comments, functions are actions,
 * `skip`, `data`, `force`, `abortOnFail`, the plopfile's own action types), but every file goes
 * into the run's tree: nothing is written until the pipeline applies the plan.
 */
import type { NodePlopAPI } from 'node-plop';
import { CliError } from '../cli/errors.js';
import { didYouMean } from '../ocean/suggest.js';
import type { Answers, MakeAction, MakeApi } from './api.js';
import { fwAdd, fwDependency, fwRegister, fwRoute } from './actions/fw.js';
import { add, addMany, append, modify } from './actions/plop.js';
import type { ActionConfig, PlopRenderer } from './actions/config.js';
import { makeApi, type MakeRun } from './context.js';
import type { MakeGenerator } from './engine.js';
import { MakeError } from './errors.js';
import { plopfileError } from './plopfile.js';

type ActionImpl = (run: MakeRun, answers: Answers, config: ActionConfig, plop: PlopRenderer) => Promise<string>;

/** The action types fw runs itself: plop's built-ins (through the tree) and fw's own. */
const ACTIONS: Readonly<Record<string, ActionImpl>> = {
  add,
  addMany,
  modify,
  append,
  'fw:add': fwAdd,
  'fw:route': fwRoute,
  'fw:register': fwRegister,
  'fw:dependency': fwDependency,
};

type Custom = (answers: Answers, config: ActionConfig, plop: NodePlopAPI & { readonly fw: MakeApi }) => unknown;

/** The generator's action list: its `actions`, or what its `actions(answers, fw)` returns. */
async function actionsOf(generator: MakeGenerator, answers: Answers, fw: MakeApi): Promise<MakeAction[]> {
  const list = typeof generator.actions === 'function' ? await generator.actions(answers, fw) : generator.actions;
  if (!Array.isArray(list)) throw new MakeError(`generator "${generator.name}": its actions must be a list (or a function returning one)`);
  return list;
}

/**
 * Runs `generator` with `answers` into `run.tree`. Comments, skipped actions and what custom
 * actions report go to `run.lines`. A failing action stops the run (nothing is written) unless it
 * says `abortOnFail: false`: then it is reported, the run goes on and exits 1. An error from the
 * project's own code names the plopfile's file and line.
 */
export async function runActions(run: MakeRun, generator: MakeGenerator, answers: Answers, plop: NodePlopAPI): Promise<void> {
  const fw = makeApi(run);
  const user = (error: unknown): CliError =>
    generator.source === 'fw' || error instanceof CliError ? toCli(error) : plopfileError(error, generator.source, run.root);
  let list: MakeAction[];
  try {
    list = await actionsOf(generator, answers, fw);
  } catch (error) {
    throw generator.source === 'fw' ? toCli(error) : new MakeError(`fw make ${generator.name}: its actions: ${user(error).message}`);
  }
  const api = Object.assign(Object.create(plop) as NodePlopAPI, { fw });
  for (const [i, action] of list.entries()) {
    if (typeof action === 'string') {
      run.lines.push(action);
      continue;
    }
    const isFunction = typeof action === 'function';
    const config = (isFunction ? { type: 'function' } : { ...(action as object) }) as ActionConfig;
    const label = `action ${i + 1} (${config.type})`;
    try {
      const data = typeof config.data === 'function' ? ((await (config.data as () => unknown)()) as object) : config.data;
      const scope: Answers = { ...(typeof data === 'object' && data !== null ? data : {}), ...answers };
      if (typeof config.skip === 'function') {
        const reason: unknown = await (config.skip as (a: Answers) => unknown)(scope);
        if (typeof reason === 'string') {
          run.lines.push(`skipped ${label}: ${reason}`);
          continue;
        }
      }
      config.force = run.force || config.force === true;
      const own = isFunction ? undefined : ACTIONS[config.type];
      if (own) {
        await own(run, scope, config, plop);
        continue;
      }
      const custom = isFunction ? (action as Custom) : (plop.getActionTypeList().includes(config.type) ? (plop.getActionType(config.type) as unknown as Custom) : undefined);
      if (!custom) {
        const known = [...Object.keys(ACTIONS), ...plop.getActionTypeList()];
        throw new MakeError(`unknown action type "${config.type}"${didYouMean(config.type, known)}: fw make runs ${known.join(', ')}`);
      }
      const said = await custom(scope, config, api);
      if (typeof said === 'string' && said !== '') run.lines.push(said);
    } catch (error) {
      const failure = user(error);
      // fw's own generators say what failed themselves; a plopfile's action is named by its place.
      const where = generator.source === 'fw' ? '' : `${label}: `;
      if (config.abortOnFail !== false) throw new MakeError(failure.message.startsWith('fw make ') ? failure.message : `fw make ${generator.name}: ${where}${failure.message}`);
      run.failed = true;
      run.lines.push(`failed ${label}: ${failure.message}`);
    }
  }
}

function toCli(error: unknown): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof Error) return new MakeError(error.message);
  return new MakeError(String(error));
}
