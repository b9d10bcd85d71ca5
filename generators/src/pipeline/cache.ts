import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './atomic.js';
import { sha256 } from './hash.js';
import type { FormatConfig, Formatter, SourceFile } from './format.js';

/** The cache folder, relative to the project root. Never committed: it ignores itself. */
export const CACHE_DIR = '.fw/cache';
const FORMAT_FILE = `${CACHE_DIR}/format.json`;
const RENDERS_FILE = `${CACHE_DIR}/renders.json`;
const TEMPLATES_FILE = `${CACHE_DIR}/templates.json`;
const IGNORE_FILE = `${CACHE_DIR}/.gitignore`;
const IGNORE = '# Written by fw: a local cache (formatted renders, expensive renders), never committed.\n*\n';

interface FormatFile {
  version: 1;
  key: string;
  /** Hash of (path, raw render) → hash of the formatted bytes. */
  entries: Record<string, string>;
  /** Formatted bytes (base64) the content store does not hold, by hash. */
  blobs: Record<string, string>;
}

type RendersFile = Record<string, { key: string; value: unknown }>;

/** Precompiled blueprint templates, by a hash of their source, options and Handlebars version. */
type TemplatesFile = Record<string, string>;

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined; // missing or unreadable: an empty cache
  }
}

/** Writes `.fw/cache/.gitignore` (the folder ignores itself) when it is missing. */
export async function ignoreCache(projectRoot: string): Promise<void> {
  const file = path.join(projectRoot, IGNORE_FILE);
  if (!existsSync(file)) await writeFileAtomic(file, Buffer.from(IGNORE), 0o644, IGNORE_FILE);
}

/**
 * `.fw/cache/`: what makes a no-op `fw generate` cheap, kept out of git (`.fw/cache/.gitignore`).
 *
 * - **Formatted renders**: the hash of (path, raw render) → the hash of prettier's output, under a
 *   key naming the fw version and the prettier config ({@link formatConfig}); another key empties
 *   it. The bytes come from the content store (a recorded render is its own base) or, for the few
 *   renders the record does not hold, from the cache file itself.
 * - **Renders** too slow to repeat (typesafe-i18n's generator, the validation of `fw.json`): a
 *   value per name and input key.
 * - **Templates**: the blueprints precompiled by Handlebars, so a run loads its runtime only.
 *
 * It is read once per run and written only by the apply step, and only when it learned something;
 * a dry run never writes it. `FW_CACHE=off` turns it off (the property tests compare both).
 */
export class Cache {
  readonly enabled: boolean;
  readonly config: FormatConfig;
  readonly #loaded = new Map<string, string>();
  readonly #used = new Map<string, string>();
  readonly #blobs = new Map<string, Buffer>();
  readonly #renders: RendersFile;
  readonly #templates: Map<string, string>;
  #dirty = false;

  private constructor(enabled: boolean, config: FormatConfig, format: FormatFile | undefined, renders: RendersFile, templates: TemplatesFile) {
    this.enabled = enabled;
    this.config = config;
    this.#renders = renders;
    this.#templates = new Map(Object.entries(templates));
    if (format?.version === 1 && format.key === config.key) {
      for (const [k, v] of Object.entries(format.entries)) this.#loaded.set(k, v);
      for (const [k, v] of Object.entries(format.blobs)) this.#blobs.set(k, Buffer.from(v, 'base64'));
    }
  }

  /** Reads the cache of a project (an empty one when it has none, or when `enabled` is false). */
  static load(projectRoot: string, config: FormatConfig, enabled = true): Cache {
    const format = enabled ? readJson<FormatFile>(path.join(projectRoot, FORMAT_FILE)) : undefined;
    const renders = (enabled ? readJson<RendersFile>(path.join(projectRoot, RENDERS_FILE)) : undefined) ?? {};
    const templates = (enabled ? readJson<TemplatesFile>(path.join(projectRoot, TEMPLATES_FILE)) : undefined) ?? {};
    return new Cache(enabled, config, format, renders, templates);
  }

  /** Whether the run learned something the next one can use. */
  get dirty(): boolean {
    return this.#dirty;
  }

  /**
   * The hash of the formatted bytes of a render seen before (same path, same raw bytes, same
   * key), when they can be had without formatting: `available` says whether the content store or
   * the cache file holds them. A formatter that is not exact is cached only under fw's default
   * config (see {@link Formatter.exact}).
   */
  lookup(file: SourceFile, exact: boolean, available: (hash: string) => boolean): string | undefined {
    if (!this.#usable(exact)) return undefined;
    const key = sha256(file.path, file.content);
    const hash = this.#loaded.get(key) ?? this.#used.get(key);
    if (hash === undefined || !(available(hash) || this.#blobs.has(hash))) return undefined;
    this.#used.set(key, hash);
    return hash;
  }

  /** Remembers what the formatter made of a render. */
  learn(file: SourceFile, formatted: Buffer, exact: boolean): void {
    if (!this.#usable(exact)) return;
    const hash = sha256(formatted);
    this.#used.set(sha256(file.path, file.content), hash);
    this.#blobs.set(hash, formatted);
    this.#dirty = true;
  }

  /** Formatted bytes the cache file holds (those the content store does not), by hash. */
  blob(hash: string): Buffer | undefined {
    return this.#blobs.get(hash);
  }

  #usable(exact: boolean): boolean {
    return this.enabled && (exact || this.config.isDefault);
  }

  /** The precompiled templates of the blueprints (a store for the renderer). */
  templates(): { get(key: string): string | undefined; set(key: string, spec: string): void } {
    return {
      get: (key) => (this.enabled ? this.#templates.get(key) : undefined),
      set: (key, spec) => {
        if (!this.enabled || this.#templates.get(key) === spec) return;
        this.#templates.set(key, spec);
        this.#dirty = true;
      },
    };
  }

  /** A cached render: the value stored under `name` when its input key was `key`. */
  render<T>(name: string, key: string): T | undefined {
    const entry = this.enabled ? this.#renders[name] : undefined;
    return entry?.key === key ? (entry.value as T) : undefined;
  }

  /** Stores a render (JSON-serialisable) under `name` for the input key `key`. */
  setRender(name: string, key: string, value: unknown): void {
    if (!this.enabled) return;
    this.#renders[name] = { key, value };
    this.#dirty = true;
  }

  /**
   * Writes the cache (the apply step calls this; nothing else writes it). `inStore` says which
   * hashes the content store holds after the run, so only the other formatted bytes are kept in
   * the cache file. With `prune` (a run that rendered the whole project) entries this run did not
   * use are dropped; otherwise they are kept alongside.
   */
  async save(projectRoot: string, inStore: (hash: string) => boolean, prune: boolean): Promise<void> {
    if (!this.enabled) return;
    if (prune && !this.#dirty && this.#used.size < this.#loaded.size) this.#dirty = true;
    if (!this.#dirty) return;
    const entries = new Map(prune ? this.#used : [...this.#loaded, ...this.#used]);
    const blobs: Record<string, string> = {};
    for (const hash of new Set(entries.values())) {
      const bytes = this.#blobs.get(hash);
      if (!inStore(hash) && bytes) blobs[hash] = bytes.toString('base64');
    }
    const format: FormatFile = { version: 1, key: this.config.key, entries: Object.fromEntries(entries), blobs };
    const write = (file: string, text: string): Promise<void> => writeFileAtomic(path.join(projectRoot, file), Buffer.from(text), 0o644, file);
    await ignoreCache(projectRoot);
    await write(FORMAT_FILE, `${JSON.stringify(format)}\n`);
    await write(RENDERS_FILE, `${JSON.stringify(this.#renders)}\n`);
    // Templates are keyed by their source: a few stale ones after an fw upgrade cost nothing.
    await write(TEMPLATES_FILE, `${JSON.stringify(Object.fromEntries(this.#templates))}\n`);
    this.#dirty = false;
  }
}
