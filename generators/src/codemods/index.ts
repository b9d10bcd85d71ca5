/**
 * Syntax-tree edits of user-owned TypeScript files (ts-morph): register an additive, a route, a
 * hook or a guard only if absent, keeping every other byte of the file. Each codemod takes
 * `{ path, text }` and returns `{ changed, text }`; the caller writes the file (atomically, through
 * the engine). ts-morph is loaded on the first codemod call, never by importing this module.
 */
export { CodemodAnchorError } from './errors.js';
export type { SourceText, CodemodResult } from './source.js';
export { registerAdditive, unregisterAdditive, type AdditiveCodemodOptions } from './additive.js';
export { registerRoute, ROUTE_METHODS, type RouteMethod, type RouteRegistration } from './route.js';
export { registerHook, type HookName, type HookRegistration } from './hook.js';
export { registerGuard, type GuardRegistration } from './guard.js';
export { ensureArrayElement, type ArrayElementEdit } from './array.js';
export { identifierFor } from './names.js';
