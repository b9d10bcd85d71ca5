/**
 * Release, the default (htmx) app on the Node that runs the tests: the main flow
 * (main-flow.ts), then the development loop and extending the app: `npm run dev` serves at once,
 * `npx fw create additive blog`, and `fw ocean install health` of the Additive fw publishes, all
 * from the local registry; the production build carries the Additives' files. Then translations:
 * locales in fw.json, `fw generate`'s catalogs and typed modules, `npm install`, `tsc`, the build.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { fwVersion, startServer } from './helpers.js';
import { mainFlow } from './main-flow.js';

const flow = mainFlow('node24');

test('npm run dev serves at once: no second command, the app config came with the project', async () => {
  const server = await startServer('npm', ['run', 'dev'], flow.root(), flow.user.env);
  try {
    const home = await fetch(`${server.base}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<h1>my-app</h1>');
  } finally {
    await server.stop();
  }
});

test('a page view in Chromium logs no 404: the home page links its icon, and /favicon.ico (asked for by a page that names none) redirects to it', async () => {
  const server = await startServer('npm', ['run', 'dev'], flow.root(), flow.user.env);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.base}/`);
    expect(await page.getAttribute('link[rel="icon"]', 'href')).toBe('/static/favicon.svg');
    await server.waitForOutput(/GET \/static\/favicon\.svg 200/);
    // An HTML answer that names no icon (the htmx fragment, opened as a page): Chromium asks for /favicon.ico.
    await page.goto(`${server.base}/hello`);
    await server.waitForOutput(/GET \/favicon\.ico 302/);
    const icon = await fetch(`${server.base}/favicon.ico`);
    expect(icon.url).toBe(`${server.base}/static/favicon.svg`);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(server.output()).not.toMatch(/ 404\b/);
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('npx fw create additive blog, then fw ocean install health from the registry; the production build serves both', async () => {
  const root = flow.root();
  flow.user.run('npx', ['fw', 'create', 'additive', 'blog'], root);
  const installed = flow.user.run('npx', ['fw', 'ocean', 'install', 'health'], root);
  expect(installed.stdout + installed.stderr).toContain('@fw/additive-health');
  const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  expect(pkg.dependencies['@fw/additive-health']).toBe(fwVersion());
  const app = await readFile(path.join(root, 'fluid/app.ts'), 'utf8');
  expect(app).toContain("import health from '@fw/additive-health';");
  expect(app).toMatch(/fluid\.additive\(blog\)[\s\S]*fluid\.additive\(health\)|fluid\.additive\(health\)[\s\S]*fluid\.additive\(blog\)/);
  expect(flow.user.run('npx', ['tsc', '--noEmit'], root).stdout).toBe('');

  flow.user.run('npm', ['run', 'build'], root);
  const server = await startServer('npm', ['start'], root, flow.user.env);
  try {
    // The kernel answers the load balancer; the Additive's status page (with its template from
    // the published package) shows an operator on loopback the same checks with their details.
    expect(await (await fetch(`${server.base}/readyz`)).json()).toMatchObject({ status: 'ready' });
    const status = await fetch(`${server.base}/api/health`);
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ app: 'my-app', status: 'ready', checks: [{ name: 'cache', state: 'ok' }] });
    const page = await fetch(`${server.base}/health/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>my-app: ready</title>');
    // The blog's template and manifest were copied beside its compiled modules by fw build.
    const blog = await fetch(`${server.base}/blog/`);
    expect(blog.status).toBe(200);
    expect(await blog.text()).toContain('blog');
  } finally {
    await server.stop();
  }
});

test('translations: a gettext-style locale (pt_BR) in fw.json, fw generate, translated catalog, typed modules; the build serves both', async () => {
  const root = flow.root();
  const fwJson = JSON.parse(await readFile(path.join(root, 'fw.json'), 'utf8')) as { config: Record<string, unknown> };
  fwJson.config['I18N_SUPPORTED_LOCALES'] = ['en', 'pt_BR'];
  await writeFile(path.join(root, 'fw.json'), JSON.stringify(fwJson, null, 2) + '\n');
  const index = path.join(root, 'fluid/templates/index.html');
  await writeFile(index, (await readFile(index, 'utf8')).replace('<h1>{{title}}</h1>', '<h1>{{_ "Hello, %(name)s!" name=title}}</h1>'));
  await mkdir(path.join(root, 'fluid/locales'), { recursive: true });
  await writeFile(path.join(root, 'fluid/locales/messages.pot'), 'msgid "Hello, %(name)s!"\nmsgstr ""\n');
  flow.user.run('npx', ['fw', 'generate'], root);
  // The starter catalog is seeded under the tag's name; the translator fills it in.
  const catalog = path.join(root, 'fluid/locales/pt-BR.po');
  await writeFile(catalog, (await readFile(catalog, 'utf8')).replace('msgid "Hello, %(name)s!"\nmsgstr ""', 'msgid "Hello, %(name)s!"\nmsgstr "Olá, %(name)s!"'));
  flow.user.run('npx', ['fw', 'generate'], root);
  flow.user.run('npm', ['install'], root);
  const app = path.join(root, 'fluid/app.ts');
  await writeFile(
    app,
    (await readFile(app, 'utf8')) +
      [
        '',
        "import { i18nObject } from './i18n/i18n-util.js';",
        "import { loadAllLocales } from './i18n/i18n-util.sync.js';",
        "import type { Locales } from './i18n/i18n-types.js';",
        '',
        'loadAllLocales();',
        "fluid.app.get('greeting', '/greeting', (ctx) => ({ greeting: i18nObject(ctx.locale as Locales).helloName({ name: 'Ada' }) }));",
        '',
      ].join('\n'),
  );
  expect(flow.user.run('npx', ['tsc', '--noEmit'], root).stdout).toBe('');

  flow.user.run('npm', ['run', 'build'], root);
  const server = await startServer('npm', ['start'], root, flow.user.env);
  try {
    const page = await (await fetch(`${server.base}/?lang=pt_BR`)).text();
    expect(page).toContain('<html lang="pt-BR">');
    expect(page).toContain('<h1>Olá, my-app!</h1>');
    expect(await (await fetch(`${server.base}/`)).text()).toContain('<html lang="en">');
    expect(await (await fetch(`${server.base}/greeting`, { headers: { 'accept-language': 'pt-BR,pt;q=0.9' } })).json()).toEqual({ greeting: 'Olá, Ada!' });
  } finally {
    await server.stop();
  }
});

test('npm start with CACHE_TYPE=redis but no ioredis installed: one error line naming the package and the command, exit 1', () => {
  const { PATH, HOME } = process.env;
  const started = spawnSync(process.execPath, ['dist/fluid/server.js'], {
    cwd: flow.root(),
    env: { PATH, HOME, SECRET_KEY: 'k'.repeat(64), PORT: '0', CACHE_TYPE: 'redis', CACHE_REDIS_URL: 'redis://127.0.0.1:1/0' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(started.status).toBe(1);
  expect(started.stderr).toMatch(/^error: The npm package 'ioredis' is not installed in \S+; CACHE_TYPE=redis [^\n]* needs it\. Add it with: npm install ioredis@\d+\.\d+\.\d+\n$/);
});
