import { describe, expect, it } from 'vitest';
import { identifierFor } from '../../generators/src/additive/names.js';
import { CodemodAnchorError, registerAdditive, unregisterAdditive, type CodemodResult, type SourceText } from '../../generators/src/codemods/index.js';

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
