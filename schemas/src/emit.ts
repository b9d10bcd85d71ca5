/** `node schemas/dist/emit.js [outDir]` (part of `npm run build`): writes the JSON Schema files for editors. */
import { resolve } from 'node:path';
import { DEFAULT_JSON_SCHEMA_DIR, emitJsonSchemas } from './emit-json-schema.js';

const outDir = process.argv[2] === undefined ? DEFAULT_JSON_SCHEMA_DIR : resolve(process.argv[2]);
try {
  const paths = await emitJsonSchemas(outDir);
  console.log(`wrote ${paths.length} JSON Schema files to ${outDir}`);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
