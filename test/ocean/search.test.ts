import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatSearchTable, oceanInstall, oceanSearch, runOceanSearch, search, searchIndex } from '../../generators/src/ocean/index.ts';
import { INDEX } from './fixtures.ts';
import { serve, type TestServer } from './http.ts';

describe('searchIndex', () => {
  it('without a term lists every bundle (by id) and every Additive (by id)', () => {
    const result = searchIndex(INDEX);
    expect(result.bundles.map((b) => b.bundleId)).toEqual([7, 42, 100]);
    expect(result.additives.map((a) => a.id)).toEqual(['alpha', 'beta-only', 'final', 'next', 'numeric']);
  });

  it('an Additive row carries its bundles and what a plain install takes', () => {
    const rows = Object.fromEntries(searchIndex(INDEX).additives.map((a) => [a.id, a]));
    expect(rows.final).toMatchObject({ bundleIds: [7, 42], latest: '1.1.0', prerelease: false, package: 'fw-additive-final' });
    expect(rows['beta-only']).toMatchObject({ bundleIds: [100], latest: '1.1.0-beta.2', prerelease: true });
    expect(rows.numeric).toMatchObject({ bundleIds: [], latest: '10.0.0' });
  });

  it.each([
    ['edge', [7], ['next']], // bundle name and a tag
    ['EDGE', [7], ['next']], // case-insensitive
    ['000042', [42], []], // zero-padded bundle id
    ['42', [42], []],
    ['@acme', [100], ['beta-only']], // package name; its bundle follows
    ['ten beats', [], ['numeric']], // description
    ['nothing-like-this', [], []],
  ])('term %j → bundles %j, Additives %j', (term, bundles, additives) => {
    const result = searchIndex(INDEX, term);
    expect(result.bundles.map((b) => b.bundleId)).toEqual(bundles);
    expect(result.additives.map((a) => a.id)).toEqual(additives);
  });
});

describe('formatSearchTable', () => {
  it('prints the zero-padded bundle id as the first column of every row', () => {
    const text = formatSearchTable(searchIndex(INDEX));
    expect(text).toBe(
      [
        'Bundles',
        'BUNDLE  NAME      MEMBERS       DESCRIPTION',
        '000007  edge      final, next',
        '000042  starter   alpha, final  alpha and final',
        '000100  previews  beta-only     Prerelease-only things',
        '',
        'Additives',
        'BUNDLE         ID         PACKAGE              LATEST              DESCRIPTION',
        '000042         alpha      fw-additive-alpha    1.0.0               Stable plus rc/beta/alpha',
        '000100         beta-only  @acme/beta-only      1.1.0-beta.2 (pre)  Only prereleases',
        '000007,000042  final      fw-additive-final    1.1.0               Released after rc',
        '000007         next       fw-additive-next     1.1.0               Has a next beta',
        '-              numeric    fw-additive-numeric  10.0.0              Ten beats nine',
        '',
      ].join('\n'),
    );
  });

  it('pads single-digit and six-digit ids alike', () => {
    const index = {
      additives: [{ id: 'a', package: 'a', description: '', versions: ['1.0.0'] }],
      bundles: [
        { id: 0, name: 'zero', members: ['a'] },
        { id: 999_999, name: 'max', members: ['a'] },
      ],
    };
    const lines = formatSearchTable(searchIndex(index)).split('\n');
    expect(lines[2]?.startsWith('000000  zero')).toBe(true);
    expect(lines[3]?.startsWith('999999  max')).toBe(true);
  });

  it('says so when nothing matches', () => {
    expect(formatSearchTable(searchIndex(INDEX, 'zzz'))).toBe('No bundles or Additives match.\n');
  });
});

describe('search over HTTP and the fw ocean search command', () => {
  let server: TestServer;
  let root: string;
  beforeAll(async () => {
    server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(INDEX));
    });
    root = await mkdtemp(join(tmpdir(), 'fw-ocean-search-'));
  });
  afterAll(async () => {
    await server.close();
    await rm(root, { recursive: true, force: true });
  });

  it('search(term) loads the index from FW_OCEAN_URL', async () => {
    const result = await search('starter', { env: { FW_OCEAN_URL: `${server.base}/` }, projectRoot: root });
    expect(result.bundles.map((b) => b.bundleId)).toEqual([42]);
  });

  it('oceanSearch prints the table', async () => {
    let out = '';
    await oceanSearch(['previews'], { projectRoot: root, env: { FW_OCEAN_URL: server.base }, print: (t) => (out += t) });
    expect(out).toMatch(/^Bundles\nBUNDLE  NAME {6}MEMBERS {4}DESCRIPTION\n000100  previews  beta-only  Prerelease-only things\n/);
  });

  it('runOceanSearch (the CLI shape) finds fw.json above the cwd and uses its FW_OCEAN_URL', async () => {
    const project = join(root, 'proj');
    await mkdir(join(project, 'fluid'), { recursive: true });
    await writeFile(join(project, 'fw.json'), JSON.stringify({ name: 'proj', config: { FW_OCEAN_URL: `${server.base}/index.json` } }));
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const io = { cwd: join(project, 'fluid'), stdin: new PassThrough(), stdout, stderr: new PassThrough(), env: {} };
    expect(await runOceanSearch(['starter'], io)).toBe(0);
    expect(out).toMatch(/^000042  starter +alpha, final +alpha and final$/m);
  });

  it('oceanSearch works with no server, from the embedded default index', async () => {
    let out = '';
    await oceanSearch([], { projectRoot: root, env: {}, print: (t) => (out += t) });
    expect(out).toMatch(/^000001 {2}production +health /m);
    expect(out).toMatch(/^000001 +health +@fw\/additive-health +\d+\.\d+\.\d+ /m);
  });
});

describe('--help', () => {
  it('oceanSearch --help prints the usage and loads nothing', async () => {
    let out = '';
    const result = await oceanSearch(['--help'], { projectRoot: '/nonexistent', env: { FW_OCEAN_URL: 'http://127.0.0.1:9/' }, print: (t) => (out += t) });
    expect(result).toBeUndefined();
    expect(out).toMatch(/^Usage: fw ocean search \[term\]/);
  });

  it('oceanInstall --help prints the usage and installs nothing', async () => {
    let out = '';
    const result = await oceanInstall(['-h'], { projectRoot: '/nonexistent', env: { FW_OCEAN_URL: 'http://127.0.0.1:9/' }, print: (t) => (out += t) });
    expect(result).toEqual([]);
    expect(out).toMatch(/^Usage: fw ocean install <id\[==version\]>\.\.\. \[-b\|--bundle <id>\]\.\.\. \[-p\|--pre\] \[-ps\|--prefer-stable\]/);
  });
});
