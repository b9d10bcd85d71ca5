import { readFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { OceanError } from './errors.js';
import { keyPath, OceanIndexSchema, type OceanIndex } from './schema.js';

/**
 * The embedded default index shipped with create-fw-app (`generators/ocean-index.json`). The
 * same relative path works from `generators/src/ocean/` (tests, tsx) and `generators/dist/ocean/`.
 */
export const DEFAULT_INDEX_URL: URL = new URL('../../ocean-index.json', import.meta.url);

/** How long a registry request may take before it counts as unreachable, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** Where the index URL came from, so error messages can say which setting to fix. */
export type IndexSource = 'FW_OCEAN_URL' | 'fw.json' | 'default' | 'argument';

/** Options for finding and loading the Ocean index. */
export interface LoadIndexOptions {
  /** Project root; its `fw.json` `config.FW_OCEAN_URL` is read when the env var is unset. */
  projectRoot?: string;
  /** Environment to read `FW_OCEAN_URL` from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** An explicit index URL, overriding env, fw.json and the default. */
  url?: string | URL;
  /** Request timeout in milliseconds (default {@link DEFAULT_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/** A located index URL and which setting named it. */
export interface IndexLocation {
  url: URL;
  source: IndexSource;
}

/**
 * Finds the index URL: an explicit `url`, else the `FW_OCEAN_URL` environment variable, else
 * `fw.json` `config.FW_OCEAN_URL`, else the embedded default index file. A value may be an
 * `http:`, `https:` or `file:` URL, or a filesystem path (relative to the project root).
 */
export async function locateIndex(options: LoadIndexOptions = {}): Promise<IndexLocation> {
  const root = resolve(options.projectRoot ?? process.cwd());
  if (options.url !== undefined) return { url: toUrl(String(options.url), root, 'argument'), source: 'argument' };
  const fromEnv = (options.env ?? process.env).FW_OCEAN_URL;
  if (fromEnv !== undefined && fromEnv !== '') return { url: toUrl(fromEnv, root, 'FW_OCEAN_URL'), source: 'FW_OCEAN_URL' };
  const fromConfig = await readConfiguredUrl(root);
  if (fromConfig !== undefined) return { url: toUrl(fromConfig, root, 'fw.json config.FW_OCEAN_URL'), source: 'fw.json' };
  return { url: DEFAULT_INDEX_URL, source: 'default' };
}

/**
 * Loads and validates the Ocean index from wherever {@link locateIndex} points. Throws
 * {@link OceanError} naming the URL when it is unreachable (or times out), answers with a
 * non-200 status, is not JSON, or does not match the index schema (with the key path).
 */
export async function loadIndex(options: LoadIndexOptions = {}): Promise<OceanIndex> {
  const { url } = await locateIndex(options);
  const text = await fetchText(url, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  return parseIndex(text, url.href);
}

/** Parses and validates index JSON; `where` (a URL or file) is named in every error. */
export function parseIndex(text: string, where: string): OceanIndex {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new OceanError(`Ocean index at ${where} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = OceanIndexSchema.safeParse(data);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${keyPath(issue.path)}: ${issue.message}`);
    throw new OceanError(`Ocean index at ${where} does not match the index schema:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

async function fetchText(url: URL, timeoutMs: number): Promise<string> {
  if (url.protocol === 'file:') {
    try {
      return await readFile(fileURLToPath(url), 'utf8');
    } catch (error) {
      throw new OceanError(`Ocean index at ${url.href} cannot be read: ${(error as Error).message}`);
    }
  }
  let response: Response;
  try {
    response = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json' },
    });
  } catch (error) {
    const err = error as Error & { cause?: Error };
    if (err.name === 'TimeoutError') {
      throw new OceanError(`Ocean registry at ${url.href} did not answer within ${timeoutMs} ms`);
    }
    const reason = err.cause?.message ?? err.message;
    throw new OceanError(`Ocean registry at ${url.href} is unreachable: ${reason}`);
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new OceanError(
      `Ocean registry at ${url.href} answered ${response.status} ${response.statusText}, expected 200 with the index JSON`,
    );
  }
  try {
    return await response.text();
  } catch (error) {
    const err = error as Error;
    const reason = err.name === 'TimeoutError' ? `did not finish within ${timeoutMs} ms` : err.message;
    throw new OceanError(`Ocean registry at ${url.href} failed while sending the index: ${reason}`);
  }
}

function toUrl(value: string, root: string, setting: string): URL {
  if (/^[a-z][a-z0-9+.-]*:/i.test(value) && !isAbsolute(value)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new OceanError(`${setting} is not a valid URL: "${value}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'file:') {
      throw new OceanError(`${setting} must be an http:, https: or file: URL or a path, got "${value}"`);
    }
    return url;
  }
  return pathToFileURL(resolve(root, value));
}

async function readConfiguredUrl(root: string): Promise<string | undefined> {
  const file = join(root, 'fw.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new OceanError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (error) {
    throw new OceanError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  const value = isRecord(config) && isRecord(config.config) ? config.config.FW_OCEAN_URL : undefined;
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') {
    throw new OceanError(`${file}: config.FW_OCEAN_URL must be a non-empty string, got ${JSON.stringify(value)}`);
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
