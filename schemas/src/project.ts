import * as z from 'zod';
import { mapAliases } from './aliases.js';
import { coerceConfigValues } from './config-coerce.js';
import { partialConfigSchema } from './config.js';
import { ConfigValidationError, expectedText, issuesToProblems } from './errors.js';
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
export function parseProjectConfig(json: unknown, file: string): ProjectConfig {
  let input = json;
  if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
    const record = json as Record<string, unknown>;
    const config = record.config;
    if (config !== null && typeof config === 'object' && !Array.isArray(config)) {
      input = { ...record, config: coerceConfigValues(mapAliases(config as Record<string, unknown>)) };
    }
  }
  const result = projectConfigSchema.safeParse(input, { error: expectedText });
  if (!result.success) throw new ConfigValidationError(issuesToProblems(result.error.issues, input, { source: file }));
  return result.data;
}
