import path from 'node:path';
import { MigrateError } from './errors.js';

/**
 * The generator's copy of the kernel's `databaseUris` scheme rules (`@fw/kernel/db`): the
 * generators never import the kernel. `test/migrate/urls.test.ts` proves the two agree.
 */

/** Prisma's datasource provider for a bind. */
export type BindProvider = 'sqlite' | 'postgresql';

const SCHEMES: Readonly<Record<string, BindProvider>> = {
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

/** A bind URL split into its provider and the part after the leading scheme. */
interface ParsedBind {
  provider: BindProvider;
  scheme: string;
  rest: string;
}

function parse(bind: string, url: string): ParsedBind {
  const match = LEADING_SCHEME.exec(url);
  const supported = Object.keys(SCHEMES).map((s) => `${s}:`).join(', ');
  if (!match?.[1]) throw new MigrateError(`DATABASE_BINDS.${bind}: the URL has no scheme; supported schemes: ${supported}`, { bind });
  const scheme = match[1].toLowerCase();
  const provider = SCHEMES[scheme];
  if (!provider) {
    throw new MigrateError(`DATABASE_BINDS.${bind}: unsupported scheme "${match[1]}:"; supported schemes: ${supported}`, { bind });
  }
  return { provider, scheme, rest: url.slice(match[0].length) };
}

/** The Prisma datasource provider of a bind's URL; an unknown scheme throws naming the bind. */
export function bindProvider(bind: string, url: string): BindProvider {
  return parse(bind, url).provider;
}

/** A SQLite URL's file part: `{ file, query }`, `file` empty for an in-memory database. */
function sqliteParts(scheme: string, rest: string): { file: string; query: string } {
  const q = rest.indexOf('?');
  const query = q === -1 ? '' : rest.slice(q);
  let file = q === -1 ? rest : rest.slice(0, q);
  if (scheme === 'file') {
    if (file.startsWith('//')) file = file.slice(2);
  } else if (file.startsWith('///')) file = file.slice(3);
  else if (file.startsWith('//')) file = file.slice(2);
  return { file: file === ':memory:' ? '' : file, query };
}

/**
 * The URL the Prisma CLI gets for a bind: only the leading scheme replaced (`postgresql:`), and a
 * SQLite path made absolute against `root` (`file:<abs>`), exactly as the kernel's adapters see it.
 */
export function prismaUrl(bind: string, url: string, root: string): string {
  const { provider, scheme, rest } = parse(bind, url);
  if (provider === 'postgresql') return `postgresql:${rest}`;
  const { file, query } = sqliteParts(scheme, rest);
  return file === '' ? `file::memory:${query}` : `file:${path.resolve(root, file)}${query}`;
}

/**
 * The SQLite URL written as the fallback of a generated `prisma.config.ts` in `configDir`
 * (project-relative): Prisma resolves a relative `file:` path against the config file's folder,
 * so a root-relative path is rebased onto it. Undefined for non-SQLite binds, which get no
 * fallback (their URL may hold a password and must not be written into a generated file).
 */
export function sqliteFallbackUrl(bind: string, url: string, configDir: string): string | undefined {
  const { provider, scheme, rest } = parse(bind, url);
  if (provider !== 'sqlite') return undefined;
  const { file, query } = sqliteParts(scheme, rest);
  if (file === '') return `file::memory:${query}`;
  if (path.isAbsolute(file)) return `file:${file}${query}`;
  const rebased = path.posix.relative(configDir || '.', path.posix.normalize(file.split(path.sep).join('/')));
  return `file:${rebased.startsWith('.') ? rebased : `./${rebased}`}${query}`;
}

/** `DATABASE_URL_<BIND>`: the environment variable a bind's Prisma config reads its URL from. */
export function bindEnvVar(bind: string): string {
  return `DATABASE_URL_${bind.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}`;
}

/** The absolute database file of a normalised SQLite URL (`file:/abs?q`), or undefined (memory, PostgreSQL). */
export function sqliteFile(url: string): string | undefined {
  if (!url.startsWith('file:')) return undefined;
  const rest = url.slice('file:'.length);
  const q = rest.indexOf('?');
  const file = q === -1 ? rest : rest.slice(0, q);
  return file === '' || file === ':memory:' ? undefined : file;
}
