import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_INDEX_URL, loadIndex, locateIndex, OceanError, OceanIndexSchema } from '../../generators/src/ocean/index.ts';
import { INDEX } from './fixtures.ts';
import { serve, type TestServer } from './http.ts';

let server: TestServer;
/** What the test server answers per path: [status, body]; a missing path never answers. */
const routes = new Map<string, [number, string]>();
let dir: string;

beforeAll(async () => {
  server = await serve((req, res) => {
    const route = routes.get(req.url ?? '');
    if (route === undefined) return; // hang: the client must time out
    res.writeHead(route[0], { 'content-type': 'application/json' });
    res.end(route[1]);
  });
  routes.set('/index.json', [200, JSON.stringify(INDEX)]);
  routes.set('/other.json', [200, JSON.stringify({ additives: [], bundles: [] })]);
  routes.set('/broken', [500, 'oops']);
  routes.set('/missing', [404, 'not here']);
  routes.set('/malformed', [200, '{"additives": [']);
});
afterAll(() => server.close());

const project = async (fw?: unknown): Promise<string> => {
  dir = await mkdtemp(join(tmpdir(), 'fw-ocean-registry-'));
  if (fw !== undefined) await writeFile(join(dir, 'fw.json'), typeof fw === 'string' ? fw : JSON.stringify(fw));
  return dir;
};
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('locating the index', () => {
  it('FW_OCEAN_URL beats fw.json config.FW_OCEAN_URL', async () => {
    const root = await project({ name: 'x', config: { FW_OCEAN_URL: `${server.base}/other.json` } });
    const index = await loadIndex({ projectRoot: root, env: { FW_OCEAN_URL: `${server.base}/index.json` } });
    expect(index.additives.map((a) => a.id)).toEqual(INDEX.additives.map((a) => a.id));
    expect(await locateIndex({ projectRoot: root, env: { FW_OCEAN_URL: `${server.base}/index.json` } })).toMatchObject({
      source: 'FW_OCEAN_URL',
    });
  });

  it('fw.json config.FW_OCEAN_URL is used when the env var is unset', async () => {
    const root = await project({ name: 'x', config: { FW_OCEAN_URL: `${server.base}/other.json` } });
    const index = await loadIndex({ projectRoot: root, env: {} });
    expect(index.additives).toEqual([]);
  });

  it('without either, the embedded local default index is used, and it is valid', async () => {
    const root = await project({ name: 'x' });
    const located = await locateIndex({ projectRoot: root, env: {} });
    expect(located).toEqual({ url: DEFAULT_INDEX_URL, source: 'default' });
    const index = await loadIndex({ projectRoot: root, env: {} });
    expect(index.name).toBe('fw Ocean');
    expect(index.additives.length).toBeGreaterThan(0);
    expect(index.bundles.length).toBeGreaterThan(0);
  });

  it('accepts a file: URL and a path relative to the project root', async () => {
    const root = await project();
    await writeFile(join(root, 'my-index.json'), JSON.stringify(INDEX));
    const byUrl = await loadIndex({ env: { FW_OCEAN_URL: pathToFileURL(join(root, 'my-index.json')).href } });
    expect(byUrl.bundles).toHaveLength(3);
    await writeFile(join(root, 'fw.json'), JSON.stringify({ name: 'x', config: { FW_OCEAN_URL: './my-index.json' } }));
    const byPath = await loadIndex({ projectRoot: root, env: {} });
    expect(byPath.bundles).toHaveLength(3);
  });

  it('rejects unsupported schemes and a non-string fw.json value, naming the setting', async () => {
    const root = await project({ name: 'x', config: { FW_OCEAN_URL: 42 } });
    await expect(loadIndex({ projectRoot: root, env: { FW_OCEAN_URL: 'ftp://127.0.0.1/x' } })).rejects.toThrow(
      /FW_OCEAN_URL must be an http:, https: or file: URL or a path, got "ftp:\/\/127\.0\.0\.1\/x"/,
    );
    await expect(loadIndex({ projectRoot: root, env: {} })).rejects.toThrow(
      /fw\.json: config\.FW_OCEAN_URL must be a non-empty string, got 42/,
    );
  });
});

describe('registry errors name the URL and what was wrong', () => {
  it('server down', async () => {
    const down = await serve(() => undefined);
    const url = `${down.base}/index.json`;
    await down.close();
    const error = await loadIndex({ url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OceanError);
    expect((error as Error).message).toMatch(new RegExp(`Ocean registry at ${url} is unreachable: .*ECONNREFUSED`));
  });

  it('non-200 status', async () => {
    await expect(loadIndex({ url: `${server.base}/broken` })).rejects.toThrow(
      `Ocean registry at ${server.base}/broken answered 500 Internal Server Error, expected 200 with the index JSON`,
    );
    await expect(loadIndex({ url: `${server.base}/missing` })).rejects.toThrow(/answered 404 Not Found/);
  });

  it('malformed JSON', async () => {
    await expect(loadIndex({ url: `${server.base}/malformed` })).rejects.toThrow(
      new RegExp(`Ocean index at ${server.base}/malformed is not valid JSON: `),
    );
  });

  it('timeout', async () => {
    const started = Date.now();
    await expect(loadIndex({ url: `${server.base}/hangs`, timeoutMs: 300 })).rejects.toThrow(
      `Ocean registry at ${server.base}/hangs did not answer within 300 ms`,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('unreadable file: URL', async () => {
    await expect(loadIndex({ url: 'file:///nonexistent/fw-ocean.json' })).rejects.toThrow(
      /Ocean index at file:\/\/\/nonexistent\/fw-ocean\.json cannot be read: ENOENT/,
    );
  });

  it.each([
    ['missing additives', { bundles: [] }, /additives: /],
    ['bad version', { additives: [{ ...INDEX.additives[0], versions: ['1.0.0', '1.x'] }] }, /additives\[0\]\.versions\[1\]: must be a full semver version/],
    ['bad package name', { additives: [{ ...INDEX.additives[0], package: 'Not A Name' }] }, /additives\[0\]\.package: must be a valid npm package name/],
    ['bundle id is a string', { additives: INDEX.additives, bundles: [{ id: '42', name: 'x', members: ['alpha'] }] }, /bundles\[0\]\.id: /],
    ['bundle id too large', { additives: INDEX.additives, bundles: [{ id: 1_000_000, name: 'x', members: ['alpha'] }] }, /bundles\[0\]\.id: /],
    ['unknown member', { additives: INDEX.additives, bundles: [{ id: 1, name: 'x', members: ['alpha', 'ghost'] }] }, /bundles\[0\]\.members\[1\]: "ghost" is not an Additive id listed in "additives"/],
    ['duplicate id', { additives: [INDEX.additives[0], INDEX.additives[0]] }, /additives\[1\]\.id: duplicate Additive id "alpha"/],
    ['shared package', { additives: [INDEX.additives[0], { ...INDEX.additives[2], package: 'fw-additive-alpha' }] }, /additives\[1\]\.package: package "fw-additive-alpha" is already the package of Additive "alpha"/],
    ['duplicate bundle', { additives: INDEX.additives, bundles: [INDEX.bundles[0], INDEX.bundles[0]] }, /bundles\[1\]\.id: duplicate bundle id 42/],
    ['unknown key', { additives: [{ ...INDEX.additives[0], version: '1.0.0' }] }, /additives\[0\]: .*version/],
    ['no versions', { additives: [{ ...INDEX.additives[0], versions: [] }] }, /additives\[0\]\.versions: must list at least one version/],
  ])('schema mismatch: %s', async (name, body, message) => {
    const path = `/bad-${name.replace(/\W/g, '-')}`;
    routes.set(path, [200, JSON.stringify(body)]);
    const error = await loadIndex({ url: `${server.base}${path}` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OceanError);
    expect((error as Error).message).toContain(`Ocean index at ${server.base}${path} does not match the index schema:`);
    expect((error as Error).message).toMatch(message);
  });

  it('the schema accepts the fixture index unchanged', () => {
    expect(OceanIndexSchema.parse(INDEX)).toEqual(INDEX);
  });
});
