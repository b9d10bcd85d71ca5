/**
 * Ocean: the Additive registry client (`fw ocean search`, `fw ocean install`). See docs/ocean.md.
 */
export { OceanError } from './errors.js';
export {
  formatBundleId,
  keyPath,
  OceanAdditiveSchema,
  OceanBundleSchema,
  OceanIndexSchema,
  type OceanAdditive,
  type OceanBundle,
  type OceanIndex,
} from './schema.js';
export {
  DEFAULT_INDEX_URL,
  DEFAULT_TIMEOUT_MS,
  loadIndex,
  locateIndex,
  parseIndex,
  type IndexLocation,
  type IndexSource,
  type LoadIndexOptions,
} from './registry.js';
export { formatSearchTable, search, searchIndex, type AdditiveRow, type BundleRow, type SearchResult } from './search.js';
export {
  parseBundleId,
  parseRequest,
  pickFrom,
  resolveInstall,
  type ResolvedAdditive,
  type ResolveInstallInput,
  type VersionPolicy,
} from './resolve.js';
export {
  OCEAN_INSTALL_USAGE,
  OCEAN_SEARCH_USAGE,
  parseOceanInstallArgs,
  parseOceanSearchArgs,
  type OceanInstallArgs,
  type OceanSearchArgs,
} from './args.js';
export { installAdditives, type InstallAdditivesOptions, type InstalledAdditive } from './install.js';
export { oceanInstall, oceanSearch, type OceanCommandContext, type OceanInstallContext } from './commands.js';
export { oceanInstallCommand, runOceanSearch, type OceanCommandRun } from './cli.js';
