/**
 * A generator's questions (plop's prompts, inquirer-style objects) answered from the command line
 * or, on a terminal, asked with @clack/prompts through fw's one prompt layer. Every question is a
 * flag named after it (`--name`), and the first ones may be given in order as arguments (as
 * `plop <generator> <answer>...` does; `_` skips one). Without a terminal nothing is asked: a
 * question with a default takes it, any other missing answer is an error naming its flag.
 */
import type { OptionSpec } from '../cli/args.js';
import { negatable } from '../cli/args.js';
import { isInteractive, type CommandIO } from '../cli/io.js';
import { promptSession } from '../cli/prompts.js';
import type { Answers } from './api.js';
import { MakeError } from './errors.js';

type Dynamic<T> = T | ((answers: Answers) => T | Promise<T>);

/** One question, as a plopfile declares it (the inquirer fields fw understands). */
export interface Question {
  type: string;
  name: string;
  message: Dynamic<string>;
  default?: ((answers: Answers) => unknown) | string | number | boolean | readonly unknown[];
  choices?: Dynamic<unknown[]>;
  validate?: (value: unknown, answers: Answers) => unknown;
  filter?: (value: unknown, answers: Answers) => unknown;
  when?: Dynamic<boolean>;
  /**
   * fw's built-ins: the `default` and `choices` functions read the project only, not the other
   * answers (the binds of `DATABASE_BINDS_FILE`), so `--help` shows what they come to.
   */
  fromProject?: boolean;
}

/** A choice of a list or checkbox question. */
interface Choice {
  value: unknown;
  label: string;
}

const TYPES = new Set(['input', 'number', 'confirm', 'list', 'rawlist', 'expand', 'select', 'checkbox', 'password', 'editor']);
const CHOICES = new Set(['list', 'rawlist', 'expand', 'select', 'checkbox']);

/** The flags fw make takes itself: a question may not be named like one. */
export const OWN_FLAGS = ['force', 'dry-run', 'json', 'help', 'list'] as const;

/** Checks a generator's `prompts` and returns them as {@link Question}s. */
export function questionsOf(generator: string, prompts: unknown): Question[] {
  if (typeof prompts === 'function') {
    throw new MakeError(`generator "${generator}": its prompts are a function; fw make takes them as flags and asks them itself, so give a list of questions`);
  }
  if (prompts === undefined || prompts === null) return [];
  if (!Array.isArray(prompts)) throw new MakeError(`generator "${generator}": "prompts" must be a list of questions`);
  return prompts.map((p: unknown, i): Question => {
    const q = p as Partial<Question> | null;
    if (typeof q !== 'object' || q === null || typeof q.name !== 'string' || !/^[A-Za-z_][\w-]*$/.test(q.name)) {
      throw new MakeError(`generator "${generator}": question ${i + 1} needs a "name" made of letters, digits, "_" and "-"`);
    }
    const type = q.type ?? 'input';
    if (!TYPES.has(type)) throw new MakeError(`generator "${generator}": question "${q.name}" has the type "${type}", which fw make cannot ask (it asks ${[...TYPES].join(', ')})`);
    if ((OWN_FLAGS as readonly string[]).includes(q.name)) throw new MakeError(`generator "${generator}": question "${q.name}" would be the flag --${q.name}, which fw make takes itself; rename it`);
    return { ...q, type, name: q.name, message: q.message ?? q.name } as Question;
  });
}

/** The `parseArgs` options of the questions: `--<name> <value>`; a confirm is `--<name>` / `--no-<name>`; a checkbox repeats. */
export function questionFlags(questions: readonly Question[]): OptionSpec {
  const spec: OptionSpec = {};
  for (const q of questions) {
    if (q.type === 'confirm') {
      spec[q.name] = { type: 'boolean' };
      spec[`no-${q.name}`] = { type: 'boolean' };
    } else spec[q.name] = { type: 'string', multiple: q.type === 'checkbox' };
  }
  return spec;
}

const resolve = async <T>(value: Dynamic<T>, answers: Answers): Promise<T> =>
  typeof value === 'function' ? (value as (a: Answers) => T | Promise<T>)(answers) : value;

async function choicesOf(q: Question, answers: Answers): Promise<Choice[]> {
  const list = (await resolve(q.choices ?? [], answers)) ?? [];
  return list.flatMap((c): Choice[] => {
    if (typeof c === 'string' || typeof c === 'number') return [{ value: c, label: String(c) }];
    const o = c as { type?: string; name?: unknown; value?: unknown } | null;
    if (!o || o.type === 'separator') return [];
    return [{ value: o.value ?? o.name, label: String(o.name ?? o.value) }];
  });
}

/**
 * How a question shows in `fw make <generator> --help`. A default or choices given as a function
 * show what they come to when the question is {@link Question.fromProject}; else such a default is
 * `[has a default]` (it may depend on the answers, which help has none of).
 */
export async function describeQuestion(q: Question, position: number | undefined): Promise<string> {
  const known = q.fromProject === true;
  const flag = q.type === 'confirm' ? `--${q.name}, --no-${q.name}` : `--${q.name} <${q.type === 'checkbox' ? 'value,...' : 'value'}>`;
  const message = typeof q.message === 'string' ? q.message : q.name;
  const given = typeof q.choices === 'function' && known ? await resolve(q.choices, {}) : q.choices;
  // A choice whose value is "" is the question's "none" (the default, shown as such): not listed.
  const listed = Array.isArray(given)
    ? given.map((c) => (typeof c === 'object' && c !== null ? String((c as { value?: unknown; name?: unknown }).value ?? (c as { name?: unknown }).name) : String(c))).filter((c) => c !== '')
    : [];
  const choices = listed.length > 0 ? ` (${listed.join(' | ')})` : '';
  const value = typeof q.default === 'function' && known ? await resolve(q.default, {}) : q.default;
  const fallback =
    value === undefined ? (q.type === 'confirm' ? '' : ' [required]') : typeof value === 'function' ? ' [has a default]' : ` [default: ${JSON.stringify(value)}]`;
  const arg = position === undefined ? '' : ` (or argument ${position + 1})`;
  return `  ${flag.padEnd(32)}${message}${choices}${fallback}${arg}`;
}

/** Turns a value from the command line into the question's type, checking choices and numbers. */
async function fromFlag(q: Question, raw: unknown, answers: Answers): Promise<unknown> {
  const flag = `--${q.name}`;
  if (q.type === 'confirm') return raw;
  if (q.type === 'number') {
    const n = Number(raw);
    if (raw === '' || !Number.isFinite(n)) throw new MakeError(`${flag}: expected a number, got "${String(raw)}"`);
    return n;
  }
  if (!CHOICES.has(q.type)) return raw;
  const choices = await choicesOf(q, answers);
  const pick = (given: string): unknown => {
    const choice = choices.find((c) => String(c.value) === given);
    const shown = (c: Choice): string => (String(c.value) === c.label ? c.label : `${JSON.stringify(String(c.value))} (${c.label})`);
    if (!choice) throw new MakeError(`${flag}: expected one of ${choices.map(shown).join(', ')}; got "${given}"`);
    return choice.value;
  };
  if (q.type !== 'checkbox') return pick(String(raw));
  return (raw as string[]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean).map(pick);
}

/** Runs the question's `validate`: `true` passes, a string is the reason it does not. */
async function validated(q: Question, value: unknown, answers: Answers): Promise<string | undefined> {
  if (!q.validate) return undefined;
  const verdict = await q.validate(value, answers);
  if (verdict === true || verdict === undefined) return undefined;
  return typeof verdict === 'string' ? verdict : `"${String(value)}" is not valid`;
}

/** Asks one question on the terminal, again until `validate` passes. */
async function ask(io: CommandIO, q: Question, answers: Answers): Promise<unknown> {
  const { clack, streams, answer } = await promptSession(io);
  const message = await resolve(q.message, answers);
  const fallback = await resolve(q.default, answers);
  for (;;) {
    let value: unknown;
    if (q.type === 'confirm') {
      value = answer(await clack.confirm({ ...streams, message, initialValue: fallback === true }));
    } else if (CHOICES.has(q.type)) {
      const options = (await choicesOf(q, answers)).map((c) => ({ value: c.value, label: c.label }));
      value =
        q.type === 'checkbox'
          ? answer(await clack.multiselect({ ...streams, message, options, required: false, initialValues: Array.isArray(fallback) ? fallback : [] }))
          : answer(await clack.select({ ...streams, message, options, ...(fallback === undefined ? {} : { initialValue: fallback }) }));
    } else {
      const shown = fallback === undefined || fallback === '' ? {} : { placeholder: String(fallback), defaultValue: String(fallback) };
      const prompt = q.type === 'password' ? clack.password({ ...streams, message }) : clack.text({ ...streams, message, ...shown });
      value = answer(await prompt);
      if (q.type === 'number') value = Number(value);
    }
    const problem = await validated(q, value, answers);
    if (problem === undefined) return value;
    clack.log.warn(problem, { output: streams.output });
  }
}

/**
 * The answers of a generator's questions, in order (a question's default, choices and `when` may
 * depend on earlier answers): from its flag or its argument, else asked on a terminal, else its
 * default, else an error naming the flag. Each answer goes through the question's `validate` and
 * `filter`, as in plop.
 */
export async function gatherAnswers(
  io: CommandIO,
  command: string,
  questions: readonly Question[],
  values: Record<string, unknown>,
  positionals: readonly string[],
): Promise<Answers> {
  if (positionals.length > questions.length) {
    throw new MakeError(`${command}: unexpected argument ${positionals.slice(questions.length).join(' ')}; it takes at most ${questions.length}. Run "${command} --help".`);
  }
  const answers: Answers = {};
  for (const [i, q] of questions.entries()) {
    const positional = positionals[i] === '_' ? undefined : positionals[i];
    let given: unknown = values[q.name] ?? positional;
    if (q.type === 'confirm') given = negatable(command, q.name, values[q.name] as boolean | undefined, values[`no-${q.name}`] as boolean | undefined) ?? (positional === undefined ? undefined : /^(y|yes|true|1)$/i.test(positional));
    else if (q.type === 'checkbox' && typeof given === 'string') given = [given];
    // As plop's bypass: an answer given on the command line applies whatever `when` says. A
    // question `when` skips takes its default, so actions see every answer they may read.
    if (given === undefined && q.when !== undefined && !(await resolve(q.when, answers))) {
      if (q.default !== undefined) answers[q.name] = await resolve(q.default, answers);
      continue;
    }
    let value: unknown;
    if (given !== undefined) {
      value = await fromFlag(q, given, answers).catch((error: unknown) => {
        throw new MakeError(`${command}: ${error instanceof Error ? error.message : String(error)}`);
      });
      const problem = await validated(q, value, answers);
      if (problem !== undefined) throw new MakeError(`${command}: --${q.name}: ${problem}`);
    } else if (isInteractive(io)) {
      value = await ask(io, q, answers);
    } else if (q.default !== undefined || q.type === 'confirm' || q.type === 'checkbox') {
      value = (await resolve(q.default, answers)) ?? (q.type === 'confirm' ? false : []);
    } else {
      const message = await resolve(q.message, answers);
      const as = i === 0 ? `"${command} <${q.name}>" or ` : '';
      throw new MakeError(`${command}: missing --${q.name} (${message}): give it as ${as}--${q.name} <value>; fw asks only on a terminal.`);
    }
    answers[q.name] = q.filter ? await q.filter(value, answers) : value;
  }
  return answers;
}
