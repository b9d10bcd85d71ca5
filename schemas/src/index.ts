/**
 * @fw/schemas: zod schemas for every config fw's generators and kernel read, the parsers that
 * validate them with errors naming the key path, the value and what is allowed, and the JSON
 * Schema emitter for editors.
 */
export {
  ConfigValidationError,
  SECRET_KEY_PATTERN,
  expectedText,
  formatPath,
  formatValue,
  issuesToProblems,
  locate,
  type ConfigProblem,
  type TextPosition,
  type ProblemOptions,
  type SourceOf,
} from './errors.js';
export {
  FRONTEND_TYPES,
  VITE_FRAMEWORKS,
  frontendSchema,
  validateConfig,
  type FrontendConfig,
  type FrontendConfigInput,
  type FrontendType,
  type ViteFramework,
} from './frontend.js';
export {
  JS_RESERVED_WORDS,
  MAX_ADDITIVE_NAME_LENGTH,
  MAX_PROJECT_NAME_LENGTH,
  RESERVED_ADDITIVE_NAMES,
  validateAdditiveName,
  validateProjectName,
  type NameResult,
} from './names.js';
export { additiveNameSchema, projectNameSchema } from './name-schemas.js';
export {
  CONFIG_KEYS,
  RATE_LIMIT_PATTERN,
  configShape,
  isTrustedHostEntry,
  parseRateLimit,
  parseRateLimits,
  type KnownConfigKey,
  type RateLimit,
} from './config-keys.js';
export { CONFIG_ALIASES, canonicalKey, mapAliases } from './aliases.js';
export { CONFIG_KINDS, coerceConfigValues, coerceValue, kindOfKey, type ValueKind } from './config-coerce.js';
export {
  APP_INI_KEYS,
  CONFIG_KEY_NAME,
  appIniSchema,
  configDefaults,
  configSchema,
  isKnownConfigKey,
  parseAppIni,
  parseConfig,
  partialConfigSchema,
  type Config,
  type ConfigLayer,
  type KnownConfig,
  type PartialConfig,
} from './config.js';
export { parseJsonText, type ParsedJsonText } from './json-text.js';
export {
  ENVIRONMENT_PREFIXES,
  FOREIGN_KEYS,
  FW_ENVIRONMENT_VARIABLES,
  KNOWN_KEY_NAMES,
  RESERVED_PREFIXES,
  environmentValues,
  unknownKeyReason,
} from './key-rules.js';
export { closest, didYouMean, editDistance, typoOf } from './suggest.js';
export {
  parseProjectConfig,
  parseProjectConfigText,
  projectConfigSchema,
  type ProjectConfig,
  type ProjectConfigInput,
} from './project.js';
export {
  NPM_PACKAGE_PATTERN,
  SEMVER_PATTERN,
  additiveManifestSchema,
  parseAdditiveManifest,
  parseAdditiveManifestText,
  type AdditiveManifest,
  type AdditiveManifestInput,
} from './manifest.js';
export {
  DEFAULT_JSON_SCHEMA_DIR,
  JSON_SCHEMA_FILES,
  emitJsonSchemas,
  toJsonSchemaDocument,
} from './emit-json-schema.js';
export {
  SUPPORTED_DATABASE_SCHEMES,
  normaliseBindUrl,
  withDatabaseUrl,
  urlWithoutPassword,
  parseBindUrl,
  sqliteUrlParts,
  type DatabaseProvider,
  type ParsedBindUrl,
} from './database-url.js';
