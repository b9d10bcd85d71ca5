import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseProjectConfig, type ProjectConfig } from '@fw/schemas';
import { CliError } from '../cli/errors.js';
import { writeFileAtomic } from '../engine/atomic.js';

/** A project's `fw.json`: its validated content and its text as on disk. */
export interface LoadedConfig {
  /** Absolute project root. */
  root: string;
  /** The validated config. */
  config: ProjectConfig;
  /** The file's text, for edits that keep every other key as written. */
  text: string;
}

/**
 * Reads and validates `<root>/fw.json`. Bad JSON or a bad key is a {@link CliError} naming the
 * file (and the key path, from `parseProjectConfig`).
 */
export async function loadConfig(root: string): Promise<LoadedConfig> {
  const file = path.join(root, 'fw.json');
  const text = await readFile(file, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CliError(`fw.json is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    return { root, config: parseProjectConfig(json, 'fw.json'), text };
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * `fw.json` text with its `additives` list replaced by `edit(list)`. Every other key keeps its
 * value and order; the file is written back as two-space JSON with a final newline.
 */
export function editAdditives(text: string, edit: (list: readonly string[]) => string[]): string {
  const json = JSON.parse(text) as Record<string, unknown>;
  const list = Array.isArray(json.additives) ? (json.additives as unknown[]).filter((a): a is string => typeof a === 'string') : [];
  json.additives = edit(list);
  return `${JSON.stringify(json, null, 2)}\n`;
}

/** Writes `fw.json` atomically (old or new, never half). */
export async function writeConfig(root: string, text: string): Promise<void> {
  await writeFileAtomic(path.join(root, 'fw.json'), Buffer.from(text, 'utf8'), 0o644, 'fw.json');
}
