/** An Additive's `manifest.json`, read and validated whole when the Additive is made. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseAdditiveManifestText, type AdditiveManifest } from '@fw/schemas';
import { ConfigError } from '../errors.js';
import { readText } from './text.js';
import { fromValidation } from './problems.js';

/**
 * The manifest of the Additive `name` in the folder `root`, validated whole by `@fw/schemas`
 * (every key, a BOM accepted, errors naming the file, line and key, `name` must be the
 * Additive's); `undefined` when the folder has none (an Additive needs no manifest).
 */
export function readAdditiveManifest(root: string, name: string): AdditiveManifest | undefined {
  const file = join(root, 'manifest.json');
  if (!existsSync(file)) return undefined;
  let text: string;
  try {
    text = readText(file);
  } catch (err) {
    throw new ConfigError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, [], { cause: err });
  }
  try {
    return parseAdditiveManifestText(text, file, name);
  } catch (err) {
    throw fromValidation(err, `Invalid manifest of Additive '${name}'`);
  }
}
