/**
 * Syntax-tree edits and reads of user-owned TypeScript files (ts-morph): register or unregister an
 * Additive in `fluid/app.ts` (by symbol, keeping every other byte), add a route or a registration
 * (`fw make`), and read the route table of the app and its Additives (for collision checks). Each
 * codemod takes `{ path, text }` and returns `{ changed, text }`; the caller writes the result into
 * the pipeline's tree. ts-morph is loaded on the first call, never by importing this module.
 */
export { CodemodAnchorError } from './errors.js';
export type { SourceText, CodemodResult } from './source.js';
export { registerAdditive, unregisterAdditive, type AdditiveCodemodOptions } from './additive.js';
export { readRoutes, HTTP_METHODS, type Route, type RouteSource } from './routes.js';
export { additiveProposal, checkCollisions, projectRoutes, findCollisions, describeCollisions, type Collision, type CollisionOptions, type Proposal, type TemplateFile } from './collisions.js';
export { addAppRoute, addAdditiveRoute, type NewRoute, type SnippetFormatter } from './route.js';
export { addRegistration, type Registration } from './register.js';
