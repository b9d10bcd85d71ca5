/** The catch-all asset route: every rule, a traversal table, and namespaces, over real HTTP. */
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, get as httpGet, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Additive, type Fluid, type FluidMiddleware } from '@fw/kernel';
import { assetCatch, contained, refusedAssetPath } from '@fw/kernel/frontend';
import { cleanupProjects, makeFluid, makeProject, start } from '../kernel/helpers.js';

const FILES = {
  'fluid/frontend/index.html': '<html><head></head><body></body></html>',
  'fluid/frontend/src/main.js': 'source code',
  'fluid/frontend/src/secret.env.js': 'not in prod',
  'fluid/frontend/public/logo.svg': '<svg>logo</svg>',
  'fluid/frontend/public/fonts/a.woff2': 'font',
  'fluid/frontend/dist/index.html': '<html><head></head><body>built</body></html>',
  'fluid/frontend/dist/assets/app.js': 'built js',
  'fluid/frontend/package.json': '{"name":"x"}',
  'fluid/frontend/.env': 'SECRET=1',
  'fluid/frontend/node_modules/pkg/index.js': 'dep',
  'fluid/frontend/api/x.js': 'api file',
  'fluid/static/app.css': 'static css',
  'additives/shop/frontend/public/shop.svg': '<svg>shop</svg>',
  'secret.txt': 'project secret',
  'fw-outside.txt': 'outside',
};

let fluid: Fluid;
let prod: string;
let debugServer: Server;
let debug: string;
let root: string;

beforeAll(async () => {
  fluid = makeFluid({
    config: { APP_FRONTEND: { type: 'vite', framework: 'none' }, FW_CHECK_FRONTEND: false, FW_BUILD_FRONTEND: false },
    files: FILES,
  });
  root = fluid.root;
  symlinkSync(join(root, 'secret.txt'), join(root, 'fluid/frontend/public/link.txt'));
  prod = await start(fluid);
  // The debug lookup, on the exported middleware (a debug Fluid would also start a dev server).
  const koa = new Koa();
  koa.use(assetCatch(root, new Set(['fluid/frontend', 'additives/shop/frontend', '']), { production: false }) as unknown as Koa.Middleware);
  debugServer = createServer(koa.callback()).listen(0, '127.0.0.1');
  await new Promise((r) => debugServer.once('listening', r));
  debug = `http://127.0.0.1:${(debugServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await fluid.close();
  await new Promise((r) => debugServer.close(r));
  cleanupProjects();
});

async function get(base: string, path: string, ns: string | null = 'fluid/frontend'): Promise<[number, string]> {
  const res = await fetch(base + path, { headers: ns === null ? {} : { cookie: `vite_ns=${ns}` } });
  return [res.status, await res.text()];
}

describe('rule 1: paths that are never looked up', () => {
  it.each([
    ['no dot', 'src/main'],
    ['under api/', 'api/x.js'],
    ['under the kernel static prefix', 'fluid/static/app.css'],
    ['containing /frontend', 'x/frontend/app.js'],
    ['starting with frontend', 'frontend/x.js'],
    ['a dotfile', '.env'],
    ['node_modules', 'node_modules/pkg/index.js'],
    ['a parent segment', 'src/../src/main.js'],
    ['a backslash', 'src\\main.js'],
    ['a control character', 'src/ma\u0001in.js'],
    ['a NUL', 'src/main.js\u0000.png'],
    ['an empty segment', 'src//main.js'],
    ['a dot segment', 'src/./main.js'],
  ])('%s (%s)', (_why, path) => {
    expect(refusedAssetPath(path)).toBeDefined();
  });

  it('a plain asset path may be looked up', () => {
    expect(refusedAssetPath('logo.svg')).toBeUndefined();
    expect(refusedAssetPath('fonts/a.woff2')).toBeUndefined();
  });

  it('over HTTP, refused paths are 404 even with the cookie', async () => {
    for (const p of ['/api/x.js', '/.env', '/node_modules/pkg/index.js', '/src/main']) expect((await get(debug, p))[0]).toBe(404);
  });
});

describe('rule 2: the vite_ns cookie', () => {
  it('without the cookie nothing is served', async () => {
    expect((await get(prod, '/logo.svg', null))[0]).toBe(404);
  });
  it('an unregistered namespace is refused', async () => {
    expect((await get(prod, '/logo.svg', 'additives/evil/frontend'))[0]).toBe(404);
    expect((await get(prod, '/secret.txt', '.'))[0]).toBe(404);
    expect((await get(prod, '/logo.svg', '../fluid/frontend'))[0]).toBe(404);
  });
  it('a namespace another app of the process registered is refused: namespaces are per app (deviation)', async () => {
    const other = makeFluid({
      config: { FW_CHECK_FRONTEND: false, FW_BUILD_FRONTEND: false },
      files: {
        'additives/shop/manifest.json': JSON.stringify({ name: 'shop', version: '1.0.0', frontend: { type: 'vite', framework: 'none' } }),
        'additives/shop/frontend/dist/index.html': '<html><head></head><body>shop</body></html>',
        'additives/shop/frontend/public/shop.svg': '<svg>other app</svg>',
      },
    });
    other.additive(new Additive('shop', { root: join(other.root, 'additives/shop') }));
    try {
      const otherBase = await start(other);
      expect(await get(otherBase, '/shop.svg', 'additives/shop/frontend')).toEqual([200, '<svg>other app</svg>']);
      // This app has the same folder on disk but no such Additive: the other app's registration does not count here.
      expect((await get(prod, '/shop.svg', 'additives/shop/frontend'))[0]).toBe(404);
    } finally {
      await other.close();
    }
  });
  it('an empty value does not root the lookup at the project root, even when "" were registered', async () => {
    expect((await get(prod, '/secret.txt', ''))[0]).toBe(404);
    expect((await get(debug, '/secret.txt', ''))[0]).toBe(404);
  });
  it('an Additive namespace looks in its own workspace', async () => {
    expect(await get(debug, '/shop.svg', 'additives/shop/frontend')).toEqual([200, '<svg>shop</svg>']);
    expect((await get(debug, '/logo.svg', 'additives/shop/frontend'))[0]).toBe(404);
  });
  it('the same path answers from whichever workspace each request names, every time', async () => {
    writeFileSync(join(root, 'fluid/frontend/public/both.svg'), 'app');
    writeFileSync(join(root, 'additives/shop/frontend/public/both.svg'), 'shop');
    for (const _ of [1, 2]) {
      expect(await get(debug, '/both.svg', 'fluid/frontend')).toEqual([200, 'app']);
      expect(await get(debug, '/both.svg', 'additives/shop/frontend')).toEqual([200, 'shop']);
      expect((await get(debug, '/both.svg', null))[0]).toBe(404);
    }
  });
  it('reads the cookie among others and quoted, as the cookies package does', async () => {
    const res = await fetch(`${prod}/logo.svg`, { headers: { cookie: 'a=1; vite_ns="fluid/frontend"; b=2' } });
    expect([res.status, await res.text()]).toEqual([200, '<svg>logo</svg>']);
    const other = await fetch(`${prod}/logo.svg`, { headers: { cookie: 'not_vite_ns=fluid/frontend' } });
    expect(other.status).toBe(404);
  });
});

describe('rule 3: candidates', () => {
  it('debug: <ns>/<path> and <ns>/public/<path>', async () => {
    expect(await get(debug, '/logo.svg')).toEqual([200, '<svg>logo</svg>']);
    expect(await get(debug, '/fonts/a.woff2')).toEqual([200, 'font']);
    expect(await get(debug, '/src/main.js')).toEqual([200, 'source code']);
  });
  it('production (deviation): only public/ and the build output, never sources or manifests', async () => {
    expect(await get(prod, '/logo.svg')).toEqual([200, '<svg>logo</svg>']);
    expect(await get(prod, '/assets/app.js')).toEqual([200, 'built js']);
    expect((await get(prod, '/src/main.js'))[0]).toBe(404);
    expect((await get(prod, '/src/secret.env.js'))[0]).toBe(404);
    expect((await get(prod, '/package.json'))[0]).toBe(404);
    expect((await get(prod, '/index.html'))[0]).toBe(200); // the build's own index
  });
  it('production remembers what it found, yet sees a rebuilt, removed or new file', async () => {
    const file = join(root, 'fluid/frontend/dist/assets/rebuilt.js');
    writeFileSync(file, 'first build');
    expect(await get(prod, '/assets/rebuilt.js')).toEqual([200, 'first build']);
    writeFileSync(file, 'second build, longer');
    expect(await get(prod, '/assets/rebuilt.js')).toEqual([200, 'second build, longer']);
    rmSync(file);
    expect((await get(prod, '/assets/rebuilt.js'))[0]).toBe(404);
    writeFileSync(file, 'third build');
    expect(await get(prod, '/assets/rebuilt.js')).toEqual([200, 'third build']); // a vanished file is looked up again
  });
  it('HEAD and conditional requests work; other methods pass', async () => {
    const head = await fetch(`${prod}/logo.svg`, { method: 'HEAD', headers: { cookie: 'vite_ns=fluid/frontend' } });
    expect(head.status).toBe(200);
    const etag = head.headers.get('etag')!;
    // node:http, not fetch: fetch adds `cache-control: no-cache` to a conditional request.
    const status = await new Promise<number | undefined>((resolve, reject) =>
      httpGet(`${prod}/logo.svg`, { headers: { cookie: 'vite_ns=fluid/frontend', 'if-none-match': etag } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      }).on('error', reject),
    );
    expect(status).toBe(304);
    expect((await fetch(`${prod}/logo.svg`, { method: 'POST', headers: { cookie: 'vite_ns=fluid/frontend' } })).status).toBe(404);
  });
});

describe('rule 4: contained()', () => {
  it.each([
    ['%2e%2e/%2e%2e/secret.txt'],
    ['..%2f..%2fsecret.txt'],
    ['%2e%2e%2f%2e%2e%2fsecret.txt'],
    ['public/..%2f..%2f..%2fsecret.txt'],
    ['%252e%252e/secret.txt'],
    ['..%5c..%5csecret.txt'],
    ['%00.txt'],
    ['logo.svg%00.js'],
    ['link.txt'],
  ])('traversal %s is 404 in debug and production', async (path) => {
    for (const base of [debug, prod]) {
      const [status, body] = await get(base, `/${path}`);
      expect(status, `${base}/${path}`).toBe(404);
      expect(body).not.toContain('project secret');
    }
  });

  it('answers a file under the root only', async () => {
    const r = makeProject({ files: { 'a/b.txt': 'b', 'c.txt': 'c' } });
    expect(await contained(join(r, 'a'), 'b.txt')).toBe(join(r, 'a/b.txt'));
    expect(await contained(join(r, 'a'), '..', 'c.txt')).toBeUndefined();
    expect(await contained(join(r, 'a'), '/etc/passwd')).toBeUndefined();
    expect(await contained(join(r, 'a'), '')).toBeUndefined();
    expect(await contained(r, 'a')).toBeUndefined(); // a folder
    expect(await contained(r, 'missing.txt')).toBeUndefined();
  });
});

it('is registered last: a route wins over a workspace file of the same path', async () => {
  const f = makeFluid({
    config: { APP_FRONTEND: { type: 'vite', framework: 'none' }, FW_CHECK_FRONTEND: false, FW_BUILD_FRONTEND: false },
    files: { 'fluid/frontend/dist/index.html': '<html></html>', 'fluid/frontend/public/robots.txt': 'file' },
  });
  f.app.get('robots', '/robots.txt', () => 'route');
  const base = await start(f);
  try {
    expect(await get(base, '/robots.txt')).toEqual([200, 'route']);
  } finally {
    await f.close();
  }
});

// Type use keeps the import honest (the middleware type is the kernel's).
const _typed: FluidMiddleware = assetCatch('/', new Set());
void _typed;
