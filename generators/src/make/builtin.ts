import type { CommandIO } from '../cli/io.js';
import type { LoadedConfig } from '../project/config.js';
import type { Answers, MakeAction, MakeApi } from './api.js';
import type { Question } from './questions.js';

/** What a built-in generator knows of the project when its questions are made. */
export interface BuiltinEnv {
  root: string;
  loaded: LoadedConfig;
  /** The local Additives (those of `fw.json` that are not npm packages). */
  additives: readonly string[];
}

/**
 * A generator fw ships (`generators/src/make/builtins/`). It is registered with plop like a
 * plopfile's (`plop.setGenerator(name, { description, prompts, actions })`) and runs the same way;
 * its files come from `blueprints/make/<name>/`.
 */
export interface Builtin {
  name: string;
  description: string;
  /** Command lines shown by `fw make <name> --help`. */
  examples: string[];
  prompts(env: BuiltinEnv): Question[];
  actions(answers: Answers, fw: MakeApi): Promise<MakeAction[]>;
  /** After a real run on a terminal: offer the next step (the model generator offers its migration). */
  after?(answers: Answers, io: CommandIO): Promise<void>;
}

/** A question's `validate` that requires a usable name (see `invalidName`). */
export function nameQuestion(message: string, invalid: (name: string) => string | undefined): Question {
  return { type: 'input', name: 'name', message, validate: (value) => (typeof value === 'string' && value !== '' ? (invalid(value) ?? true) : 'give a name') };
}

/** The optional question of the Additive to put the code in (asked only when the project has local Additives). */
export function additiveQuestion(env: BuiltinEnv, what: string): Question {
  return {
    type: 'list',
    name: 'additive',
    // Asked only when there are Additives; `--help` shows the message either way.
    message: env.additives.length > 0 ? `Where does the ${what} go?` : `The local Additive the ${what} goes in (this app has none: it goes in fluid/)`,
    choices: [{ name: 'the app (fluid/)', value: '' }, ...env.additives.map((a) => ({ name: `additive ${a}`, value: a }))],
    default: '',
    when: () => env.additives.length > 0,
  };
}
