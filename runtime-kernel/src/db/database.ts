import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseError } from './errors.js';
import { lazyAdapter, type DriverAdapterFactory } from './adapter.js';
import { databaseUris, type BindUri } from './uris.js';

/** What the kernel needs of a generated PrismaClient: connect and disconnect. */
export interface PrismaClientLike {
  $connect(): PromiseLike<void>;
  $disconnect(): PromiseLike<void>;
}

/**
 * A generated PrismaClient class (`import { PrismaClient } from '../generated/prisma/main/client.ts'`):
 * constructed with a driver adapter. Prisma 7 generates one class per schema, so each bind has
 * its own.
 */
export type PrismaClientClass = new (options: { adapter?: DriverAdapterFactory }) => PrismaClientLike;

/** Generated client classes by bind name. */
export type ClientClasses = Record<string, PrismaClientClass>;

/** Options of {@link Database}. */
export interface DatabaseOptions<C extends ClientClasses> {
  /** `DATABASE_BINDS`: bind name → URL (any scheme {@link databaseUris} accepts). */
  binds: Readonly<Record<string, string>>;
  /** Project root: relative SQLite paths resolve against it. */
  root: string | URL;
  /** The app's generated PrismaClient class for each bind it uses. */
  clients: C;
}

/**
 * The app's databases: one PrismaClient per bind, created on first `bind()` and connected by
 * Prisma on first query, through a driver adapter (libSQL for SQLite, pg for PostgreSQL).
 *
 * `dispose()` closes every bind (the reference's `SQLAlchemy.dispose()` shutdown hook). It is
 * idempotent, and a disposed bind can be used again: the same client reconnects on its next query.
 *
 * @example
 * import { PrismaClient as Main } from '../generated/prisma/main/client.ts';
 * const db = new Database({ binds: fluid.config.DATABASE_BINDS, root: fluid.root, clients: { main: Main } });
 * const users = await db.bind('main').user.findMany();
 */
export class Database<C extends ClientClasses> {
  /** Every configured bind's normalised URL (also binds without a client class). */
  readonly uris: Readonly<Record<string, BindUri>>;
  readonly #classes: C;
  readonly #root: string;
  readonly #clients = new Map<string, PrismaClientLike>();
  #disposing: Promise<void> | undefined;

  /** Normalises every URL now, so a bad bind fails at startup, not at the first query. */
  constructor(options: DatabaseOptions<C>) {
    this.uris = databaseUris(options.binds, options.root);
    for (const name of Object.keys(options.clients)) {
      if (!this.uris[name]) {
        throw new DatabaseError(
          name,
          `Database: a client class was given for bind "${name}", but DATABASE_BINDS has no such bind (binds: ${bindList(this.uris)})`,
        );
      }
    }
    this.#classes = options.clients;
    this.#root = resolve(options.root instanceof URL || options.root.startsWith('file:') ? fileURLToPath(options.root) : options.root);
  }

  /** The names of the binds that have a client class. */
  get names(): (keyof C & string)[] {
    return Object.keys(this.#classes);
  }

  /**
   * The PrismaClient of a bind, created on first call (no connection is opened until the first
   * query). Always the same object for the same bind, also after `dispose()`.
   */
  bind<K extends keyof C & string>(name: K): InstanceType<C[K]> {
    let client = this.#clients.get(name);
    if (!client) {
      const Client = this.#classes[name];
      const uri = this.uris[name];
      if (!Client || !uri) {
        throw new DatabaseError(name, `Database: unknown bind "${name}" (binds with a client: ${this.names.join(', ') || 'none'})`);
      }
      client = new Client({ adapter: lazyAdapter(uri, this.#root) });
      this.#clients.set(name, client);
    }
    return client as InstanceType<C[K]>;
  }

  /**
   * Closes every bind's connections (`$disconnect`). Idempotent: a second call while the first
   * runs shares it; a call with nothing open does nothing. Each bind is closed even if another
   * fails; failures are reported together in one `DatabaseError` naming the binds.
   */
  dispose(): Promise<void> {
    this.#disposing ??= this.#disposeAll().finally(() => {
      this.#disposing = undefined;
    });
    return this.#disposing;
  }

  async #disposeAll(): Promise<void> {
    const entries = [...this.#clients];
    const results = await Promise.allSettled(entries.map(([, client]) => client.$disconnect()));
    const failed = results.flatMap((result, i) => (result.status === 'rejected' ? [{ bind: entries[i]![0], reason: result.reason }] : []));
    if (failed.length > 0) {
      const detail = failed.map((f) => `${f.bind}: ${f.reason instanceof Error ? f.reason.message : String(f.reason)}`).join('; ');
      throw new DatabaseError(failed[0]!.bind, `Database: closing failed for ${detail}`, { cause: failed[0]!.reason });
    }
  }
}

function bindList(uris: Readonly<Record<string, BindUri>>): string {
  return Object.keys(uris).join(', ') || 'none';
}
