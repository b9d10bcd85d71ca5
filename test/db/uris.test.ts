import { describe, expect, it } from 'vitest';
import { databaseUris, DatabaseError, SUPPORTED_SCHEMES } from '@fw/kernel/db';

const ROOT = '/srv/app';

// bind URL → [provider, normalised URL]
const TABLE: [string, 'sqlite' | 'postgresql', string][] = [
  ['file:./var/main.db', 'sqlite', 'file:/srv/app/var/main.db'],
  ['file:var/main.db', 'sqlite', 'file:/srv/app/var/main.db'],
  ['file:/data/main.db', 'sqlite', 'file:/data/main.db'],
  ['file:///data/main.db', 'sqlite', 'file:/data/main.db'],
  ['file:../shared/x.db', 'sqlite', 'file:/srv/shared/x.db'],
  ['file::memory:', 'sqlite', 'file::memory:'],
  ['sqlite:///var/app.db', 'sqlite', 'file:/srv/app/var/app.db'],
  ['sqlite:////data/app.db', 'sqlite', 'file:/data/app.db'],
  ['sqlite://', 'sqlite', 'file::memory:'],
  ['sqlite:///:memory:', 'sqlite', 'file::memory:'],
  ['sqlite+aiosqlite:///var/app.db', 'sqlite', 'file:/srv/app/var/app.db'],
  ['SQLite:///var/app.db', 'sqlite', 'file:/srv/app/var/app.db'],
  // a path that contains scheme words keeps them
  ['file:./sqlite/postgres.db', 'sqlite', 'file:/srv/app/sqlite/postgres.db'],
  ['sqlite:///data/sqlite:///file:.db', 'sqlite', 'file:/srv/app/data/sqlite:/file:.db'],
  ['file:./var/main.db?mode=ro', 'sqlite', 'file:/srv/app/var/main.db?mode=ro'],
  ['postgres://u:p@127.0.0.1:5432/db', 'postgresql', 'postgresql://u:p@127.0.0.1:5432/db'],
  ['postgresql://u:p@127.0.0.1/db', 'postgresql', 'postgresql://u:p@127.0.0.1/db'],
  ['postgresql+asyncpg://u:p@h/db', 'postgresql', 'postgresql://u:p@h/db'],
  ['postgresql+psycopg://u:p@h/db', 'postgresql', 'postgresql://u:p@h/db'],
  ['postgresql+psycopg2://u:p@h/db', 'postgresql', 'postgresql://u:p@h/db'],
  // a password containing a scheme is left exactly as it was
  ['postgresql+asyncpg://u:postgres://x@h/db', 'postgresql', 'postgresql://u:postgres://x@h/db'],
  ['postgres://u:postgresql+asyncpg:@h/postgres', 'postgresql', 'postgresql://u:postgresql+asyncpg:@h/postgres'],
  ['postgres://sqlite:file:@h/db?sslmode=disable', 'postgresql', 'postgresql://sqlite:file:@h/db?sslmode=disable'],
];

describe('databaseUris', () => {
  it.each(TABLE)('%s → %s %s', (url, provider, expected) => {
    expect(databaseUris({ main: url }, ROOT)).toEqual({ main: { bind: 'main', provider, url: expected } });
  });

  it('normalises every bind at once and accepts a file: URL as the root', () => {
    const uris = databaseUris(
      { main: 'file:./var/main.db', reports: 'postgres://r@h/rep' },
      new URL('file:///srv/app/'),
    );
    expect(uris.main?.url).toBe('file:/srv/app/var/main.db');
    expect(uris.reports).toEqual({ bind: 'reports', provider: 'postgresql', url: 'postgresql://r@h/rep' });
  });

  it('an unknown scheme names the bind and the scheme, lists the supported ones, and hides the URL', () => {
    let caught: unknown;
    try {
      databaseUris({ main: 'file:./a.db', analytics: 'mysql://root:s3cret@h/db' }, ROOT);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DatabaseError);
    const error = caught as DatabaseError;
    expect(error.bind).toBe('analytics');
    expect(error.message).toContain('DATABASE_BINDS.analytics: unsupported scheme "mysql:"');
    for (const scheme of Object.keys(SUPPORTED_SCHEMES)) expect(error.message).toContain(`${scheme}:`);
    expect(error.message).not.toContain('s3cret');
  });

  it('a URL without a scheme is an error naming the bind', () => {
    expect(() => databaseUris({ cache: './var/cache.db' }, ROOT)).toThrow(/DATABASE_BINDS\.cache: the URL has no scheme/);
  });
});
