import { describe, expect, it } from 'vitest';
import { databaseUris } from '@fw/kernel/db';
import { bindEnvVar, bindProvider, prismaUrl, sqliteFallbackUrl } from '../../generators/src/migrate/index.js';

// The generators keep their own copy of the scheme rules (they never import the kernel);
// the Prisma CLI and the runtime adapters must see the same URL for a bind.
const URLS = [
  'file:./var/main.db',
  'file:/data/main.db',
  'file:///data/main.db',
  'file::memory:',
  'sqlite:///var/app.db',
  'sqlite:////data/app.db',
  'sqlite://',
  'sqlite+aiosqlite:///var/app.db?mode=ro',
  'postgres://u:postgres://x@h/db',
  'postgresql+asyncpg://u:p@h/db',
  'postgresql+psycopg://u:p@h/db',
];

describe('generator URL rules agree with the kernel databaseUris', () => {
  it.each(URLS)('%s', (url) => {
    const kernel = databaseUris({ main: url }, '/srv/app').main!;
    expect(prismaUrl('main', url, '/srv/app')).toBe(kernel.url);
    expect(bindProvider('main', url)).toBe(kernel.provider);
  });

  it('rejects the same schemes, naming the bind', () => {
    expect(() => databaseUris({ x: 'mysql://h/db' }, '/')).toThrow(/DATABASE_BINDS\.x: unsupported scheme "mysql:"/);
    expect(() => bindProvider('x', 'mysql://h/db')).toThrow(/DATABASE_BINDS\.x: unsupported scheme "mysql:"/);
  });

  it('rebases SQLite fallbacks onto the config folder and writes none for PostgreSQL', () => {
    expect(sqliteFallbackUrl('main', 'file:./var/main.db', 'prisma/main')).toBe('file:../../var/main.db');
    expect(sqliteFallbackUrl('main', 'sqlite:///var/main.db', '')).toBe('file:./var/main.db');
    expect(sqliteFallbackUrl('main', 'file:/abs/main.db', 'prisma/main')).toBe('file:/abs/main.db');
    expect(sqliteFallbackUrl('main', 'postgres://u:pw@h/db', 'prisma/main')).toBeUndefined();
    expect(bindEnvVar('read-replica')).toBe('DATABASE_URL_READ_REPLICA');
  });
});
