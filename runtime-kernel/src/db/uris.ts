import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseError } from './errors.js';

/** The database families a bind can point at. Names match Prisma's datasource `provider`. */
export type DatabaseProvider = 'sqlite' | 'postgresql';

/** One bind's URL, normalised for its driver adapter (and for the Prisma CLI). */
export interface BindUri {
  /** The bind's name, the key of `DATABASE_BINDS`. */
  bind: string;
  /** Which family the URL belongs to. */
  provider: DatabaseProvider;
  /**
   * The URL the adapter takes: `file:<absolute path>` (or `file::memory:`) for SQLite,
   * `postgresql://...` for PostgreSQL.
   */
  url: string;
}

/**
 * Accepted leading schemes and the family each one means. SQLAlchemy spellings are accepted so
 * that a reference `SQLALCHEMY_BINDS` value can be copied as it is.
 */
export const SUPPORTED_SCHEMES: Readonly<Record<string, DatabaseProvider>> = {
  file: 'sqlite',
  sqlite: 'sqlite',
  'sqlite+aiosqlite': 'sqlite',
  'sqlite+pysqlite': 'sqlite',
  postgres: 'postgresql',
  postgresql: 'postgresql',
  'postgresql+asyncpg': 'postgresql',
  'postgresql+psycopg': 'postgresql',
  'postgresql+psycopg2': 'postgresql',
};

const LEADING_SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const MEMORY = new Set(['', ':memory:']);

/**
 * Normalises every bind's URL for its driver adapter (the reference's `database_uris`).
 *
 * Only the LEADING scheme is rewritten, so a password or a path that contains a scheme word
 * (`postgres://u:postgres://x@h/db`, `file:./sqlite/app.db`) stays intact:
 * - `postgres:`, `postgresql:`, `postgresql+asyncpg:`, `postgresql+psycopg:` → `postgresql:`;
 * - `file:`, `sqlite:` (and SQLAlchemy's `sqlite:///rel.db`, `sqlite:////abs.db`) →
 *   `file:<absolute path>`, a relative path resolved against `root` (the project root);
 *   an empty path or `:memory:` → `file::memory:`.
 *
 * An unknown or missing scheme throws a {@link DatabaseError} naming the bind and the scheme and
 * listing the supported ones. The URL itself is never echoed (it may hold a password).
 */
export function databaseUris(binds: Readonly<Record<string, string>>, root: string | URL): Record<string, BindUri> {
  const base = typeof root === 'string' ? root : fileURLToPath(root);
  const out: Record<string, BindUri> = {};
  for (const [bind, url] of Object.entries(binds)) out[bind] = databaseUri(bind, url, base);
  return out;
}

/** Normalises one bind's URL; see {@link databaseUris}. */
export function databaseUri(bind: string, url: string, root: string): BindUri {
  const match = LEADING_SCHEME.exec(url);
  const supported = Object.keys(SUPPORTED_SCHEMES).map((s) => `${s}:`).join(', ');
  if (!match?.[1]) {
    throw new DatabaseError(bind, `DATABASE_BINDS.${bind}: the URL has no scheme; supported schemes: ${supported}`);
  }
  const scheme = match[1].toLowerCase();
  const provider = SUPPORTED_SCHEMES[scheme];
  if (!provider) {
    throw new DatabaseError(
      bind,
      `DATABASE_BINDS.${bind}: unsupported scheme "${match[1]}:"; supported schemes: ${supported}`,
    );
  }
  const rest = url.slice(match[0].length);
  if (provider === 'postgresql') return { bind, provider, url: `postgresql:${rest}` };
  return { bind, provider, url: sqliteUrl(scheme, rest, root) };
}

/** `file:<absolute path>[?query]` from the part of a SQLite URL after its scheme. */
function sqliteUrl(scheme: string, rest: string, root: string): string {
  const q = rest.indexOf('?');
  const query = q === -1 ? '' : rest.slice(q);
  let file = q === -1 ? rest : rest.slice(0, q);
  if (scheme === 'file') {
    // file:///abs (URL form) and file:/abs are absolute; file:./x and file:x are relative.
    if (file.startsWith('//')) file = file.slice(2);
  } else {
    // SQLAlchemy: sqlite:///rel.db is relative, sqlite:////abs.db is absolute, sqlite:// is memory.
    if (file.startsWith('///')) file = file.slice(3);
    else if (file.startsWith('//')) file = file.slice(2);
  }
  if (MEMORY.has(file)) return `file::memory:${query}`;
  return `file:${path.resolve(root, file)}${query}`;
}
