/**
 * `@fw/kernel/frontend`: frontend surfaces — `Frontend`, the `{{frontend}}` include, the asset
 * catch-all, the Vite dev proxy and production build, Tailwind compiled in-process, the Node
 * passthrough, and the plugin that gives the app `fluid.frontend`. See `@fw/kernel/docs/frontend.md`.
 */
export { frontend } from './plugin.js';
export { Frontend, generateProjectTailwind, generateTailwindCss } from './frontend.js';
export type { FrontendOptions, FrontendWiring, ProjectTailwindOptions } from './frontend.js';
export { frontendInclude } from './include.js';
export type { FrontendIncludeBlock, FrontendSurface } from './include.js';
export { HTMX_URL, ALPINE_URL, packageFile, vendorFiles, serveVendor } from './vendor.js';
export { FrontendException, NodeError, TailwindError } from './errors.js';
export { Sources } from './sources.js';
export { Vite } from './vite.js';
export type { ViteSurface } from './vite.js';
export { assetCatch, assetCandidates, contained, refusedAssetPath, VITE_NS_COOKIE } from './assets.js';
export type { AssetCatchOptions } from './assets.js';
export { manipulateIndex, rewriteForDev, insertInHead, reactPreamble, VITE_DEV_PREFIX } from './html.js';
export type { IndexOptions } from './html.js';
export { startDevServer, allowedDevPath, DEV_DENY, VITE_CONFIG_FILES } from './dev.js';
export type { DevServer } from './dev.js';
export { checkAndBuild, checkPublicDirs } from './prod.js';
export type { ProductionSteps } from './prod.js';
export { loadNode, nodeEnv, nodeCmd, nodeProc, nodeCli } from './node.js';
export type { NodeRuntime, NodeCmdOptions, NodeProcOptions } from './node.js';
export {
  compileTailwind,
  generateTailwindAsset,
  rawStylesheetName,
  tailwindCmd,
  tailwindCli,
  tailwindCliPath,
  TAILWIND_OUTPUT,
} from './tailwind.js';
export type { CompileTailwindOptions, GenerateTailwindAssetOptions } from './tailwind.js';
export { validateConfig } from '@fw/schemas';
