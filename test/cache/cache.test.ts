/** One suite, three backends: memory, file and a real redis-server. */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileCache, MemoryCache, RedisCache, openCache, type Cache } from '@fw/kernel/cache';
import { startRedis, type TestRedis } from '../support/redis.js';
import { memoryLogger } from '../kernel/helpers.js';

let redis: TestRedis;
const dirs: string[] = [];
const opened: Cache[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const c of opened) await c.close();
  await redis?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fw-cache-'));
  dirs.push(dir);
  return dir;
}

const backends: Array<[string, () => Cache]> = [
  ['memory', () => new MemoryCache()],
  ['file', () => new FileCache(tempDir())],
  ['redis', () => new RedisCache({ url: redis.url, logger: memoryLogger() })],
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(backends)('%s cache', (_name, make) => {
  let cache: Cache;
  beforeAll(async () => {
    cache = make();
    opened.push(cache);
    for (const k of await cache.keys()) await cache.delete(k);
  });

  it('stores and returns JSON values', async () => {
    const value = { a: 1, b: [true, null, 'x'], c: { d: 'é' } };
    await cache.set('json:1', value);
    expect(await cache.get('json:1')).toEqual(value);
    await cache.set('json:2', 'plain');
    expect(await cache.get('json:2')).toBe('plain');
    expect(await cache.get('json:missing')).toBeUndefined();
  });

  it('has / delete', async () => {
    await cache.set('hd:x', 0);
    expect(await cache.has('hd:x')).toBe(true);
    expect(await cache.delete('hd:x')).toBe(true);
    expect(await cache.has('hd:x')).toBe(false);
    expect(await cache.delete('hd:x')).toBe(false);
  });

  it('honours expiry for get, has and keys', async () => {
    await cache.set('ttl:short', 'gone soon', 0.2);
    await cache.set('ttl:long', 'stays', 60);
    expect(await cache.get('ttl:short')).toBe('gone soon');
    await sleep(350);
    expect(await cache.get('ttl:short')).toBeUndefined();
    expect(await cache.has('ttl:short')).toBe(false);
    expect((await cache.keys('ttl:')).sort()).toEqual(['ttl:long']);
  });

  it('lists keys by prefix, treating glob characters literally', async () => {
    await cache.set('p:a', 1);
    await cache.set('p:b', 2);
    await cache.set('p*:c', 3);
    await cache.set('q:a', 4);
    expect((await cache.keys('p:')).sort()).toEqual(['p:a', 'p:b']);
    expect(await cache.keys('p*')).toEqual(['p*:c']);
  });

  it('overwrites, and keeps unusual keys apart (slashes, dots, unicode)', async () => {
    const keys = ['../../etc/passwd', 'a/b', 'a\\b', '..', 'ключ', 'x'.repeat(400)];
    for (const [i, k] of keys.entries()) await cache.set(k, i);
    for (const [i, k] of keys.entries()) expect(await cache.get(k)).toBe(i);
    await cache.set('a/b', 'new');
    expect(await cache.get('a/b')).toBe('new');
  });

  it('rejects bad keys and TTLs with a clear error', async () => {
    await expect(cache.set('', 1)).rejects.toThrow(/key must be a non-empty string/);
    await expect(cache.set('k', 1, -1)).rejects.toThrow(/ttlSeconds for 'k' must be a positive number/);
  });
});

describe('file cache specifics', () => {
  it('survives a new instance on the same folder (restart) and keeps files inside CACHE_DIR', async () => {
    const dir = tempDir();
    const a = new FileCache(dir);
    await a.set('../../escape', 'v', 60);
    await a.set('sess:abc', { uid: '1' });
    const b = new FileCache(dir);
    expect(await b.get('sess:abc')).toEqual({ uid: '1' });
    expect(await b.get('../../escape')).toBe('v');
    const names = readdirSync(dir);
    expect(names.every((n) => /^[0-9a-f]{64}\.json$/.test(n))).toBe(true);
  });

  it('writes atomically: concurrent writers leave one complete value and no temp files', async () => {
    const dir = tempDir();
    const cache = new FileCache(dir);
    const big = (i: number) => ({ i, blob: String(i).repeat(50_000) });
    await Promise.all(Array.from({ length: 20 }, (_, i) => cache.set('race', big(i))));
    const got = await cache.get<{ i: number; blob: string }>('race');
    expect(got && got.blob).toBe(String(got!.i).repeat(50_000));
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('openCache resolves CACHE_DIR against the project root', async () => {
    const root = tempDir();
    const cache = openCache({ CACHE_TYPE: 'file', CACHE_DIR: './var/c' }, { root, logger: memoryLogger() });
    expect(cache).toBeInstanceOf(FileCache);
    expect((cache as FileCache).dir).toBe(join(root, 'var', 'c'));
    expect(() => openCache({ CACHE_TYPE: 'redis', CACHE_DIR: 'x' }, { root, logger: memoryLogger() })).toThrow(/CACHE_REDIS_URL is required/);
  });
});
