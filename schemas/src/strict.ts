import * as z from 'zod';

/**
 * A strict zod object whose unknown-key error says which keys are allowed:
 * `htmx.foo: got 1; expected only the keys type, alpine for type "htmx"`.
 */
export function strictObject<Shape extends z.core.$ZodLooseShape>(
  shape: Shape,
  context?: string,
): z.ZodObject<Shape, z.core.$strict> {
  const keys = Object.keys(shape);
  const allowed = keys.length === 1 ? `the key ${keys.join('')}` : `the keys ${keys.join(', ')}`;
  const what = `only ${allowed}${context === undefined ? '' : ` ${context}`}`;
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? what : undefined),
  });
}
