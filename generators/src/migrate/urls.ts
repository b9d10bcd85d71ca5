import path from 'node:path';
import { normaliseBindUrl, parseBindUrl, sqliteUrlParts, type DatabaseProvider, type ParsedBindUrl } from '@fw/schemas';
import { MigrateError } from './errors.js';

/** Prisma's datasource provider for a bind. */
export type BindProvider = DatabaseProvider;

/** Splits a bind URL at its leading scheme; an unknown scheme throws naming the bind. */
function parse(bind: string, url: string): ParsedBindUrl {
  const parsed = parseBindUrl(bind, url);
  if ('error' in parsed) throw new MigrateError(parsed.error, { bind });
  return parsed;
}

/** The Prisma datasource provider of a bind's URL; an unknown scheme throws naming the bind. */
export function bindProvider(bind: string, url: string): BindProvider {
  return parse(bind, url).provider;
}

/**
 * The URL the Prisma CLI gets for a bind: only the leading scheme replaced (`postgresql:`), and a
 * SQLite path made absolute against `root` (`file:<abs>`), exactly as the kernel's adapters see it.
 */
export function prismaUrl(bind: string, url: string, root: string): string {
  return normaliseBindUrl(parse(bind, url), root);
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
  const { file, query } = sqliteUrlParts(scheme, rest);
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
