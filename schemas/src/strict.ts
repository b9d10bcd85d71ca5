import * as z from 'zod';

/** The keys each strict object allows, by the text of its unknown-key error (see {@link allowedKeysOf}). */
const allowedByMessage = new Map<string, readonly string[]>();

/**
 * The keys allowed by the strict object whose unknown-key error text is `message`, so an error
 * line can suggest the key that was meant (`aditives` → did you mean `additives`?).
 */
export function allowedKeysOf(message: string): readonly string[] | undefined {
  return allowedByMessage.get(message);
}

/**
 * A strict zod object whose unknown-key error says which keys are allowed:
 * `htmx.foo: unknown key; expected only the keys type, alpine for type "htmx"`, with a did-you-mean
 * when a key is close to an allowed one.
 */
export function strictObject<Shape extends z.core.$ZodLooseShape>(
  shape: Shape,
  context?: string,
): z.ZodObject<Shape, z.core.$strict> {
  const keys = Object.keys(shape);
  const allowed = keys.length === 1 ? `the key ${keys.join('')}` : `the keys ${keys.join(', ')}`;
  const what = `only ${allowed}${context === undefined ? '' : ` ${context}`}`;
  allowedByMessage.set(what, keys);
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? what : undefined),
  });
}
