import * as z from 'zod';
import { mapAliases } from './aliases.js';
import { coerceConfigValues } from './config-coerce.js';
import { partialConfigSchema } from './config.js';
import { ConfigValidationError, expectedText, issuesToProblems, type TextPosition } from './errors.js';
import { parseJsonText } from './json-text.js';
import { additiveNameSchema, projectNameSchema } from './name-schemas.js';
import { strictObject } from './strict.js';

/** The project config, `fw.json` at the project root. */
export const projectConfigSchema = strictObject(
  {
    $schema: z.string().optional().describe('Path or URL of this JSON Schema, so editors complete and check fw.json.'),
    name: projectNameSchema,
    additives: z
      .array(additiveNameSchema)
      .refine((list) => new Set(list).size === list.length, { error: 'a list of distinct additive names' })
      .default([])
      .describe('Additives of the project, by folder name under additives/. Default [].'),
    config: partialConfigSchema
      .default({})
      .describe('Runtime config keys (UPPERCASE). Layered: defaults <- this <- app_configs/<app>.ini <- environment.'),
  },
  'in fw.json',
).describe('fw project config (fw.json).');

/** A validated `fw.json`. */
export type ProjectConfig = z.output<typeof projectConfigSchema>;

/** `fw.json` as written (defaults may be omitted). */
export type ProjectConfigInput = z.input<typeof projectConfigSchema>;

/**
 * Validates parsed `fw.json` content. `config` values are coerced like every other layer (so
 * `"DEBUG": "yes"` is accepted) and the reference's alias names are mapped. Throws
 * {@link ConfigValidationError} whose lines start with `file`, e.g.
 * `fw.json: config.APP_FRONTEND.framework: got "angular"; expected one of lit, ...`.
 */
export function parseProjectConfig(
  json: unknown,
  file: string,
  positionOf?: (path: readonly PropertyKey[]) => TextPosition | undefined,
): ProjectConfig {
  let input = json;
  if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
    const record = json as Record<string, unknown>;
    const config = record.config;
    if (config !== null && typeof config === 'object' && !Array.isArray(config)) {
      input = { ...record, config: coerceConfigValues(mapAliases(config as Record<string, unknown>)) };
    }
  }
  const result = projectConfigSchema.safeParse(input, { error: expectedText });
  if (!result.success) throw new ConfigValidationError(issuesToProblems(result.error.issues, input, { source: file, ...(positionOf ? { positionOf } : {}) }));
  return result.data;
}

/**
 * Parses and validates the text of `fw.json` (see `parseJsonText`: a BOM is accepted, syntax
 * errors and repeated keys name the line and column) with {@link parseProjectConfig}; every error
 * line names `file` and the line of the key, e.g.
 * `fw.json:6:5: config.CACHE_TIPE: unknown key; did you mean CACHE_TYPE? (...)`.
 * Also returns where each key was written.
 */
export function parseProjectConfigText(text: string, file: string): { config: ProjectConfig; positionOf: (path: readonly PropertyKey[]) => TextPosition | undefined } {
  const parsed = parseJsonText(text, file);
  return { config: parseProjectConfig(parsed.value, file, parsed.positionOf), positionOf: parsed.positionOf };
}
