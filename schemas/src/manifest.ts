import * as z from 'zod';
import { ConfigValidationError, expectedText, issuesToProblems, makeProblem, type TextPosition } from './errors.js';
import { parseJsonText } from './json-text.js';
import { frontendSchema } from './frontend.js';
import { additiveNameSchema } from './name-schemas.js';
import { strictObject } from './strict.js';

/** Semantic Versioning 2.0.0, the official regular expression from semver.org. */
export const SEMVER_PATTERN =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** An npm package name, optionally scoped (`@scope/name`). */
export const NPM_PACKAGE_PATTERN = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/** An Additive's manifest, `additives/<name>/manifest.json`. */
export const additiveManifestSchema = strictObject(
  {
    name: additiveNameSchema,
    version: z
      .string()
      .regex(SEMVER_PATTERN, { error: 'a semantic version such as "1.0.0" or "0.2.0-beta.1"' })
      .describe('Version of the Additive (semver), e.g. "0.1.0".'),
    description: z.string().optional().describe('One line saying what the Additive does.'),
    frontend: frontendSchema
      .default({ type: 'none' })
      .describe('Frontend block of the Additive (same shape as APP_FRONTEND). Default {"type":"none"}.'),
    package: z
      .string()
      .max(214, { error: 'an npm package name of at most 214 characters' })
      .regex(NPM_PACKAGE_PATTERN, { error: 'an npm package name such as "fw-blog" or "@acme/fw-blog"' })
      .optional()
      .describe('npm package the Additive is published as (for fw ocean).'),
  },
  'in an additive manifest',
).describe('fw Additive manifest (additives/<name>/manifest.json).');

/** A validated Additive manifest. */
export type AdditiveManifest = z.output<typeof additiveManifestSchema>;

/** An Additive manifest as written (defaults may be omitted). */
export type AdditiveManifestInput = z.input<typeof additiveManifestSchema>;

/**
 * Validates parsed `manifest.json` content. Throws {@link ConfigValidationError} whose lines
 * start with `file`, e.g. `additives/blog/manifest.json: version: got "1"; expected a semantic version ...`.
 */
export function parseAdditiveManifest(
  json: unknown,
  file: string,
  positionOf?: (path: readonly PropertyKey[]) => TextPosition | undefined,
): AdditiveManifest {
  const result = additiveManifestSchema.safeParse(json, { error: expectedText });
  if (!result.success) throw new ConfigValidationError(issuesToProblems(result.error.issues, json, { source: file, ...(positionOf ? { positionOf } : {}) }));
  return result.data;
}

/**
 * Parses and validates the text of an Additive's `manifest.json`, whole: a BOM is accepted,
 * syntax errors and repeated keys name the line and column, every key is checked (`version:
 * "abc"`, `name: 42` and unknown keys are errors naming `file` and the line). With `name`, the
 * manifest's `name` must be it (the Additive's folder `additives/<name>/`, its `new Additive(name)`).
 */
export function parseAdditiveManifestText(text: string, file: string, name?: string): AdditiveManifest {
  const parsed = parseJsonText(text, file);
  const manifest = parseAdditiveManifest(parsed.value, file, parsed.positionOf);
  if (name !== undefined && manifest.name !== name) {
    throw new ConfigValidationError([
      makeProblem(file, 'name', JSON.stringify(manifest.name), `${JSON.stringify(name)}, the Additive's own name`, parsed.positionOf(['name'])),
    ]);
  }
  return manifest;
}
