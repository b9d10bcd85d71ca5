/**
 * Production (the reference's `prod.startup_hook`): before the app serves, run
 * `npm run check` and `npm run build` over every frontend workspace from the project root,
 * gated by `FW_CHECK_FRONTEND` and `FW_BUILD_FRONTEND`. A failing command stops the boot with
 * the command's own output (a `NodeError`), never a blank page.
 */
import type { Logger } from '../core/errors.js';
import { nodeCmd } from './node.js';

/** Which production steps run. */
export interface ProductionSteps {
  check: boolean;
  build: boolean;
}

/** Runs the gated check and build in `projectRoot`. */
export async function checkAndBuild(projectRoot: string, steps: ProductionSteps, logger: Logger): Promise<void> {
  if (steps.check) {
    const started = Date.now();
    await nodeCmd(['npm', 'run', 'check', '--workspaces', '--if-present'], projectRoot);
    logger.info('frontend checked', { ms: Date.now() - started });
  }
  if (steps.build) {
    const started = Date.now();
    await nodeCmd(['npm', 'run', 'build', '--workspaces', '--if-present'], projectRoot);
    logger.info('frontend built', { ms: Date.now() - started });
  }
}
