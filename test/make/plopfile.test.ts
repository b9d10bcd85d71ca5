/**
 * A project's own plop generator (generators/plopfile.ts, TypeScript, loaded with tsx) runs with
 * the same guarantees as fw's: its files are planned, dry-run, recorded as `make:<generator>`; a
 * hand edit survives `fw generate` and a re-run merges it; a real overlap is a visible conflict.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { REPO } from '../generators/helpers.js';
import { dryRunThenRun, fw, ok, project, read } from './helpers.js';

let root = '';
let remove = async (): Promise<void> => undefined;

const PLOPFILE = `import type { NodePlopAPI } from '@fw/cli/make';

/** The controllers of this app. */
export default function (plop: NodePlopAPI): void {
  plop.setGenerator('controller', {
    description: 'a controller module, exported from fluid/controllers/index.ts, and its API route',
    prompts: [{ type: 'input', name: 'name', message: 'Controller name' }],
    actions: [
      { type: 'add', path: 'fluid/controllers/{{kebabCase name}}.ts', templateFile: 'templates/controller.ts.hbs' },
      { type: 'add', path: 'fluid/controllers/index.ts', template: "// The app's controllers.\\n", skipIfExists: true },
      { type: 'append', path: 'fluid/controllers/index.ts', template: "export * from './{{kebabCase name}}.js';" },
      {
        type: 'fw:route',
        router: 'api',
        name: '{{camelCase name}}',
        handler: 'list{{pascalCase name}}',
        import: { from: './controllers/{{kebabCase name}}.js', names: ['list{{pascalCase name}}'] },
      },
      'Next: fill in the controller, and its test with fw make test <route>',
    ],
  });
}
`;

const TEMPLATE = `import type { FluidContext } from '@fw/kernel';

/** Lists the {{name}}. */
export function list{{pascalCase name}}(ctx: FluidContext) {
  return { items: [], path: ctx.path };
}
`;

async function write(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(path.join(root, file), text);
}

async function replace(file: string, from: string, to: string): Promise<void> {
  const text = await read(root, file);
  expect(text, `${file} holds ${from}`).toContain(from);
  await writeFile(path.join(root, file), text.replace(from, to));
}

beforeAll(async () => {
  ({ root, remove } = await project());
  await write('generators/plopfile.ts', PLOPFILE);
  await write('generators/templates/controller.ts.hbs', TEMPLATE);
});

afterAll(() => remove());

test('fw make --list shows fw\'s generators and the plopfile\'s', async () => {
  const list = await ok(root, 'make', '--list');
  expect(list).toMatch(/^fw's generators:\n {2}route {4}/);
  expect(list).toContain('Your generators (generators/plopfile.ts):\n  controller  a controller module');
});

test("a plopfile generator writes through the pipeline and the record; fw generate leaves its files; a re-run merges; an overlap is a conflict", async () => {
  const files = await dryRunThenRun(root, 'make', 'controller', 'invoices');
  expect(files.map((f) => `${f.action} ${f.path}`)).toEqual(['update fluid/app.ts', 'create fluid/controllers/index.ts', 'create fluid/controllers/invoices.ts']);
  // plop's append: the separator ("\n") after the existing text, then the template.
  expect(await read(root, 'fluid/controllers/index.ts')).toBe("// The app's controllers.\n\nexport * from './invoices.js';");
  expect(await read(root, 'fluid/app.ts')).toContain("import { listInvoices } from './controllers/invoices.js';");
  expect(await read(root, 'fluid/app.ts')).toContain("fluid.api.get('invoices', '/invoices', listInvoices);");
  const record = JSON.parse(await read(root, '.fw/record.json')) as { files: Record<string, { generator: string }> };
  expect(record.files['fluid/controllers/invoices.ts']?.generator).toBe('make:controller');

  // A hand edit: fw generate leaves the file alone.
  await replace('fluid/controllers/invoices.ts', '  return { items: [], path: ctx.path };', '  const items: string[] = [];\n  return { items, path: ctx.path };');
  expect(await ok(root, 'generate')).toMatch(/^\d+ files: \d+ unchanged\n$/);
  expect(await read(root, 'fluid/controllers/invoices.ts')).toContain('const items: string[] = [];');

  // The template changes elsewhere: running the generator again merges both.
  await replace('generators/templates/controller.ts.hbs', '/** Lists the {{name}}. */', '/** Lists the {{name}}, newest first. */');
  const merged = await ok(root, 'make', 'controller', 'invoices');
  expect(merged).toMatch(/merge\s+fluid\/controllers\/invoices\.ts/);
  expect(merged).toContain('fluid/app.ts already has route GET /api/invoices ("invoices"): left as it is');
  const both = await read(root, 'fluid/controllers/invoices.ts');
  expect(both).toContain('/** Lists the invoices, newest first. */');
  expect(both).toContain('const items: string[] = [];');
  expect(await read(root, 'fluid/controllers/index.ts')).toBe("// The app's controllers.\n\nexport * from './invoices.js';");

  // A second instance: the first one's files stay as they are.
  await ok(root, 'make', 'controller', 'payments');
  expect(await read(root, 'fluid/controllers/index.ts')).toBe("// The app's controllers.\n\nexport * from './invoices.js';\nexport * from './payments.js';");
  expect(await read(root, 'fluid/controllers/invoices.ts')).toBe(both);

  // The same line changed on both sides: a conflict, marked in the file, and exit status 1.
  await replace('fluid/controllers/invoices.ts', 'return { items, path: ctx.path };', 'return { items, path: ctx.path, mine: true };');
  await replace('generators/templates/controller.ts.hbs', 'return { items: [], path: ctx.path };', 'return { items: [], path: ctx.path, total: 0 };');
  const conflict = await fw(root, 'make', 'controller', 'invoices');
  expect(conflict.code).toBe(1);
  expect(conflict.out).toMatch(/conflict\s+fluid\/controllers\/invoices\.ts/);
  expect(conflict.out).toContain('Next: fill in the controller, and its test with fw make test <route>');
  expect(conflict.out).toContain('Then run `fw make controller invoices` again.');
  const marked = await read(root, 'fluid/controllers/invoices.ts');
  expect(marked).toContain('<<<<<<< ours (your edit)\n  const items: string[] = [];\n  return { items, path: ctx.path, mine: true };');
  expect(marked).toContain('=======\n  return { items: [], path: ctx.path, total: 0 };\n>>>>>>> theirs (new render)');
});

test('plop\'s add refuses a file the generator did not write; --force merges it instead, keeping yours', async () => {
  await write('fluid/controllers/orders.ts', 'export const mine = true;\n');
  const refused = await fw(root, 'make', 'controller', 'orders');
  expect(refused.error).toMatch(/^fw make controller: action 1 \(add\): fluid\/controllers\/orders\.ts already exists and fw make controller did not write it/);
  expect(await read(root, 'fluid/controllers/orders.ts')).toBe('export const mine = true;\n');
  const forced = await fw(root, 'make', 'controller', 'orders', '--force');
  expect(forced.out).toMatch(/conflict-untracked\s+fluid\/controllers\/orders\.ts/);
  expect(await read(root, 'fluid/controllers/orders.ts')).toBe('export const mine = true;\n');
  expect(await read(root, 'fluid/controllers/orders.ts.fw-new')).toContain('export function listOrders');
});

test('a plopfile generator named like a built-in is an error naming both', async () => {
  await write('generators/plopfile.ts', "export default function (plop) {\n  plop.setGenerator('page', { description: 'my page', prompts: [], actions: [] });\n}\n");
  const clash = await fw(root, 'make', 'controller', 'x');
  expect(clash.error).toBe('generators/plopfile.ts defines the generator "page", and "page" is a built-in of fw make (a page: a template in fluid/templates/ or an Additive\'s, and the route that renders it): rename yours');
});

test('an add to an absolute path outside the project is refused naming the path as the plopfile wrote it', async () => {
  const outside = path.join(path.dirname(root), 'outside.txt');
  await write('generators/plopfile.ts', `export default function (plop) {\n  plop.setGenerator('escape', { prompts: [], actions: [{ type: 'add', path: ${JSON.stringify(outside)}, template: 'x' }] });\n}\n`);
  const refused = await fw(root, 'make', 'escape');
  expect(refused.error).toBe(`fw make escape: action 1 (add): generators/plopfile.ts: Refusing path "${outside}": it points outside the project root`);
  expect(existsSync(outside)).toBe(false);
});

test('a plopfile that throws, or does not parse, is named with its line (the built fw, as a user runs it)', async () => {
  const bin = path.join(REPO, 'generators/dist/bin/fw.js');
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run "npm run build" first (npm test does).`);
  const error = (...argv: string[]): string => spawnSync(process.execPath, [bin, ...argv], { cwd: root, encoding: 'utf8' }).stderr;
  await write('generators/plopfile.ts', "export default function (plop) {\n  plop.setGenerator('a', { description: 'a', prompts: [], actions: [] });\n  throw new Error('the plopfile is broken');\n}\n");
  expect(error('make', '--list')).toBe('error: generators/plopfile.ts:3:9: the plopfile is broken (running the plopfile)\n');
  await write('generators/plopfile.ts', 'const broken = ;\nexport default () => undefined;\n');
  expect(error('make', '--list')).toBe('error: generators/plopfile.ts:1:15: ERROR: Unexpected ";" (loading the plopfile)\n');
  await write('generators/plopfile.ts', "export default function (plop) {\n  plop.setGenerator('boom', {\n    description: 'boom',\n    prompts: [],\n    actions: [() => {\n      throw new Error('kaboom');\n    }],\n  });\n}\n");
  expect(error('make', 'boom')).toBe('error: fw make boom: action 1 (function): generators/plopfile.ts:6:13: kaboom\n');
});
