/**
 * Route, mount and template collisions: `fw create additive` reads the route table of
 * `fluid/app.ts` and of every Additive (by syntax) and refuses, writing nothing, a name whose
 * routes, prefixes or templates clash, naming both sides; `--force` writes it anyway. The check is
 * a function other generators call with their own proposal.
 */
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkCollisions, findCollisions, type Proposal } from '../../generators/src/codemods/index.js';
import { Tree } from '../../generators/src/pipeline/index.js';
import { fw, newProject, read, snapshot } from './project-helpers.js';

describe('fw create additive refuses clashes', () => {
  test('"hello" in a default htmx app is refused, naming GET /hello in fluid/app.ts; --force creates it', async () => {
    const root = await newProject();
    const before = await snapshot(root);
    const refused = await fw(root, 'create', 'additive', 'hello');
    expect(refused.code).toBe(1);
    expect(refused.error).toContain('additive "hello" clashes with what the app already has');
    expect(refused.error).toMatch(/GET \/hello \("hello", fluid\/app\.ts:\d+\) is under \/hello, where additive "hello" would be mounted/);
    expect(refused.error).toContain('--force');
    expect(await snapshot(root)).toEqual(before);

    const forced = await fw(root, 'create', 'additive', 'hello', '--force');
    expect(forced.code, forced.error).toBe(0);
    expect(JSON.parse(await read(root, 'fw.json')).additives).toEqual(['hello']);
  });

  test('a route name, a path another Additive serves, and a template the app already has are refused too', async () => {
    const root = await newProject();
    expect((await fw(root, 'create', 'additive', 'blog')).code).toBe(0);
    await appendFile(path.join(root, 'fluid/app.ts'), "\nfluid.app.get('shop.index', '/shop-home', () => 'home');\n");
    const byName = await fw(root, 'create', 'additive', 'shop');
    expect(byName.error).toMatch(/route name "shop\.index" of GET \/shop\/ \("shop\.index", additives\/shop\/app\.ts:\d+\) is already taken by GET \/shop-home \("shop\.index", fluid\/app\.ts:\d+\)/);

    await mkdir(path.join(root, 'fluid/templates/news'), { recursive: true });
    await writeFile(path.join(root, 'fluid/templates/news/index.html'), '<p>mine</p>\n');
    const byTemplate = await fw(root, 'create', 'additive', 'news');
    expect(byTemplate.error).toMatch(/template "news\/index\.html" \(in additives\/news\/templates\/news\/index\.html\) is already in fluid\/templates\/news\/index\.html/);
  });
});

describe('the check as a function', () => {
  const route = (method: string, p: string, name: string, where = 'x.ts:1') => ({ method, path: p, name, where });

  test('findCollisions: same method and path (trailing slash and parameter names aside), ALL against any method, a path under a mount', () => {
    const table = { routes: [route('GET', '/posts/:id', 'post'), route('ALL', '/any', 'any')], mounts: [{ prefix: '/blog', owner: 'additive "blog"' }], templates: [] };
    const proposal: Proposal = {
      label: 'route "x"',
      routes: [route('GET', '/posts/:slug/', 'x1'), route('POST', '/any', 'x2'), route('GET', '/blog/extra', 'x3'), route('POST', '/posts/:id', 'x4'), route('WS', '/any', 'x5')],
      mounts: [],
      templates: [],
    };
    const messages = findCollisions(table, proposal).map((c) => c.message);
    expect(messages).toHaveLength(3);
    expect(messages[0]).toContain('GET /posts/:slug/ ("x1", x.ts:1) would answer the same requests as GET /posts/:id ("post", x.ts:1)');
    expect(messages[1]).toContain('POST /any ("x2", x.ts:1) would answer the same requests as ALL /any');
    expect(messages[2]).toContain('GET /blog/extra ("x3", x.ts:1) is under /blog, where additive "blog" is mounted');
  });

  test('checkCollisions reads the app and the Additives through the tree, so a pending edit counts', async () => {
    const root = await newProject('plain', '--surface', 'none');
    const tree = new Tree(root);
    const proposal: Proposal = { label: 'route "about"', routes: [route('GET', '/about', 'about', 'routes.ts:1')], mounts: [], templates: [] };
    expect(await checkCollisions(tree, proposal, [])).toEqual([]);
    tree.write('fluid/app.ts', `${await tree.readText('fluid/app.ts')}\nfluid.app.get('about-us', '/about/', () => 'us');\n`);
    const clashes = await checkCollisions(tree, proposal, []);
    expect(clashes.map((c) => c.message)).toEqual([expect.stringMatching(/GET \/about \("about", routes\.ts:1\) would answer the same requests as GET \/about\/ \("about-us", fluid\/app\.ts:\d+\)/)]);
  });
});
