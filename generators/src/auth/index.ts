/**
 * The generator side of auth: `fluid/guards.ts` from `AUTH_ROLES` and `AUTH_PERMISSIONS`, and the
 * auth scaffold of `fw create auth` (docs/auth-scaffold.md).
 */
export { renderAuthGuards, pascal, AuthGuardsError, GUARDS_PATH } from './render.js';
export type { AuthGuardsOptions } from './render.js';
export {
  renderAuthScaffold,
  authModels,
  installInApp,
  adapterPackages,
  AUTH_SCAFFOLD_GENERATOR_ID,
  AUTH_SCAFFOLD_DEPENDENCIES,
  AUTH_SCAFFOLD_DEV_DEPENDENCIES,
} from './scaffold.js';
export type { AuthScaffoldOptions } from './scaffold.js';
