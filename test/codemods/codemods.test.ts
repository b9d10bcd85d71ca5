import { describe, expect, it } from 'vitest';
import {
  CodemodAnchorError, ensureArrayElement, identifierFor, registerAdditive, registerGuard, registerHook, registerRoute, unregisterAdditive,
  type CodemodResult, type SourceText,
} from '../../generators/src/codemods/index.js';

const APP = `// The app: edit freely.
import { Fluid } from '@fw/kernel';
import { loadUser } from "./hooks.js"

export const fluid = new Fluid({ root: new URL('..', import.meta.url) });   // keep this comment
fluid.app.get('home', '/', (ctx) => ctx.render('index.html', {
      title: 'demo',   // odd formatting the user likes
}));

fluid.onStartup(async () => { /* ... */ });
export default fluid;
`;
const app = (text = APP): SourceText => ({ path: 'fluid/app.ts', text });

/** Asserts that `after` is `before` with exactly the given lines inserted, nothing else touched. */
function expectOnlyInserted(before: string, after: string, inserted: string[]): void {
  const a = after.split('\n');
  const remaining = a.filter((line) => !inserted.includes(line));
  expect(remaining.join('\n')).toBe(before);
  for (const line of inserted) expect(a).toContain(line);
}

async function twice(run: (f: SourceText) => Promise<CodemodResult>, f: SourceText): Promise<CodemodResult> {
  const first = await run(f);
  expect(first.changed).toBe(true);
  const second = await run({ path: f.path, text: first.text });
  expect(second).toEqual({ changed: false, text: first.text });
  return first;
}

describe('registerAdditive', () => {
  it('adds the import after the last import and the call after the new Fluid(...) line, keeping every other byte', async () => {
    const r = await twice((f) => registerAdditive(f, 'blog'), app());
    expectOnlyInserted(APP, r.text, ["import blog from '../additives/blog/index.js';", 'fluid.additive(blog);']);
    expect(r.text).toContain("import { loadUser } from \"./hooks.js\"\nimport blog from '../additives/blog/index.js';\n\nexport const fluid");
    expect(r.text).toContain('// keep this comment\nfluid.additive(blog);\nfluid.app.get(');
  });

  it('puts a second additive after the first one, and follows the file\'s quote and semicolon style', async () => {
    const text = `import { Fluid } from "@fw/kernel"\n\nconst fluid = new Fluid({ root: "." })\n\nexport default fluid\n`;
    const one = await registerAdditive(app(text), 'blog');
    const two = await registerAdditive(app(one.text), 'blog-posts');
    expect(two.text).toBe(
      'import { Fluid } from "@fw/kernel"\nimport blog from "../additives/blog/index.js"\nimport blogPosts from "../additives/blog-posts/index.js"\n\n' +
        'const fluid = new Fluid({ root: "." })\nfluid.additive(blog)\nfluid.additive(blogPosts)\n\nexport default fluid\n',
    );
  });

  it('compares by syntax tree: a differently spaced or renamed registration counts as present', async () => {
    const text = APP.replace("import { Fluid } from '@fw/kernel';", "import { Fluid } from '@fw/kernel';\nimport   myBlog   from '../additives/blog/index.js'")
      .replace('export default fluid;', 'fluid . additive ( myBlog ) ;\nexport default fluid;');
    expect(await registerAdditive(app(text), 'blog')).toEqual({ changed: false, text });
  });

  it('keeps CRLF line endings', async () => {
    const crlf = APP.replaceAll('\n', '\r\n');
    const r = await twice((f) => registerAdditive(f, 'blog'), app(crlf));
    expect(r.text.replaceAll('\r\n', '')).not.toContain('\n');
    expectOnlyInserted(APP, r.text.replaceAll('\r\n', '\n'), ["import blog from '../additives/blog/index.js';", 'fluid.additive(blog);']);
  });

  it('stops with the exact manual instruction when the anchor is missing, and changes nothing', async () => {
    const text = "import { Fluid } from '@fw/kernel';\nexport default makeApp();\n";
    const error = await registerAdditive(app(text), 'blog').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CodemodAnchorError);
    expect((error as CodemodAnchorError).message).toBe(
      "Add `fluid.additive(blog);` after the `const fluid = new Fluid(...)` in fluid/app.ts and `import blog from '../additives/blog/index.js';` with its imports",
    );
    const withImport = `import blog from '../additives/blog/index.js';\n${text}`;
    await expect(registerAdditive(app(withImport), 'blog')).rejects.toThrow(
      new CodemodAnchorError('fluid/app.ts', 'Add `fluid.additive(blog);` after the `const fluid = new Fluid(...)` in fluid/app.ts'),
    );
  });

  it('unregisterAdditive restores the file byte for byte, and a second run changes nothing', async () => {
    const two = (await registerAdditive(app((await registerAdditive(app(), 'blog')).text), 'shop')).text;
    const undone = await unregisterAdditive(app(two), 'blog');
    expect(undone.changed).toBe(true);
    expect(undone.text).toBe((await registerAdditive(app(), 'shop')).text);
    expect(await unregisterAdditive(app(undone.text), 'blog')).toEqual({ changed: false, text: undone.text });
    expect((await unregisterAdditive(app(undone.text), 'shop')).text).toBe(APP);
  });

  it('unregisterAdditive keeps the import when the identifier is still used elsewhere', async () => {
    const text = `${(await registerAdditive(app(), 'blog')).text}console.log(blog.name);\n`;
    const r = await unregisterAdditive(app(text), 'blog');
    expect(r.text).toContain("import blog from '../additives/blog/index.js';");
    expect(r.text).not.toContain('fluid.additive(blog)');
  });

  it('derives identifiers from additive names', () => {
    expect(identifierFor('blog')).toBe('blog');
    expect(identifierFor('blog-posts')).toBe('blogPosts');
    expect(identifierFor('new')).toBe('newAdditive');
    expect(identifierFor('2fa')).toBe('_2fa');
  });
});

describe('registerRoute', () => {
  it('adds the route after the last route of its router and imports the handler', async () => {
    const r = await twice((f) => registerRoute(f, { method: 'get', name: 'about', path: '/about', handler: 'aboutPage', from: './routes/about.js' }), app());
    expectOnlyInserted(APP, r.text, ["import { aboutPage } from './routes/about.js';", "fluid.app.get('about', '/about', aboutPage);"]);
    expect(r.text).toContain("}));\nfluid.app.get('about', '/about', aboutPage);\n");
  });

  it('treats a route with the same name as present, even with another path', async () => {
    const text = APP.replace('export default', "fluid.app.post('about', '/elsewhere', other);\nexport default");
    expect((await registerRoute(app(text), { method: 'get', name: 'about', path: '/about', handler: 'aboutPage' })).changed).toBe(false);
    // The same name on another router is another route.
    expect((await registerRoute(app(text), { router: 'api', method: 'get', name: 'about', path: '/about', handler: 'aboutPage' })).changed).toBe(true);
  });

  it('adds a named import to an existing import of the same module', async () => {
    const r = await registerRoute(app(), { method: 'get', name: 'me', path: '/me', handler: 'mePage', from: './hooks.js' });
    expect(r.text).toContain('import { loadUser, mePage } from "./hooks.js"\n');
  });

  it('works on an additive\'s own app.ts with the Additive anchor', async () => {
    const text = "import { Additive } from '@fw/kernel';\n\nexport const blog = new Additive('blog', { root: import.meta.url });\n";
    const r = await registerRoute({ path: 'additives/blog/app.ts', text }, { anchor: 'Additive', method: 'get', name: 'index', path: '/', handler: 'index' });
    expect(r.text).toBe(`${text}blog.app.get('index', '/', index);\n`);
    await expect(registerRoute({ path: 'additives/blog/app.ts', text: 'export {};\n' }, { anchor: 'Additive', method: 'get', name: 'index', path: '/', handler: 'index' }))
      .rejects.toThrow("Add `additive.app.get('index', '/', index);` after the `const additive = new Additive(...)` in additives/blog/app.ts");
  });
});

describe('registerHook', () => {
  it('adds the hook after the last hook of the same kind', async () => {
    const r = await twice((f) => registerHook(f, { hook: 'onStartup', handler: 'warmCache', from: './cache.js' }), app());
    expectOnlyInserted(APP, r.text, ["import { warmCache } from './cache.js';", 'fluid.onStartup(warmCache);']);
    expect(r.text).toContain('fluid.onStartup(async () => { /* ... */ });\nfluid.onStartup(warmCache);\n');
  });

  it('reuses an existing import and counts an existing registration as present', async () => {
    const r = await registerHook(app(), { hook: 'beforeRequest', handler: 'loadUser', from: './hooks.js' });
    expectOnlyInserted(APP, r.text, ['fluid.beforeRequest(loadUser);']);
    expect((await registerHook(app(r.text), { hook: 'beforeRequest', handler: 'loadUser', from: './hooks.js' })).changed).toBe(false);
  });

  it('gives the manual instruction without an anchor', async () => {
    await expect(registerHook(app('export {};\n'), { hook: 'onShutdown', handler: 'closeDb' }))
      .rejects.toThrow('Add `fluid.onShutdown(closeDb);` after the `const fluid = new Fluid(...)` in fluid/app.ts');
  });
});

describe('registerGuard', () => {
  it('inserts the guard right after the route path, once', async () => {
    const r = await twice((f) => registerGuard(f, { route: 'home', guard: 'requireUser', from: '@fw/kernel' }), app());
    expect(r.text).toContain("import { Fluid, requireUser } from '@fw/kernel';\n");
    expect(r.text).toContain("fluid.app.get('home', '/', requireUser, (ctx) => ctx.render('index.html', {\n      title: 'demo',   // odd formatting");
    expect(r.text.replace(', requireUser', '').replace(', requireUser', '')).toBe(APP);
  });

  it('names the missing route in the manual instruction', async () => {
    await expect(registerGuard(app(), { route: 'admin', guard: 'requireAdmin' })).rejects.toThrow(
      "Add `requireAdmin` right after the path in the registration of the route 'admin' (`fluid.app.<method>('admin', '<path>', requireAdmin, <handler>)`) in fluid/app.ts",
    );
  });
});

describe('ensureArrayElement', () => {
  it('appends to one-line, multi-line and empty arrays in their own layout', async () => {
    const one = 'export const guards = [requireUser];\n';
    expect((await twice((f) => ensureArrayElement(f, { variable: 'guards', element: 'requireAdmin' }), app(one))).text)
      .toBe('export const guards = [requireUser, requireAdmin];\n');
    const multi = 'export const guards = [\n  requireUser,\n];\n';
    expect((await ensureArrayElement(app(multi), { variable: 'guards', element: 'requireAdmin' })).text)
      .toBe('export const guards = [\n  requireUser,\n  requireAdmin,\n];\n');
    const multiNoComma = 'export const guards = [\n    requireUser\n];\n';
    expect((await ensureArrayElement(app(multiNoComma), { variable: 'guards', element: 'requireAdmin' })).text)
      .toBe('export const guards = [\n    requireUser,\n    requireAdmin\n];\n');
    expect((await ensureArrayElement(app('const guards: Guard[] = [];\n'), { variable: 'guards', element: 'a' })).text).toBe('const guards: Guard[] = [a];\n');
  });

  it('gives the manual instruction when the array is missing', async () => {
    await expect(ensureArrayElement(app('const other = 1;\n'), { variable: 'guards', element: 'requireAdmin' }))
      .rejects.toThrow('Add `requireAdmin` to the array `const guards = [...]` in fluid/app.ts');
  });
});
