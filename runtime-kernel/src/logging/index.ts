/**
 * `@fw/kernel/logging`: the request log (`FW_LOG_REQUESTS`: one line per request and
 * `X-Request-Id`) and the plugin that installs it. The logger itself (`Logger`, `createLogger`,
 * pino) is the core's. See `@fw/kernel/docs/logging.md`.
 */
import type { Plugin } from '../core/plugin.js';
import { requestLog } from './requests.js';

export { requestLog, type RequestLogConfig } from './requests.js';

/** The logging plugin (the `Fluid` of `@fw/kernel` has it): with `FW_LOG_REQUESTS` on, the request log as an arrival hook. */
export function logging(): Plugin {
  return {
    name: 'logging',
    register(fluid) {
      if (fluid.config.FW_LOG_REQUESTS) fluid.onRequest(requestLog(fluid.config, fluid.logger));
    },
  };
}
