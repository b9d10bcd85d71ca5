import { fileURLToPath } from 'node:url';
import { normaliseBindUrl, parseBindUrl, SUPPORTED_DATABASE_SCHEMES, type DatabaseProvider } from '@fw/schemas';
import { DatabaseError } from './errors.js';

/** The database families a bind can point at. Names match Prisma's datasource `provider`. */
export type { DatabaseProvider };

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

/** Accepted leading schemes and the family each one means (shared with the generators). */
export const SUPPORTED_SCHEMES = SUPPORTED_DATABASE_SCHEMES;

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
  const parsed = parseBindUrl(bind, url);
  if ('error' in parsed) throw new DatabaseError(bind, parsed.error);
  return { bind, provider: parsed.provider, url: normaliseBindUrl(parsed, root) };
}
