import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { PrismaLibSql } from '@prisma/adapter-libsql';
import type { PrismaPg } from '@prisma/adapter-pg';
import type { BindUri } from './uris.js';

/** The connected driver adapter a factory hands to Prisma (libSQL's or pg's). */
export type DriverAdapter = Awaited<ReturnType<PrismaPg['connect']>> | Awaited<ReturnType<PrismaLibSql['connect']>>;

/**
 * A Prisma driver-adapter factory (what `new PrismaClient({ adapter })` takes) that loads its
 * adapter package only when Prisma first connects. Importing `@fw/kernel/db`, creating a
 * `Database` and calling `db.bind()` therefore load no `@prisma/*` code; the first query does.
 */
export interface LazyAdapterFactory {
  /** Prisma's name for the database family: `sqlite` or `postgres`. */
  readonly provider: 'sqlite' | 'postgres';
  /** The adapter package this factory delegates to. */
  readonly adapterName: '@prisma/adapter-libsql' | '@prisma/adapter-pg';
  /** Loads the adapter package (once) and opens a connection (pool) through it. */
  connect(): Promise<DriverAdapter>;
}

/**
 * The factory for one bind: `@prisma/adapter-libsql` for SQLite, `@prisma/adapter-pg` (on `pg`)
 * for PostgreSQL. Each `connect()` opens a new libSQL handle or pg pool, so a client that was
 * disconnected reconnects through the same factory. A SQLite file's folder is created on connect
 * (the default bind lives in `var/`, which a fresh checkout does not have).
 */
export function lazyAdapter(uri: BindUri): LazyAdapterFactory {
  if (uri.provider === 'sqlite') {
    return {
      provider: 'sqlite',
      adapterName: '@prisma/adapter-libsql',
      async connect() {
        const file = sqliteFile(uri.url);
        if (file) await mkdir(path.dirname(file), { recursive: true });
        const { PrismaLibSql } = await import('@prisma/adapter-libsql');
        return new PrismaLibSql({ url: uri.url }).connect();
      },
    };
  }
  return {
    provider: 'postgres',
    adapterName: '@prisma/adapter-pg',
    async connect() {
      const { PrismaPg } = await import('@prisma/adapter-pg');
      return new PrismaPg({ connectionString: uri.url }).connect();
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
