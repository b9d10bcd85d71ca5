import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Cache } from './cache.js';
import { Containment } from './contain.js';
import { emptiedFolders } from './folders.js';
import { isFormattable, verbatim, type Formatter } from './format.js';
import { sha256 } from './hash.js';
import { APPLYING_FILE, findTempLeftovers, interruptedFolders } from './leftovers.js';
import { normalizeProjectPath } from './paths.js';
import { FILE_MODE, Planner, type ExplicitInput, type Plan, type PlanItem, type RenderInput } from './plan.js';
import { compareText, readRecord, RecordError, Store, type GenerationRecord, type RecordEntry } from './record.js';

/** Options of {@link Tree.render}. */
export interface RenderOptions {
  /** Which generator produced the file (kept in the generation record). */
  generator: string;
  /** File mode; default 0o644. Only the executable bit is merged with disk. */
  mode?: number;
  /** Run the formatter over it before planning (default true; `.hbs`, `.ini` and binaries are never formatted). */
  format?: boolean;
}

/** Options of {@link Tree.write}. */
export interface WriteOptions {
  /** File mode; default: the mode of the file on disk, else 0o644. */
  mode?: number;
  /**
   * `false`: the file is never kept in the generation record, which is committed to git (secrets,
   * and `fw.json`, the user's own input); an earlier entry is dropped. By default an explicit write
   * leaves the path's record entry as it is.
   */
  record?: boolean;
  /** Write only when the path does not exist yet (then it is the user's: an app config). */
  ifMissing?: boolean;
  /** A seed: written once when missing, reported as `seed` (starter catalogs); implies `ifMissing`. */
  seed?: boolean;
  /** Apply before every other file (`fw.json`), so a killed run leaves `fw generate` a complete input. */
  first?: boolean;
  /** The file holds a secret: a dry run and `--json` never show its bytes. */
  secret?: boolean;
  /** Why, in words for the user (shown next to the path). */
  reason?: string;
}

/** Options of a {@link Tree}. */
export interface TreeOptions {
  /** Formats every render before planning (default: {@link verbatim}). */
  formatter?: Formatter;
  /**
   * The generators this run answers for: a record entry of an owned generator that nothing renders
   * any more is deleted (or kept, if edited), and a render of another generator is ignored. Default:
   * the generators the run renders (a run that renders nothing answers for nothing). `fw generate`,
   * which renders the whole project, passes `'all'`.
   */
  owns?: 'all' | ((generator: string) => boolean);
  /**
   * Generators whose record entries the run never answers for, whatever `owns` says: an entry of
   * theirs is planned only when the run renders or writes its path, and is otherwise left as it is.
   * `fw generate` (owns `'all'`) cannot render what `fw make` wrote; a `fw make` run renders one
   * instance of a generator, and leaves the files of its other runs alone.
   */
  leaves?: (generator: string) => boolean;
  /** The run's name (`fw generate`, ...): recorded for explicit files without a render, shown in `--json`. */
  generatorId?: string;
  /** The generation record (default: read from `.fw/record.json`). */
  record?: GenerationRecord;
  /** Overwrite files fw did not write that are in the way of a render (`create project --force`). */
  overwriteUntracked?: boolean;
  /** Remove owned files that are no longer rendered even when edited (`fw destroy additive --force`). */
  removeEdited?: boolean;
  /** Write a render again whose file the user deleted (`fw make --force`); by default it stays deleted. */
  restoreDeleted?: boolean;
  /** `.fw/cache/`: wraps the formatter, and is saved by the apply step. */
  cache?: Cache;
}

interface RenderEntry {
  content: Buffer;
  generator: string;
  mode: number;
  format: boolean;
}

/** Everything a {@link Tree} needs from disk, read once when first needed. */
interface Context {
  planner: Planner;
  formatter: Formatter;
  store: Store;
  files: Record<string, RecordEntry>;
  /** Hashes the record names: their bytes are in the content store. */
  stored: Set<string>;
}

/** A render's formatted hash, and its bytes on demand. */
interface Resolved {
  sha: string;
  content: () => Promise<Buffer>;
}

const bytesOf = (content: string | Uint8Array): Buffer => (typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content));

/**
 * The in-memory tree every fw command writes into, in the manner of Nx's `Tree`: nothing touches
 * disk until its plan is applied, and reads see pending changes.
 *
 * - {@link render} records what a generator produces for a path ("theirs"): the planner merges it
 *   three ways with the file on disk and the record's base, so a user's edits are kept.
 * - {@link write} and {@link delete} record the final bytes of a file the command computed itself
 *   (a `fw.json` edit, a codemod of `fluid/app.ts`, an app config). On a rendered path a write
 *   replaces the merged result and the record keeps the render as the base.
 * - {@link read} answers what the file will hold once the plan is applied: the pending write, else
 *   the merge of the render with the disk, else the disk.
 *
 * Paths are project-relative POSIX paths, validated on the way in ({@link normalizeProjectPath}).
 */
export class Tree {
  readonly root: string;
  readonly #options: TreeOptions;
  readonly #owns: ((generator: string) => boolean) | undefined;
  readonly #generators = new Set<string>();
  readonly #renders = new Map<string, RenderEntry>();
  readonly #explicit = new Map<string, ExplicitInput>();
  readonly #resolved = new Map<string, Promise<Resolved>>();
  readonly #items = new Map<string, PlanItem | undefined>();
  #context: Promise<Context> | undefined;

  constructor(root: string, options: TreeOptions = {}) {
    this.root = path.resolve(root);
    this.#options = options;
    this.#owns = options.owns === 'all' ? () => true : options.owns;
  }

  /** Records the render of `file` by `options.generator`; ignored when the run does not answer for that generator. */
  render(file: string, content: string | Uint8Array, options: RenderOptions): void {
    if (this.#owns && !this.#owns(options.generator)) return;
    const key = normalizeProjectPath(file);
    if (!this.#generators.has(options.generator)) {
      // Ownership follows the rendered generators by default: what was planned may change.
      this.#generators.add(options.generator);
      if (!this.#owns) this.#items.clear();
    }
    this.#renders.set(key, { content: bytesOf(content), generator: options.generator, mode: options.mode ?? FILE_MODE, format: options.format ?? true });
    this.#resolved.delete(key);
    this.#items.delete(key);
  }

  /** The raw (unformatted) render of `file`, for renders that build on another (`package.json` workspaces). */
  rendered(file: string): Buffer | undefined {
    return this.#renders.get(normalizeProjectPath(file))?.content;
  }

  /** Every rendered path, sorted. */
  renderedPaths(): string[] {
    return [...this.#renders.keys()].sort(compareText);
  }

  /** Drops the render of `file` (a render the run produced but must not write, e.g. `fw.json`). */
  unrender(file: string): void {
    const key = normalizeProjectPath(file);
    this.#renders.delete(key);
    this.#resolved.delete(key);
    this.#items.delete(key);
  }

  /** Records the final bytes of `file` (see {@link WriteOptions}). */
  write(file: string, content: string | Uint8Array, options: WriteOptions = {}): void {
    const key = normalizeProjectPath(file);
    this.#explicit.set(key, {
      kind: 'write',
      content: bytesOf(content),
      ...(options.mode === undefined ? {} : { mode: options.mode }),
      ...(options.record === undefined ? {} : { record: options.record }),
      ifMissing: (options.ifMissing ?? false) || (options.seed ?? false),
      seed: options.seed ?? false,
      first: options.first ?? false,
      secret: options.secret ?? false,
      ...(options.reason === undefined ? {} : { reason: options.reason }),
    });
    this.#items.delete(key);
  }

  /** Records the removal of `file` (nothing when it is already gone); its record entry is dropped. */
  delete(file: string, options: { reason?: string; first?: boolean } = {}): void {
    const key = normalizeProjectPath(file);
    this.#explicit.set(key, { kind: 'delete', first: options.first ?? false, ...(options.reason === undefined ? {} : { reason: options.reason }) });
    this.#items.delete(key);
  }

  /** How the path will be planned (merged, created, ...), or `undefined` when the run leaves it alone. */
  async item(file: string): Promise<PlanItem | undefined> {
    const key = normalizeProjectPath(file);
    if (this.#items.has(key)) return this.#items.get(key);
    const context = await this.#load();
    const render = await this.#render(key, context);
    const explicit = this.#explicit.get(key);
    const recorded = context.files[key];
    const entry = recorded && (render || explicit || this.#answersFor(recorded.generator)) ? recorded : undefined;
    const item = await context.planner.plan({ path: key, ...(render ? { render } : {}), ...(explicit ? { explicit } : {}), ...(entry ? { entry } : {}) });
    this.#items.set(key, item);
    return item;
  }

  /** What `file` will hold once the plan is applied; `undefined` when it will not exist. */
  async read(file: string): Promise<Buffer | undefined> {
    const key = normalizeProjectPath(file);
    const explicit = this.#explicit.get(key);
    if (explicit?.kind === 'delete') return undefined;
    if (explicit && !explicit.ifMissing) return explicit.content;
    const item = await this.item(key);
    if (!item) return (await this.#load()).planner.read(key)?.bytes;
    return item.remove ? undefined : (item.write ?? item.disk);
  }

  /** {@link read} as UTF-8 text. */
  async readText(file: string): Promise<string | undefined> {
    return (await this.read(file))?.toString('utf8');
  }

  /** Whether `file` will exist once the plan is applied. */
  async exists(file: string): Promise<boolean> {
    return (await this.read(file)) !== undefined;
  }

  /** The generation record the run plans against. */
  async record(): Promise<Record<string, RecordEntry>> {
    return (await this.#load()).files;
  }

  /**
   * Plans every path the run touches: each render, each explicit change and each owned record
   * entry, then the folders applying it empties (`emptiedFolders`, with those an interrupted run
   * left to remove). Renders are formatted first, all at once. Writes nothing: this is the whole
   * of a dry run.
   */
  async plan(): Promise<Plan> {
    const context = await this.#load();
    const owned = Object.entries(context.files).filter(([, e]) => this.#answersFor(e.generator)).map(([file]) => file);
    const paths = new Set<string>([...this.#renders.keys(), ...this.#explicit.keys(), ...owned]);
    await this.#resolve([...this.#renders.keys()], context);
    const items: PlanItem[] = [];
    for (const file of [...paths].sort(compareText)) {
      const item = await this.item(file);
      if (item) items.push(item);
    }
    const ownsAll = this.#options.owns === 'all';
    // A killed run's temp files next to the planned files are removed before anything else.
    const interrupted = existsSync(path.join(this.root, APPLYING_FILE));
    const gone = interrupted ? findTempLeftovers(this.root, items.map((i) => i.path)) : [];
    return {
      root: this.root,
      generatorId: this.#options.generatorId ?? 'fw',
      items,
      prune: emptiedFolders(this.root, items, { pending: interruptedFolders(this.root), gone }),
      ownsAll,
      ...(this.#options.cache ? { cache: this.#options.cache } : {}),
    };
  }

  #answersFor(generator: string): boolean {
    if (this.#options.leaves?.(generator)) return false;
    return this.#owns ? this.#owns(generator) : this.#generators.has(generator);
  }

  #load(): Promise<Context> {
    this.#context ??= (async () => {
      const record = this.#options.record ?? (await readRecord(this.root));
      const files = record?.files ?? {};
      for (const file of Object.keys(files)) {
        if (normalizeProjectPath(file) !== file) throw new RecordError(`.fw/record.json: path "${file}" is not normalised (expected "${normalizeProjectPath(file)}")`);
      }
      const store = new Store(this.root);
      const planner = new Planner(
        this.root,
        {
          generatorId: this.#options.generatorId ?? 'fw',
          overwriteUntracked: this.#options.overwriteUntracked ?? false,
          removeEdited: this.#options.removeEdited ?? false,
          restoreDeleted: this.#options.restoreDeleted ?? false,
        },
        store,
        new Containment(this.root),
      );
      const formatter = this.#options.formatter ?? verbatim;
      return { planner, formatter, store, files, stored: new Set(Object.values(files).map((e) => e.sha256)) };
    })();
    return this.#context;
  }

  /**
   * Resolves the renders of `files` not resolved yet: a render the cache knows (same path and
   * bytes, same prettier config and fw version) gets its formatted hash without formatting, its
   * bytes read from the content store only if needed; the others are formatted in one call.
   */
  async #resolve(files: readonly string[], context: Context): Promise<void> {
    const { formatter } = context;
    const cache = this.#options.cache;
    const misses: Array<[string, RenderEntry]> = [];
    const known = (bytes: Buffer): Resolved => ({ sha: sha256(bytes), content: async () => bytes });
    for (const file of files) {
      const render = this.#renders.get(file);
      if (!render || this.#resolved.has(file)) continue;
      if (!render.format || !isFormattable(file, render.content)) {
        this.#resolved.set(file, Promise.resolve(known(render.content)));
        continue;
      }
      const source = { path: file, content: render.content };
      const hash = cache?.lookup(source, formatter.exact, (h) => context.stored.has(h));
      if (hash === undefined) {
        misses.push([file, render]);
        continue;
      }
      const content = async (): Promise<Buffer> =>
        context.store.read(hash) ?? cache?.blob(hash) ?? (await formatter.format([source]))[0]!;
      this.#resolved.set(file, Promise.resolve({ sha: hash, content }));
    }
    if (misses.length === 0) return;
    const done = formatter.format(misses.map(([file, r]) => ({ path: file, content: r.content })));
    misses.forEach(([file, r], i) => {
      const one = done.then((out) => {
        cache?.learn({ path: file, content: r.content }, out[i]!, formatter.exact);
        return known(out[i]!);
      });
      one.catch(() => undefined); // a failure is thrown by the await below, once
      this.#resolved.set(file, one);
    });
    await done;
  }

  async #render(file: string, context: Context): Promise<RenderInput | undefined> {
    const render = this.#renders.get(file);
    if (!render) return undefined;
    await this.#resolve([file], context);
    const resolved = await this.#resolved.get(file)!;
    return { ...resolved, generator: render.generator, mode: render.mode };
  }
}
