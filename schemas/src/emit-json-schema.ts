/**
 * Emits the JSON Schema files editors use to complete and check fw's config files, from the
 * same zod schemas the generators and the kernel validate with: call {@link emitJsonSchemas}, or
 * run `node schemas/dist/emit.js [outDir]` (part of `npm run build`). The script is a module of
 * its own, so importing (or bundling) `@fw/schemas` never writes a file.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { partialConfigSchema } from './config.js';
import { frontendSchema } from './frontend.js';
import { additiveManifestSchema } from './manifest.js';
import { projectConfigSchema } from './project.js';

/** The files {@link emitJsonSchemas} writes, by file name. */
export const JSON_SCHEMA_FILES = {
  'fw.schema.json': { schema: projectConfigSchema, title: 'fw project config (fw.json)' },
  'additive-manifest.schema.json': { schema: additiveManifestSchema, title: 'fw Additive manifest (additives/<name>/manifest.json)' },
  'frontend.schema.json': { schema: frontendSchema, title: 'fw frontend block (APP_FRONTEND, manifest frontend)' },
  'app-config.schema.json': { schema: partialConfigSchema, title: 'fw runtime config keys (app_configs/<app>.ini, fw.json config)' },
} as const satisfies Record<string, { schema: z.ZodType; title: string }>;

/** The folder the schemas are written to by default: `schemas/json` (next to `src/` and `dist/`). */
export const DEFAULT_JSON_SCHEMA_DIR = fileURLToPath(new URL('../json/', import.meta.url));

/** Renders one zod schema as a JSON Schema document (draft-07, input shape: defaults optional). */
export function toJsonSchemaDocument(schema: z.ZodType, title: string): Record<string, unknown> {
  const doc = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...doc, title };
}

/** Writes every file of {@link JSON_SCHEMA_FILES} into `outDir` and returns the paths written. */
export async function emitJsonSchemas(outDir: string = DEFAULT_JSON_SCHEMA_DIR): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const written: string[] = [];
  for (const [file, { schema, title }] of Object.entries(JSON_SCHEMA_FILES)) {
    const path = join(outDir, file);
    await writeFile(path, `${JSON.stringify(toJsonSchemaDocument(schema, title), null, 2)}\n`, 'utf8');
    written.push(path);
  }
  return written;
}
