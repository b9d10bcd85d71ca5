import { normalizeProjectPath } from './paths.js';

/** Default mode of a generated file. */
export const FILE_MODE = 0o644;
/** Mode of a generated executable (scripts, bins). */
export const EXECUTABLE_MODE = 0o755;

/** Options of one intended write. */
export interface WriteOptions {
  /** Which generator or blueprint produced the file (kept in the generation record). */
  generator: string;
  /** File mode; default 0o644. Only the executable bit is compared with disk. */
  mode?: number;
  /** Prettier-format by extension before planning (default true; `.hbs`, `.ini`, binaries are never formatted). */
  format?: boolean;
  /**
   * Keep the written bytes in the generation record (default true). Files holding secrets
   * (`app_configs/*.ini`) pass false: the record is meant to be committed to git.
   */
  record?: boolean;
}

/** One intended write in a {@link FileTree}. */
export interface WriteEntry {
  kind: 'write';
  path: string;
  content: Buffer;
  generator: string;
  mode: number;
  format: boolean;
  record: boolean;
}

/** One intended delete in a {@link FileTree}. */
export interface DeleteEntry {
  kind: 'delete';
  path: string;
  generator: string;
}

/** An entry of a {@link FileTree}. */
export type TreeEntry = WriteEntry | DeleteEntry;

/**
 * The in-memory tree of intended writes and deletes every generator writes into. Nothing
 * touches disk until the tree is planned and committed. Paths are project-relative POSIX paths,
 * validated on the way in (see {@link normalizeProjectPath}); the last operation on a path wins.
 */
export class FileTree {
  readonly #entries = new Map<string, TreeEntry>();

  /** Records an intended write of `content` (UTF-8 if a string) at `path`. */
  write(path: string, content: string | Uint8Array, options: WriteOptions): void {
    const key = normalizeProjectPath(path);
    this.#entries.set(key, {
      kind: 'write',
      path: key,
      content: typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content),
      generator: options.generator,
      mode: options.mode ?? FILE_MODE,
      format: options.format ?? true,
      record: options.record ?? true,
    });
  }

  /** Records an intended delete of `path` (a no-op at commit if the file is already gone). */
  delete(path: string, options: { generator: string }): void {
    const key = normalizeProjectPath(path);
    this.#entries.set(key, { kind: 'delete', path: key, generator: options.generator });
  }

  /** Drops any entry for `path` (neither written nor deleted). Returns the entry it dropped. */
  forget(path: string): TreeEntry | undefined {
    const key = normalizeProjectPath(path);
    const entry = this.#entries.get(key);
    this.#entries.delete(key);
    return entry;
  }

  /** The entry for `path`, if any. */
  get(path: string): TreeEntry | undefined {
    return this.#entries.get(normalizeProjectPath(path));
  }

  /** Whether the tree has an entry for `path`. */
  has(path: string): boolean {
    return this.#entries.has(normalizeProjectPath(path));
  }

  /** Every entry, sorted by path. */
  entries(): TreeEntry[] {
    return [...this.#entries.values()].sort((a, b) => compareText(a.path, b.path));
  }

  /** Number of entries. */
  get size(): number {
    return this.#entries.size;
  }
}

/** Plain code-unit comparison, so ordering never depends on the locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
