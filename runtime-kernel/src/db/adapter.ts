import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { assertInstalled, importOptional, type OptionalUse } from '../core/optional.js';
import type { BindUri } from './uris.js';

/**
 * The connected driver adapter a factory hands to Prisma (libSQL's or pg's): the part fw names.
 * Prisma's own type for it is `SqlDriverAdapter` (`@prisma/driver-adapter-utils`).
 */
export interface DriverAdapter {
  /** `sqlite` or `postgres`. */
  readonly provider: string;
  /** The adapter package, e.g. `@prisma/adapter-libsql`. */
  readonly adapterName: string;
  /** Closes the connection (pool). */
  dispose(): Promise<void>;
}

/**
 * What a generated PrismaClient takes as `adapter` (Prisma's `SqlDriverAdapterFactory`), as far
 * as fw needs to name it.
 */
export interface DriverAdapterFactory {
  /** The database family of the adapter it makes: `sqlite` or `postgres`. */
  readonly provider: string;
  /** The adapter package, e.g. `@prisma/adapter-pg`. */
  readonly adapterName: string;
  /** Opens the connection (pool) and resolves with the `DriverAdapter` Prisma queries through; Prisma calls it. */
  connect(): Promise<unknown>;
}

/**
 * A Prisma driver-adapter factory (what `new PrismaClient({ adapter })` takes) that loads its
 * adapter package only when Prisma first connects. Importing `@fw/kernel/db`, creating a
 * `Database` and calling `db.bind()` therefore load no `@prisma/*` code; the first query does.
 */
export interface LazyAdapterFactory extends DriverAdapterFactory {
  /** Prisma's name for the database family: `sqlite` or `postgres`. */
  readonly provider: 'sqlite' | 'postgres';
  /** The adapter package this factory delegates to. */
  readonly adapterName: '@prisma/adapter-libsql' | '@prisma/adapter-pg';
  /** Loads the adapter package (once) and opens a connection (pool) through it. */
  connect(): Promise<DriverAdapter>;
}

/** Timeouts of a PostgreSQL bind, in seconds (`DATABASE_CONNECT_TIMEOUT`, `DATABASE_STATEMENT_TIMEOUT`). */
export interface BindTimeouts {
  /** Opening a connection. */
  readonly connect: number;
  /** One statement: the server cancels it (`statement_timeout`); the client gives up 1 s later (a frozen server never answers). */
  readonly statement: number;
}

/** The defaults of {@link BindTimeouts}: the config keys' defaults. */
export const DEFAULT_TIMEOUTS: BindTimeouts = { connect: 5, statement: 30 };

/**
 * The factory for one bind: `@prisma/adapter-libsql` for SQLite, `@prisma/adapter-pg` (on `pg`)
 * for PostgreSQL. Each `connect()` opens a new libSQL handle or pg pool, so a client that was
 * disconnected reconnects through the same factory. A SQLite file's folder is created on connect
 * (the default bind lives in `var/`, which a fresh checkout does not have). A PostgreSQL pool
 * gets `timeouts()` as they are when it opens: a connect timeout, a server-side statement
 * timeout, a client-side read timeout one second longer, and TCP keep-alive. (SQLite is a file
 * in the process: it has no connection to time out.)
 */
export function lazyAdapter(uri: BindUri, root?: string, timeouts: () => BindTimeouts = () => DEFAULT_TIMEOUTS): LazyAdapterFactory {
  if (uri.provider === 'sqlite') {
    return {
      provider: 'sqlite',
      adapterName: '@prisma/adapter-libsql',
      async connect() {
        const use: OptionalUse = { root, feature: `the SQLite database bind "${uri.bind}" (DATABASE_BINDS)` };
        assertInstalled('@libsql/client', use);
        const { PrismaLibSql } = await importOptional<typeof import('@prisma/adapter-libsql')>('@prisma/adapter-libsql', use);
        const file = sqliteFile(uri.url);
        if (file) await mkdir(path.dirname(file), { recursive: true });
        return new PrismaLibSql({ url: uri.url }).connect();
      },
    };
  }
  return {
    provider: 'postgres',
    adapterName: '@prisma/adapter-pg',
    async connect() {
      const use: OptionalUse = { root, feature: `the PostgreSQL database bind "${uri.bind}" (DATABASE_BINDS)` };
      assertInstalled('pg', use);
      const { PrismaPg } = await importOptional<typeof import('@prisma/adapter-pg')>('@prisma/adapter-pg', use);
      const { connect, statement } = timeouts();
      return new PrismaPg({
        connectionString: uri.url,
        connectionTimeoutMillis: connect * 1000,
        statement_timeout: statement * 1000,
        query_timeout: (statement + 1) * 1000,
        keepAlive: true,
      }).connect();
    },
  };
}

/** The absolute path of a normalised `file:` URL, or undefined for an in-memory database. */
function sqliteFile(url: string): string | undefined {
  const rest = url.slice('file:'.length);
  const q = rest.indexOf('?');
  const file = q === -1 ? rest : rest.slice(0, q);
  return file.startsWith(':memory:') ? undefined : file;
}
