import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../core/errors.js';
import { DatabaseError } from './errors.js';
import { DEFAULT_TIMEOUTS, lazyAdapter, type BindTimeouts, type DriverAdapterFactory } from './adapter.js';
import { MigrationWatch, migrationsDir, PendingMigrationsError } from './migrations.js';
import { BindWatch, DatabaseUnavailableError } from './outage.js';
import { databaseUris, type BindUri } from './uris.js';

/** What the kernel needs of a generated PrismaClient: connect and disconnect. */
export interface PrismaClientLike {
  /** Connects to the database. */
  $connect(): PromiseLike<void>;
  /** Closes the connection. */
  $disconnect(): PromiseLike<void>;
}

/**
 * A generated PrismaClient class (`import { PrismaClient } from '../generated/prisma/main/client.ts'`):
 * constructed with a driver adapter. Prisma 7 generates one class per schema, so each bind has
 * its own.
 */
// The parameters are `never` so that every generated class fits as it is: Prisma's constructor
// wants its own `SqlDriverAdapterFactory`, which fw passes (a lazy one) without naming it, so
// @fw/kernel/db type-checks with no Prisma package installed.
export type PrismaClientClass = new (...args: never) => PrismaClientLike;

/** The client a {@link PrismaClientClass} makes (`InstanceType` cannot see through `never` parameters). */
export type ClientOf<T> = T extends new (...args: never) => infer R ? R : never;

/** How the kernel constructs a generated client: with its driver adapter. */
type Construct = new (options: { adapter: DriverAdapterFactory }) => PrismaClientLike;

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
  /**
   * Timeouts of the PostgreSQL binds, in seconds. What is left out comes from `registerDatabase`
   * (the app's `DATABASE_CONNECT_TIMEOUT` / `DATABASE_STATEMENT_TIMEOUT`), else 5 s and 30 s.
   */
  timeouts?: Partial<BindTimeouts>;
  /** Where a bind's outage and recovery are logged (one line each); default the app's logger through `registerDatabase`. */
  logger?: Logger;
}

/** What `bind()` made for one bind. */
interface Bound {
  /** The generated client itself (what `dispose()` disconnects). */
  readonly base: PrismaClientLike;
  /** What `bind()` hands out: the client with outages turned into 503s. */
  readonly guarded: PrismaClientLike;
  readonly watch: BindWatch;
  /** Whether the bind's shipped migrations are applied. */
  readonly migrations: MigrationWatch;
}

/**
 * The app's databases: one PrismaClient per bind, created on first `bind()` and connected by
 * Prisma on first query, through a driver adapter (libSQL for SQLite, pg for PostgreSQL).
 *
 * `dispose()` closes every bind (the reference's `SQLAlchemy.dispose()` shutdown hook). It is
 * idempotent, and a disposed bind can be used again: the same client reconnects on its next query.
 *
 * Outages: a query that finds its database unreachable, frozen past the statement timeout, or
 * out of connections fails with `DatabaseUnavailableError` (a 503 with `Retry-After`, outage.ts);
 * the bind's outage and its recovery are logged once each. Other errors are Prisma's own.
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
  readonly #clients = new Map<string, Bound>();
  #timeouts: BindTimeouts;
  #explicit: Partial<BindTimeouts>;
  #logger: Logger | undefined;
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
    this.#explicit = { ...options.timeouts };
    this.#timeouts = { ...DEFAULT_TIMEOUTS, ...this.#explicit };
    this.#logger = options.logger;
    this.#root = resolve(options.root instanceof URL || options.root.startsWith('file:') ? fileURLToPath(options.root) : options.root);
  }

  /** The names of the binds that have a client class. */
  get names(): (keyof C & string)[] {
    return Object.keys(this.#classes);
  }

  /**
   * Fills in what the constructor was not given: timeouts and the logger (`registerDatabase`
   * passes the app's config and logger). Timeouts apply to connections opened afterwards.
   */
  configure(options: { timeouts?: Partial<BindTimeouts>; logger?: Logger }): this {
    this.#timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts, ...this.#explicit };
    this.#logger ??= options.logger;
    return this;
  }

  /** The timeouts PostgreSQL binds open their connections with, in seconds. */
  get timeouts(): BindTimeouts {
    return this.#timeouts;
  }

  /**
   * The PrismaClient of a bind, created on first call (no connection is opened until the first
   * query). Always the same object for the same bind, also after `dispose()`. It is the
   * generated client extended (Prisma's `$extends`) so that an outage fails as
   * `DatabaseUnavailableError`; its type and API are the generated client's.
   */
  bind<K extends keyof C & string>(name: K): ClientOf<C[K]> {
    let bound = this.#clients.get(name);
    if (!bound) {
      const Client = this.#classes[name];
      const uri = this.uris[name];
      if (!Client || !uri) {
        throw new DatabaseError(name, `Database: unknown bind "${name}" (binds with a client: ${this.names.join(', ') || 'none'})`);
      }
      const base = new (Client as unknown as Construct)({ adapter: lazyAdapter(uri, this.#root, () => this.#timeouts) });
      const probe = rawQuery(base);
      const watch = new BindWatch(name, () => this.#logger, probe && (() => probe('SELECT 1')));
      const migrations = new MigrationWatch(name, uri.provider, migrationsDir(this.#root, name), () => this.#logger);
      bound = { base, guarded: guard(base, watch), watch, migrations };
      this.#clients.set(name, bound);
    }
    return bound.guarded as ClientOf<C[K]>;
  }

  /**
   * Resolves when the bind answers `SELECT 1` and its database has applied every migration the
   * app ships (its readiness check). An outage rejects with `DatabaseUnavailableError`; shipped
   * migrations the database lacks (`fw migrate deploy` not run yet) reject with
   * `PendingMigrationsError` naming them. While the bind is known to be down it rejects at once
   * without a query: frequent readiness probes would otherwise pile connection attempts onto a
   * frozen server, which then takes longer to recover (its own probe, one query a second, notices
   * the recovery). A client without raw queries resolves at once.
   */
  async ping(name: keyof C & string): Promise<void> {
    const client = this.bind(name);
    const bound = this.#clients.get(name)!;
    if (bound.watch.down) throw new DatabaseUnavailableError(name, new Error('the bind is down (a query failed and it has not answered since)'));
    const query = rawQuery(client);
    if (!query) return;
    await query('SELECT 1');
    const pending = await bound.migrations.pending(query);
    if (pending.length > 0) throw new PendingMigrationsError(name, pending);
  }

  /**
   * The migrations of `prisma/<bind>/migrations` (what `fw migrate` writes) that the bind's
   * database has not applied, by Prisma's `_prisma_migrations` table; empty when all are, or when
   * the app ships no migrations folder. The folder is listed once; once everything is applied
   * the answer is kept and the database is not asked again. The first time migrations are found
   * pending it is logged (a warning naming them and `npx fw migrate deploy`), and once more when
   * they have been applied. `registerDatabase` checks at startup; readiness on every probe.
   */
  async pendingMigrations(name: keyof C & string): Promise<string[]> {
    const client = this.bind(name);
    const query = rawQuery(client);
    return query ? this.#clients.get(name)!.migrations.pending(query) : [];
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
    // A migration check still running (the startup one) would reconnect a bind closed under it.
    await Promise.allSettled(entries.map(([, bound]) => bound.migrations.running));
    for (const [, bound] of entries) bound.watch.reset();
    const results = await Promise.allSettled(entries.map(([, bound]) => bound.base.$disconnect()));
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

/** The client's `$queryRawUnsafe`, bound to it, when it has one. */
function rawQuery(client: PrismaClientLike): ((sql: string) => Promise<unknown>) | undefined {
  const query = (client as { $queryRawUnsafe?: unknown }).$queryRawUnsafe;
  return typeof query === 'function' ? (sql) => Promise.resolve(query.call(client, sql)) : undefined;
}

/** What Prisma's query extension hands `$allOperations`. */
interface OperationParams {
  args: unknown;
  query: (args: unknown) => Promise<unknown>;
}

/**
 * The client extended so every operation (model queries, raw queries, the queries of a
 * transaction) reports to `watch`, which turns an outage into `DatabaseUnavailableError`.
 * Opening an interactive transaction and an explicit `$connect` run outside the extension, so
 * they are wrapped too. A client without `$extends` (a stand-in in tests) is returned as is.
 */
function guard(base: PrismaClientLike, watch: BindWatch): PrismaClientLike {
  const extend = (base as { $extends?: unknown }).$extends;
  if (typeof extend !== 'function') return base;
  const extended = extend.call(base, {
    query: {
      async $allOperations({ args, query }: OperationParams): Promise<unknown> {
        try {
          const result = await query(args);
          watch.succeeded();
          return result;
        } catch (error) {
          throw watch.failed(error);
        }
      },
    },
  }) as PrismaClientLike;
  return new Proxy(extended, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if ((property !== '$transaction' && property !== '$connect') || typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        Promise.resolve(value.apply(target, args)).catch((error: unknown) => {
          throw watch.failed(error);
        });
    },
  });
}
