/** Frontend generation: Vite surfaces from create-vite's templates and the project wiring. */
export {
  FRAMEWORKS,
  FrontendGenerationError,
  QWIK_LIMIT,
  createViteTemplates,
  renderViteSurface,
  rewritePackageJson,
  rewriteViteConfig,
  workspaceBase,
  workspaceDir,
  workspaceName,
} from './render.js';
export type { FileContent, Framework, ViteSurfaceSpec } from './render.js';
export { setupFrontend, withIgnores, withWorkspaces } from './setup.js';
export type { FrontendProject, SurfaceEntry } from './setup.js';
export { validateConfig } from '@fw/schemas';
