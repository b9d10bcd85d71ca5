/** The `memory` cache: one process, lost on restart. Expired entries are dropped when touched. */
import { checkEntry, type Cache, type JsonValue } from './cache.js';

interface Entry {
  json: string;
  expires: number; // epoch ms; Infinity when the entry never expires
}

/** An in-process cache (values are copied in and out through JSON, like the other backends). */
export class MemoryCache implements Cache {
  readonly kind = 'memory' as const;
  readonly #entries = new Map<string, Entry>();

  async get<T extends JsonValue = JsonValue>(key: string): Promise<T | undefined> {
    const entry = this.#live(key);
    return entry ? (JSON.parse(entry.json) as T) : undefined;
  }

  async set(key: string, value: JsonValue, ttlSeconds?: number): Promise<void> {
    checkEntry(key, ttlSeconds);
    const json = JSON.stringify(value);
    if (json === undefined) throw new TypeError(`cache: the value for '${key}' is not JSON`);
    this.#entries.set(key, { json, expires: ttlSeconds ? Date.now() + ttlSeconds * 1000 : Infinity });
  }

  async delete(key: string): Promise<boolean> {
    const existed = this.#live(key) !== undefined;
    this.#entries.delete(key);
    return existed;
  }

  async has(key: string): Promise<boolean> {
    return this.#live(key) !== undefined;
  }

  async keys(prefix = ''): Promise<string[]> {
    const out: string[] = [];
    for (const key of [...this.#entries.keys()]) if (key.startsWith(prefix) && this.#live(key)) out.push(key);
    return out;
  }

  async close(): Promise<void> {
    this.#entries.clear();
  }

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.expires <= Date.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }
}
