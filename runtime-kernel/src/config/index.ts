/** The kernel's config: layered loading, `*_FILE` indirection, validation by `@fw/schemas`. */
export { loadConfig, loadConfigDetails } from './load.js';
export type { LoadConfigOptions, LoadedConfig } from './load.js';
export { ConfigError } from './error.js';
export type { ConfigErrorProblem } from './error.js';
export { decodeText, readText } from './decode.js';
export type { Config } from '@fw/schemas';
