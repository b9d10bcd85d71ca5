/** `Frontend`: covering, attributes, include(), vite(), index manipulation, sources, prepare. */
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Additive, Fluid, HttpError, Markup } from '@fw/kernel';
import { FrontendException, NodeError, Sources, Frontend, manipulateIndex, reactPreamble, Vite } from '@fw/kernel/frontend';
import { cleanupProjects, makeFluid, makeProject, memoryLogger, start } from '../kernel/helpers.js';

const open: Fluid[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((f) => f.close()));
});
afterAll(() => cleanupProjects());

const BUILT_INDEX =
  '<!doctype html><html><head><title>x</title><script type="module" src="/frontend/assets/index.js"></script></head><body><div id="root"></div></body></html>';

/** A production Vite app whose build output already exists (check and build switched off). */
function prebuiltVite(config: Record<string, unknown> = {}, files: Record<string, string> = {}): Fluid {
  const fluid = makeFluid({
    config: { APP_FRONTEND: { type: 'vite', framework: 'react' }, FW_CHECK_FRONTEND: false, FW_BUILD_FRONTEND: false, ...config },
    files: {
      'fluid/frontend/index.html': '<html><head></head><body><script type="module" src="/src/main.jsx"></script></body></html>',
      'fluid/frontend/dist/index.html': BUILT_INDEX,
      'fluid/frontend/dist/assets/index.js': 'console.log("built")',
      ...files,
    },
  });
  open.push(fluid);
  return fluid;
}

describe('covering', () => {
  it('covers the app from APP_FRONTEND with its attributes', () => {
    const fluid = makeFluid({ config: { APP_FRONTEND: { type: 'htmx', alpine: true } } });
    const f = fluid.frontend;
    expect([f.type, f.alpine, f.prefix, f.rel, f.hasVite, f.tailwind]).toEqual(['htmx', true, '', 'fluid', false, undefined]);
    expect(f.root).toBe(join(fluid.root, 'fluid'));
  });

  it('a second cover throws FrontendException with the reference message', () => {
    const fluid = makeFluid();
    expect(() => fluid.frontend.coverApp(fluid)).toThrow(FrontendException);
    expect(() => fluid.frontend.coverApp(fluid)).toThrow(/^Frontend has already been configured\.$/);
    const f = new Frontend();
    f.coverApp(fluid);
    expect(() => f.coverAdditive(new Additive('blog', { root: fluid.root }))).toThrow('Frontend has already been configured.');
  });

  it('covers an Additive from its manifest frontend key, and defaults to none without one', () => {
    const root = makeProject({
      files: {
        'additives/shop/manifest.json': JSON.stringify({ name: 'shop', version: '1.0.0', frontend: { type: 'vite', framework: 'vue', typescript: true } }),
        'additives/blog/templates/.keep': '',
      },
    });
    const shop = new Additive('shop', { root: join(root, 'additives/shop') });
    expect([shop.frontend.type, shop.frontend.framework, shop.frontend.typescript, shop.frontend.registerIndex]).toEqual(['vite', 'vue', true, true]);
    expect([shop.frontend.prefix, shop.frontend.rel, shop.frontend.hasVite]).toEqual(['/shop', 'additives/shop', true]);
    const blog = new Additive('blog', { root: join(root, 'additives/blog') });
    expect(blog.frontend.type).toBe('none');
  });

  it('names the manifest file and key path for a bad frontend block', () => {
    const manifest = { name: 'shop', version: '1.0.0', frontend: { type: 'vite', framework: 'angular' } };
    const root = makeProject({ files: { 'additives/shop/manifest.json': JSON.stringify(manifest) } });
    expect(() => new Additive('shop', { root: join(root, 'additives/shop') })).toThrow(/manifest\.json:1:\d+: frontend\.framework: got "angular"; expected one of/);
  });
});

describe('include()', () => {
  it('emits htmx, Alpine and the Tailwind link when the compiled file exists', () => {
    const fluid = makeFluid({ config: { APP_FRONTEND: { type: 'htmx', alpine: true } }, files: { 'fluid/static/tailwind.css': 'a{}' } });
    const html = fluid.frontend.include();
    expect(html).toBeInstanceOf(Markup);
    expect(String(html)).toBe(
      '<link rel="stylesheet" href="/static/tailwind.css">\n<script src="/fluid/static/vendor/htmx.min.js"></script>\n<script defer src="/fluid/static/vendor/alpine.min.js"></script>',
    );
    expect(fluid.frontend.tailwind).toBe('/static/tailwind.css');
  });

  it('emits nothing for a none surface without Tailwind', () => {
    expect(String(makeFluid({ config: { APP_FRONTEND: { type: 'none' } } }).frontend.include())).toBe('');
  });
});

describe('vite()', () => {
  it('throws HttpError(404) without a Vite surface, and a route using it answers 404', async () => {
    const fluid = makeFluid({ config: { APP_FRONTEND: { type: 'htmx' } } });
    open.push(fluid);
    await expect(fluid.frontend.vite()).rejects.toSatisfy((e: unknown) => e instanceof HttpError && e.status === 404);
    fluid.app.get('spa', '/spa', (ctx) => ctx.fluid.frontend.vite(ctx));
    const base = await start(fluid);
    expect((await fetch(`${base}/spa`)).status).toBe(404);
  });

  it('serves the built index at / with the vite_ns cookie, theme link and sources in <head>', async () => {
    const fluid = prebuiltVite({}, { 'fluid/static/tailwind.css': 'a{}' });
    fluid.frontend.sources.add(new Markup('<script src="/fluid/static/sockets.js"></script>'));
    const base = await start(fluid);
    const res = await fetch(`${base}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('set-cookie')).toMatch(/^vite_ns=fluid%2Ffrontend|^vite_ns=fluid\/frontend/);
    expect(res.headers.get('set-cookie')).toMatch(/httponly/i);
    expect(res.headers.get('set-cookie')).toMatch(/samesite=lax/i);
    expect(res.headers.get('set-cookie')).toMatch(/path=\/(;|$)/i);
    const html = await res.text();
    expect(html).toContain('<link rel="stylesheet" href="/static/tailwind.css">\n<script src="/fluid/static/sockets.js"></script>\n</head>');
    expect(html).toContain('src="/frontend/assets/index.js"');
    expect(html).not.toContain('/vite-dev');
    const asset = await fetch(`${base}/frontend/assets/index.js`);
    expect(await asset.text()).toBe('console.log("built")');
  });

  it('register_index false leaves / to the app, which wires frontend.vite() itself', async () => {
    const fluid = prebuiltVite({ APP_FRONTEND: { type: 'vite', framework: 'react', register_index: false } });
    fluid.app.get('home', '/', () => 'app home');
    fluid.app.get('spa', '/spa', (ctx) => ctx.fluid.frontend.vite(ctx));
    const base = await start(fluid);
    expect(await (await fetch(`${base}/`)).text()).toBe('app home');
    const spa = await fetch(`${base}/spa`);
    expect(await spa.text()).toContain('/frontend/assets/index.js');
    expect(spa.headers.get('set-cookie')).toMatch(/^vite_ns=/);
  });

  it('serves an Additive index at /<name>/ and its build at /<name>/frontend', async () => {
    const fluid = makeFluid({
      config: { FW_CHECK_FRONTEND: false, FW_BUILD_FRONTEND: false },
      files: {
        'additives/shop/manifest.json': JSON.stringify({ name: 'shop', version: '1.0.0', frontend: { type: 'vite', framework: 'vue' } }),
        'additives/shop/frontend/dist/index.html': '<html><head></head><body>shop</body></html>',
        'additives/shop/frontend/dist/assets/a.js': 'shop js',
      },
    });
    open.push(fluid);
    fluid.additive(new Additive('shop', { root: join(fluid.root, 'additives/shop') }));
    const base = await start(fluid);
    const res = await fetch(`${base}/shop/`);
    expect(await res.text()).toContain('shop');
    expect(res.headers.get('set-cookie')).toMatch(/^vite_ns=additives%2Fshop%2Ffrontend|^vite_ns=additives\/shop\/frontend/);
    expect(await (await fetch(`${base}/shop/frontend/assets/a.js`)).text()).toBe('shop js');
  });
});

describe('index manipulation', () => {
  const workspace = makeProject({ files: { 'ws/public/favicon.svg': '<svg/>' } });
  const html =
    '<html><head><link rel="icon" href="/favicon.svg"><link href="//cdn.example/x.css" rel="stylesheet"></head>' +
    '<body><script type="module" src="/src/main.jsx"></script><a href="https://x.example/">x</a></body></html>';

  it('in debug rewrites root-relative src/href to /vite-dev and injects the client (and the React preamble)', () => {
    const out = manipulateIndex(html, { debug: true, namespace: 'fluid/frontend', workspace: join(workspace, 'ws'), framework: 'react' });
    expect(out).toContain('src="/vite-dev/fluid/frontend/src/main.jsx"');
    expect(out).toContain('href="/vite-dev/fluid/frontend/public/favicon.svg"');
    expect(out).toContain('href="//cdn.example/x.css"');
    expect(out).toContain('href="https://x.example/"');
    expect(out).toContain('<script type="module" src="/vite-dev/@vite/client"></script>');
    expect(out.indexOf(reactPreamble())).toBeGreaterThan(0);
    expect(out.indexOf(reactPreamble())).toBeLessThan(out.indexOf('@vite/client'));
    const vue = manipulateIndex(html, { debug: true, namespace: 'fluid/frontend', workspace: join(workspace, 'ws'), framework: 'vue' });
    expect(vue).not.toContain('@react-refresh');
  });

  it('in production leaves URLs alone and still inserts the theme link and sources', () => {
    const out = manipulateIndex(html, { debug: false, namespace: 'fluid/frontend', workspace, themeHref: '/static/tailwind.css', sources: '<script>1</script>' });
    expect(out).toContain('src="/src/main.jsx"');
    expect(out).not.toContain('vite-dev');
    expect(out).toContain('<link rel="stylesheet" href="/static/tailwind.css">\n<script>1</script>\n</head>');
  });
});

describe('Sources and the Vite namespaces', () => {
  it('Sources.rendered is Markup(\'\') before the freeze; plain strings are escaped; add() after it throws', () => {
    const s = new Sources();
    s.add(new Markup('<script src="/a.js"></script>')).add('<b>');
    expect(s.rendered).toBeInstanceOf(Markup);
    expect(String(s.rendered)).toBe('');
    s.freeze();
    expect(String(s.rendered)).toBe('<script src="/a.js"></script>\n&lt;b&gt;');
    expect(() => s.add('x')).toThrow(FrontendException);
  });

  it('keeps the registered namespaces as a set shared by the surfaces', () => {
    const namespaces = new Set<string>();
    const a = new Vite({ projectRoot: '/p', rel: 'fluid', prefix: '', framework: 'react' }, namespaces);
    const b = new Vite({ projectRoot: '/p', rel: 'additives/shop', prefix: '/shop', framework: 'vue' }, namespaces);
    expect([...namespaces]).toEqual(['fluid/frontend', 'additives/shop/frontend']);
    expect(a.mount()).toEqual({ prefix: '/frontend', dir: '/p/fluid/frontend/dist' });
    expect(b.buildPrefix).toBe('/shop/frontend');
    expect(b.namespaces).toBe(namespaces);
  });
});

describe('production boot', () => {
  function withScripts(scripts: Record<string, string>): Fluid {
    return prebuiltVite(
      { FW_CHECK_FRONTEND: true, FW_BUILD_FRONTEND: true },
      {
        'package.json': JSON.stringify({ name: 'demo', private: true, workspaces: ['fluid/frontend'] }),
        'fluid/frontend/package.json': JSON.stringify({ name: 'demo-frontend', private: true, scripts }),
      },
    );
  }

  it('runs check then build over the workspaces before serving', async () => {
    const fluid = withScripts({
      check: 'node -e "require(\'fs\').writeFileSync(\'checked\', \'1\')"',
      build: 'node -e "require(\'fs\').writeFileSync(\'dist/built.txt\', require(\'fs\').existsSync(\'checked\') ? \'after check\' : \'no check\')"',
    });
    const base = await start(fluid);
    expect(await (await fetch(`${base}/frontend/built.txt`)).text()).toBe('after check');
  });

  it('a failed build stops the boot with the build\'s own error', async () => {
    const fluid = withScripts({ build: 'node -e "console.error(\'BUILD EXPLODED: src/App.jsx:3\'); process.exit(3)"' });
    const err = await fluid.listen(0, '127.0.0.1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NodeError);
    expect((err as NodeError).message).toContain('BUILD EXPLODED: src/App.jsx:3');
    expect((err as NodeError).message).toContain('npm run build --workspaces');
  });

  it('a missing build stops the boot naming the file', async () => {
    const fluid = makeFluid({ config: { APP_FRONTEND: { type: 'vite', framework: 'vue' }, FW_CHECK_FRONTEND: false, FW_BUILD_FRONTEND: false } });
    open.push(fluid);
    await expect(fluid.listen(0, '127.0.0.1')).rejects.toThrow(/fluid\/frontend\/dist\/index\.html: the frontend is not built/);
  });

  it('by default (neither key set) a production boot checks and builds nothing', async () => {
    // Deviation (docs/spec-deviations.md): the boot mounts the built dist/ and runs no workspace script.
    const fluid = makeFluid({
      config: { APP_FRONTEND: { type: 'vite', framework: 'react' } },
      files: {
        'package.json': JSON.stringify({ name: 'demo', private: true, workspaces: ['fluid/frontend'] }),
        'fluid/frontend/package.json': JSON.stringify({ name: 'x', scripts: { build: 'exit 1', check: 'exit 1' } }),
        'fluid/frontend/dist/index.html': BUILT_INDEX,
      },
    });
    open.push(fluid);
    const base = await start(fluid);
    expect(await (await fetch(`${base}/`)).text()).toBe(BUILT_INDEX);
  });

  it('FW_BUILD_FRONTEND and FW_CHECK_FRONTEND off run nothing', async () => {
    const fluid = prebuiltVite(
      {},
      { 'package.json': JSON.stringify({ name: 'demo', private: true, workspaces: ['fluid/frontend'] }), 'fluid/frontend/package.json': JSON.stringify({ name: 'x', scripts: { build: 'exit 1', check: 'exit 1' } }) },
    );
    const base = await start(fluid);
    expect((await fetch(`${base}/`)).status).toBe(200);
  });
});

it('an htmx app registers no catch-all: an unrouted asset path is a plain 404', async () => {
  const fluid = makeFluid({ config: { APP_FRONTEND: { type: 'htmx' } }, files: { 'fluid/frontend/public/logo.svg': '<svg/>' } }, { logger: memoryLogger() });
  open.push(fluid);
  const base = await start(fluid);
  const res = await fetch(`${base}/logo.svg`, { headers: { cookie: 'vite_ns=fluid/frontend' } });
  expect(res.status).toBe(404);
});
