/**
 * Syntax-tree edits and reads of user-owned TypeScript files (ts-morph): register or unregister an
 * Additive in `fluid/app.ts` (by symbol, keeping every other byte), and read the route table of
 * the app and its Additives (for collision checks). Each codemod takes `{ path, text }` and
 * returns `{ changed, text }`; the caller writes the result into the pipeline's tree. ts-morph is
 * loaded on the first call, never by importing this module.
 */
export { CodemodAnchorError } from './errors.js';
export type { SourceText, CodemodResult } from './source.js';
export { registerAdditive, unregisterAdditive, type AdditiveCodemodOptions } from './additive.js';
export { readRoutes, HTTP_METHODS, type Route, type RouteSource } from './routes.js';
export { additiveProposal, checkCollisions, findCollisions, describeCollisions, type Collision, type Proposal } from './collisions.js';
