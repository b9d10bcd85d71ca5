import type { Answers } from '../api.js';
import { MakeError } from '../errors.js';

/** An action object as a plopfile gives it: a `type` and its own fields. */
export type ActionConfig = { type: string } & Record<string, unknown>;

/** What the actions use of node-plop's API (`plop.renderString` is Handlebars with plop's helpers). */
export interface PlopRenderer {
  renderString(template: string, data: object): string;
  /** The folder of the plopfile: `templateFile`s are relative to it. */
  getPlopfilePath(): string;
}

/** The string field `key` of an action, required. */
export function text(config: ActionConfig, key: string): string {
  const value = config[key];
  if (typeof value !== 'string' || value === '') throw new MakeError(`action "${config.type}": "${key}" must be a non-empty string`);
  return value;
}

/** The string field `key` of an action, or `undefined`. */
export function optionalText(config: ActionConfig, key: string): string | undefined {
  const value = config[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new MakeError(`action "${config.type}": "${key}" must be a string`);
  return value;
}

/** A field of an action that plop renders with the answers (paths, names). */
export function rendered(plop: PlopRenderer, config: ActionConfig, key: string, data: Answers): string {
  return plop.renderString(text(config, key), data);
}

/** Applies the action's `transform(text, data)`, as plop does, checking it returns a string. */
export async function transformed(config: ActionConfig, content: string, data: Answers): Promise<string> {
  const transform = config.transform;
  if (transform === undefined) return content;
  if (typeof transform !== 'function') throw new MakeError(`action "${config.type}": "transform" must be a function`);
  const out: unknown = await (transform as (t: string, d: Answers, c: ActionConfig) => unknown)(content, data, config);
  if (typeof out !== 'string') throw new MakeError(`action "${config.type}": transform returned ${JSON.stringify(out)}, not a string`);
  return out;
}
