/** The generator side of auth: `fluid/guards.ts` from `AUTH_ROLES` and `AUTH_PERMISSIONS`. */
export { renderAuthGuards, pascal, AuthGuardsError, GUARDS_PATH } from './render.js';
export type { AuthGuardsOptions } from './render.js';
