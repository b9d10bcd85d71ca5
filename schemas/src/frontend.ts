import * as z from 'zod';
import { expectedText, issuesToProblems } from './errors.js';
import { strictObject } from './strict.js';

/** The UI frameworks a Vite surface may use (the reference's list; `none` is vanilla). */
export const VITE_FRAMEWORKS = ['lit', 'none', 'preact', 'qwik', 'react', 'solid', 'svelte', 'vue'] as const;

/** One of {@link VITE_FRAMEWORKS}. */
export type ViteFramework = (typeof VITE_FRAMEWORKS)[number];

/** The surface types a frontend block may have. */
export const FRONTEND_TYPES = ['none', 'htmx', 'vite'] as const;

/** One of {@link FRONTEND_TYPES}. */
export type FrontendType = (typeof FRONTEND_TYPES)[number];

const noneFrontend = strictObject(
  { type: z.literal('none').describe('No frontend: the surface serves only routes and static files.') },
  'for type "none"',
).describe('A surface without a frontend.');

const htmxFrontend = strictObject(
  {
    type: z.literal('htmx').describe('Server-rendered pages enhanced with htmx (served from the htmx.org package).'),
    alpine: z.boolean().default(false).describe('Also load Alpine.js (from the alpinejs package). Default false.'),
  },
  'for type "htmx"',
).describe('An htmx surface, optionally with Alpine.js.');

const viteFrontend = strictObject(
  {
    type: z.literal('vite').describe('A Vite workspace built per surface and served at /frontend.'),
    framework: z
      .enum(VITE_FRAMEWORKS)
      .describe(`UI framework of the Vite workspace; required, no default. One of ${VITE_FRAMEWORKS.join(', ')}.`),
    typescript: z.boolean().default(false).describe('Generate the workspace in TypeScript. Default false.'),
    register_index: z
      .boolean()
      .default(true)
      .describe('Serve the built index at / (the surface root). False: the app wires frontend.vite() itself. Default true.'),
  },
  'for type "vite"',
).describe('A Vite surface for one of the supported UI frameworks.');

/**
 * The frontend block: `APP_FRONTEND` in the runtime config and `frontend` in an Additive
 * manifest. Discriminated on `type`; unknown keys are errors.
 */
export const frontendSchema = z
  .discriminatedUnion('type', [noneFrontend, htmxFrontend, viteFrontend])
  .describe('Frontend block: {"type":"none"}, {"type":"htmx","alpine":false} or {"type":"vite","framework":"react"}.');

/** A validated frontend block, defaults filled in. */
export type FrontendConfig = z.output<typeof frontendSchema>;

/** A frontend block as written by a user (defaults may be omitted). */
export type FrontendConfigInput = z.input<typeof frontendSchema>;

/**
 * Validates a frontend block (the reference's `validate_config`). Returns `[true, block]` with
 * defaults filled in, or `[false, reason]` where the reason has one line per problem, e.g.
 * `frontend.framework: got "angular"; expected one of lit, none, preact, qwik, react, solid, svelte, vue`.
 * `name` is the path prefix used in the reason (`frontend` unless given).
 */
export function validateConfig(block: unknown, name = 'frontend'): [true, FrontendConfig] | [false, string] {
  const result = frontendSchema.safeParse(block, { error: expectedText });
  if (result.success) return [true, result.data];
  const lines = issuesToProblems(result.error.issues, block, { root: name }).map((p) => p.line);
  return [false, lines.join('\n')];
}
