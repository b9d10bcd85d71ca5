import { nameQuestion, type Builtin } from '../builtin.js';
import { MakeError } from '../errors.js';
import { camelCase, invalidName, kebabCase, pascalCase, words } from '../names.js';

/** Event names, as `fluid.events` takes them. */
const EVENT_NAME = /^[A-Za-z0-9_.:-]{1,128}$/;

/** TypeScript types an event field may have (it travels as JSON). */
const TYPES = new Set(['string', 'number', 'boolean']);

/** Parses `--fields` ("id:string total:number"); returns the fields or the reason they are not usable. */
function fieldsOf(spec: string): Array<{ name: string; type: string }> | string {
  const out: Array<{ name: string; type: string }> = [];
  for (const item of spec.split(/[\s,]+/).filter(Boolean)) {
    const match = /^([a-z][A-Za-z0-9]*):([a-z]+)$/.exec(item);
    if (!match || !TYPES.has(match[2]!)) return `"${item}" is not name:type with a type of ${[...TYPES].join(', ')}`;
    if (out.some((f) => f.name === match[1])) return `field "${match[1]}" is given twice`;
    out.push({ name: match[1]!, type: match[2]! });
  }
  return out.length > 0 ? out : 'give at least one field, e.g. id:string';
}

/** The event a file `fw make event` wrote defines: its `export const <NAME> = '<event>';`. */
function definedEvent(source: string): string | undefined {
  return /^export const [A-Z][A-Z0-9_]* = (['"])([A-Za-z0-9_.:-]+)\1;?$/m.exec(source)?.[2];
}

/**
 * `fw make event`: a module `fluid/events/<name>.ts` that registers a named event, a listener and
 * its signal on `fluid.events`, registered in `fluid/app.ts` as `export const <name> = ...(fluid)`.
 */
export const event: Builtin = {
  name: 'event',
  description: 'an event: a signal and a listener on fluid.events in fluid/events/<name>.ts, wired in fluid/app.ts',
  examples: ['npx fw make event user.created', 'npx fw make event order.paid --fields "orderId:string total:number"'],
  prompts: () => [
    nameQuestion('Event name (e.g. user.created)', (n) => invalidName(n) ?? (EVENT_NAME.test(n) ? undefined : `"${n}" is not an event name: 1-128 letters, digits, "_", ".", ":" or "-"`)),
    {
      type: 'input',
      name: 'fields',
      message: 'What it carries (name:type ..., types string, number, boolean)',
      default: 'id:string',
      validate: (value) => (typeof fieldsOf(String(value)) === 'string' ? (fieldsOf(String(value)) as string) : true),
    },
  ],
  async actions(answers, fw) {
    const event = String(answers.name);
    const fields = fieldsOf(String(answers.fields));
    if (typeof fields === 'string') throw new MakeError(`fw make event: --fields: ${fields}`);
    const file = kebabCase(event);
    const path = `fluid/events/${file}.ts`;
    const base = camelCase(event);
    const register = `${base}Event`;
    // Names that differ only in case and separators (order.paid, OrderPaid, order_paid) share the
    // file, the register function and the signal, but are different events on fluid.events: the
    // second one would rewrite the first one's file. An existing file keeps the event it defines.
    const defined = definedEvent((await fw.read(path)) ?? '');
    if (defined !== undefined && defined !== event) {
      throw new MakeError(
        `fw make event: ${path} already defines the event "${defined}", and "${event}" would use the same file ` +
          `(and the name ${register} in fluid/app.ts). They are two different events: give "${event}" a name that ` +
          `differs from "${defined}" in more than case and separators, or use "${defined}"`,
      );
    }
    const app = (await fw.read('fluid/app.ts')) ?? '';
    // The signal is exported from fluid/app.ts: a name the file already has gets a suffix; when the
    // app registers this event already (a second run), its signal keeps the name it has there, so
    // the run changes nothing instead of registering the event twice.
    const existing = new RegExp(`export\\s+const\\s+([A-Za-z_$][\\w$]*)\\s*=\\s*${register}\\s*\\(\\s*[A-Za-z_$][\\w$]*\\s*\\)`).exec(app)?.[1];
    const signal = existing ?? (new RegExp(`\\b${base}\\b`).test(app) ? `${base}Signal` : base);
    return [
      {
        type: 'fw:add',
        path,
        blueprint: 'event/event.ts.hbs',
        data: { event, fields, signal, register, type: pascalCase(event), constant: words(event).join('_').toUpperCase() },
      },
      { type: 'fw:register', from: `./events/${file}.js`, imports: [register], statement: `export const ${signal} = ${register}(fluid);` },
    ];
  },
};
