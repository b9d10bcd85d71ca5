/**
 * The `file` cache (the embedded default): one JSON file per key under `CACHE_DIR`, so keys and
 * sessions survive a restart. The file name is the SHA-256 of the key (no key can escape the
 * folder or collide with another); the file holds `{ key, value, expires }`. Writes go to a
 * temp file and are renamed into place, so a reader sees the old or the new entry, never half.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkEntry, type Cache, type JsonValue } from './cache.js';

interface Stored {
  key: string;
  value: JsonValue;
  expires: number | null; // epoch ms
}

const SUFFIX = '.json';

/** A cache kept in files under `dir` (created on first write). */
export class FileCache implements Cache {
  readonly kind = 'file' as const;
  /** The folder holding the entries. */
  readonly dir: string;
  #made = false;

  constructor(dir: string) {
    this.dir = dir;
  }

  async get<T extends JsonValue = JsonValue>(key: string): Promise<T | undefined> {
    checkEntry(key);
    const stored = await this.#read(this.#file(key));
    return stored?.key === key ? (stored.value as T) : undefined;
  }

  async set(key: string, value: JsonValue, ttlSeconds?: number): Promise<void> {
    checkEntry(key, ttlSeconds);
    const stored: Stored = { key, value, expires: ttlSeconds ? Date.now() + ttlSeconds * 1000 : null };
    const json = JSON.stringify(stored);
    if (!this.#made) {
      await mkdir(this.dir, { recursive: true });
      this.#made = true;
    }
    const file = this.#file(key);
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, json, { mode: 0o600 }).catch(async (err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
        await mkdir(this.dir, { recursive: true }); // the folder was deleted while the app ran
        await writeFile(temp, json, { mode: 0o600 });
      });
      await rename(temp, file);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  async delete(key: string): Promise<boolean> {
    const existed = await this.has(key);
    await rm(this.#file(key), { force: true });
    return existed;
  }

  async has(key: string): Promise<boolean> {
    return (await this.get(key)) !== undefined;
  }

  async keys(prefix = ''): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const found = await Promise.all(
      names.filter((n) => n.endsWith(SUFFIX)).map(async (n) => (await this.#read(join(this.dir, n)))?.key),
    );
    return found.filter((k): k is string => k !== undefined && k.startsWith(prefix));
  }

  async close(): Promise<void> {}

  /** The file holding `key`'s entry (whether or not it exists); sessions stat it to trust a memory copy. */
  fileOf(key: string): string {
    return this.#file(key);
  }

  /** Resolves when the folder exists (or can be made) and is writable. */
  async ping(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await access(this.dir, constants.W_OK);
  }

  #file(key: string): string {
    return join(this.dir, createHash('sha256').update(key).digest('hex') + SUFFIX);
  }

  /** The entry in `file`, or undefined when missing, unreadable or expired (then removed). */
  async #read(file: string): Promise<Stored | undefined> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    let stored: Stored;
    try {
      stored = JSON.parse(text) as Stored;
    } catch {
      return undefined; // a foreign or damaged file is not an entry
    }
    if (typeof stored?.key !== 'string') return undefined;
    if (stored.expires !== null && stored.expires <= Date.now()) {
      await rm(file, { force: true });
      return undefined;
    }
    return stored;
  }
}
