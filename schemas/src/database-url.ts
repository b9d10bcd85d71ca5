/**
 * Database bind URLs: which schemes a bind may use and how each is normalised for its driver
 * adapter and for the Prisma CLI. The kernel (`databaseUris`) and the generators (`fw migrate`)
 * both read binds, so the rules live here, once.
 */
import path from 'node:path';

/** The database families a bind can point at. Names match Prisma's datasource `provider`. */
export type DatabaseProvider = 'sqlite' | 'postgresql';

/**
 * Accepted leading schemes and the family each one means. SQLAlchemy spellings are accepted so
 * that a reference `SQLALCHEMY_BINDS` value can be copied as it is.
 */
export const SUPPORTED_DATABASE_SCHEMES: Readonly<Record<string, DatabaseProvider>> = {
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

/** A bind URL split at its leading scheme. */
export interface ParsedBindUrl {
  provider: DatabaseProvider;
  /** The scheme, lowercased, without the colon. */
  scheme: string;
  /** Everything after the leading `scheme:`, untouched. */
  rest: string;
}

/**
 * Splits a bind's URL at its LEADING scheme. Answers `{ error }` (naming the bind and listing the
 * supported schemes, never echoing the URL, which may hold a password) for a missing or unknown one.
 */
export function parseBindUrl(bind: string, url: string): ParsedBindUrl | { error: string } {
  const match = LEADING_SCHEME.exec(url);
  const supported = Object.keys(SUPPORTED_DATABASE_SCHEMES).map((s) => `${s}:`).join(', ');
  if (!match?.[1]) return { error: `DATABASE_BINDS.${bind}: the URL has no scheme; supported schemes: ${supported}` };
  const scheme = match[1].toLowerCase();
  const provider = SUPPORTED_DATABASE_SCHEMES[scheme];
  if (!provider) return { error: `DATABASE_BINDS.${bind}: unsupported scheme "${match[1]}:"; supported schemes: ${supported}` };
  return { provider, scheme, rest: url.slice(match[0].length) };
}

/** A SQLite URL's file part and query; `file` is empty for an in-memory database. */
export function sqliteUrlParts(scheme: string, rest: string): { file: string; query: string } {
  const q = rest.indexOf('?');
  const query = q === -1 ? '' : rest.slice(q);
  let file = q === -1 ? rest : rest.slice(0, q);
  if (scheme === 'file') {
    // file:///abs (URL form) and file:/abs are absolute; file:./x and file:x are relative.
    if (file.startsWith('//')) file = file.slice(2);
  } else if (file.startsWith('///')) {
    // SQLAlchemy: sqlite:///rel.db is relative, sqlite:////abs.db is absolute, sqlite:// is memory.
    file = file.slice(3);
  } else if (file.startsWith('//')) {
    file = file.slice(2);
  }
  return { file: file === ':memory:' ? '' : file, query };
}

/**
 * The URL a driver adapter (and the Prisma CLI) takes for a parsed bind: only the leading scheme
 * replaced (`postgresql:`), or for SQLite `file:<absolute path>` resolved against `root`
 * (`file::memory:` for an in-memory database).
 */
export function normaliseBindUrl(parsed: ParsedBindUrl, root: string): string {
  if (parsed.provider === 'postgresql') return `postgresql:${parsed.rest}`;
  const { file, query } = sqliteUrlParts(parsed.scheme, parsed.rest);
  return file === '' ? `file::memory:${query}` : `file:${path.resolve(root, file)}${query}`;
}

/**
 * `DATABASE_URL` from the environment, as fw reads it: the URL of the bind `primary`
 * (`SECURITY_MODELS_DB_BIND`, default `main`), in place of the URL `binds` give it. Heroku,
 * Render, Railway and Fly set `DATABASE_URL` when a database is attached, and Rails and Prisma
 * read it; fw honours it in the runtime (`loadConfig`) and in `fw migrate` by this one rule, so
 * both reach the same database. `DATABASE_BINDS` set in the environment wins over it (checked by
 * the callers). Answers `{ error }` (never echoing the URL) for a scheme fw does not support and
 * for a URL of another database family than the bind's: the bind's schema, generated client and
 * migrations were made for the family of its configured URL. `variable` is the variable that gave
 * the URL, which the advice says to unset (`DATABASE_URL_FILE` when a file gave it).
 */
export function withDatabaseUrl(
  binds: Readonly<Record<string, string>>,
  primary: string,
  url: string,
  variable: 'DATABASE_URL' | 'DATABASE_URL_FILE' = 'DATABASE_URL',
): { binds: Record<string, string> } | { error: string } {
  const how = `fw uses DATABASE_URL as the URL of bind "${primary}" (SECURITY_MODELS_DB_BIND)`;
  const configured = binds[primary];
  if (configured === undefined) return { error: `DATABASE_URL: ${how}, but DATABASE_BINDS has no bind "${primary}" (binds: ${Object.keys(binds).join(', ') || 'none'})` };
  const parsed = parseBindUrl(primary, url);
  if ('error' in parsed) {
    return { error: `DATABASE_URL: ${parsed.error.slice(`DATABASE_BINDS.${primary}: `.length)}; ${how}. Unset ${variable}, or set DATABASE_BINDS` };
  }
  const current = parseBindUrl(primary, configured);
  if (!('error' in current) && current.provider !== parsed.provider) {
    return {
      error:
        `DATABASE_URL: a ${parsed.provider} URL, but bind "${primary}" is ${current.provider} in DATABASE_BINDS, and its schema, client and migrations ` +
        `were made for ${current.provider}; ${how}. Move the bind to ${parsed.provider} first (npx fw docs databases, "Moving a bind to another database"), or unset ${variable}`,
    };
  }
  return { binds: { ...binds, [primary]: url } };
}

/**
 * A URL for logs and messages: the password of `scheme://user:password@host/...` replaced by
 * `<redacted>`, whatever characters it holds (the runtime's startup lines and `fw migrate` use it).
 */
export function urlWithoutPassword(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@]*@/i, '$1<redacted>@');
}
