/**
 * Every built-in `fw make` generator in one generated app (linked to this checkout with --local,
 * installed once): each run's --dry-run writes nothing and prints what the real run then writes,
 * each leaves `fw generate` nothing to do, and at the end the app type-checks and its own tests
 * pass, including a test that uses what the generators wrote (a mail, an event, a plugin).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sh } from '../support/process.js';
import { dryRunThenRun, ok, project, read } from './helpers.js';

let root = '';
let remove = async (): Promise<void> => undefined;

/** `fw generate` right after a generator: nothing to do, and the files fw make wrote are left as they are. */
async function generateIsNoOp(): Promise<void> {
  expect(await ok(root, 'generate')).toMatch(/^\d+ files: \d+ unchanged\n$/);
}

beforeAll(async () => {
  ({ root, remove } = await project(['--local']));
  sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], root, 240_000);
  // The Prisma environment the model generator writes into (rendered only: no database needed).
  await ok(root, 'migrate', 'init');
  await ok(root, 'create', 'additive', 'blog');
}, 300_000);

afterAll(() => remove());

describe('each built-in: --dry-run prints what the real run writes, then fw generate has nothing to do', () => {
  test('route: a JSON route in fluid/app.ts, with a path parameter', async () => {
    const files = await dryRunThenRun(root, 'make', 'route', 'user', '--path', '/users/:id');
    expect(files.map((f) => `${f.action} ${f.path}`)).toEqual(['update fluid/app.ts']);
    expect(await read(root, 'fluid/app.ts')).toContain("fluid.api.get('user', '/users/:id', (ctx) => ({ route: 'user', id: ctx.params.id }));");
    await generateIsNoOp();
  });

  test("route --additive: a handler and its registration in the Additive's api.ts", async () => {
    await dryRunThenRun(root, 'make', 'route', 'posts', '--additive', 'blog');
    const api = await read(root, 'additives/blog/api.ts');
    expect(api).toContain("export const posts: Handler = () => ({ route: 'blog.posts' });");
    expect(api).toContain("  router.get('posts', '/posts', posts);\n}");
    await generateIsNoOp();
  });

  test('page: a template using {{static}} and {{url_for}}, and its route', async () => {
    const files = await dryRunThenRun(root, 'make', 'page', 'about');
    expect(files.map((f) => `${f.action} ${f.path}`)).toEqual(['update fluid/app.ts', 'create fluid/templates/about.html']);
    const template = await read(root, 'fluid/templates/about.html');
    expect(template).toContain(`<link rel="stylesheet" href="{{static 'app.css'}}" />`);
    expect(template).toContain(`<a href="{{url_for 'home'}}">Home</a>`);
    expect(await read(root, 'fluid/app.ts')).toContain("fluid.app.get('about', '/about', (ctx) => ctx.render('about.html', { title: 'About' }));");
    const record = JSON.parse(await read(root, '.fw/record.json')) as { files: Record<string, { generator: string }> };
    expect(record.files['fluid/templates/about.html']?.generator).toBe('make:page');
    await generateIsNoOp();
  });

  test('page --additive: the template under the Additive, the handler in its app.ts', async () => {
    await dryRunThenRun(root, 'make', 'page', 'archive', '--additive', 'blog');
    expect(await read(root, 'additives/blog/templates/blog/archive.html')).toContain(`{{static 'blog.css' additive='blog'}}`);
    expect(await read(root, 'additives/blog/app.ts')).toContain("router.get('archive', '/archive', archive);");
    await generateIsNoOp();
  });

  test('model: a Prisma model at the end of the bind schema, and the migration to make next', async () => {
    const files = await dryRunThenRun(root, 'make', 'model', 'Post', '--fields', 'title:String body:String? views:Int');
    expect(files.map((f) => `${f.action} ${f.path}`)).toEqual(['update prisma/main/schema.prisma']);
    const schema = await read(root, 'prisma/main/schema.prisma');
    expect(schema).toMatch(/\nmodel Post \{\n {2}id {8}Int {6}@id @default\(autoincrement\(\)\)\n {2}title {5}String\n {2}body {6}String\?\n {2}views {5}Int\n/);
    expect(await ok(root, 'make', 'model', 'Comment', '--dry-run')).toContain('Next: create its migration with npx fw migrate dev --bind main --name add_comment');
    await generateIsNoOp();
  });

  test('mail: templates, a typed send function, and nodemailer in package.json', async () => {
    const files = await dryRunThenRun(root, 'make', 'mail', 'order-shipped', '--subject', 'Your order is on its way', '--fields', 'name,orderId');
    expect(files.map((f) => `${f.action} ${f.path}`)).toEqual([
      'create fluid/mail/order-shipped.ts',
      'create fluid/templates/mail/order-shipped.html',
      'create fluid/templates/mail/order-shipped.txt',
      'update package.json',
    ]);
    const pkg = JSON.parse(await read(root, 'package.json')) as { dependencies: Record<string, string> };
    const kernel = JSON.parse(await readFile(path.join(root, 'node_modules/@fw/kernel/package.json'), 'utf8')) as { peerDependencies: Record<string, string> };
    expect(pkg.dependencies.nodemailer).toBe(kernel.peerDependencies.nodemailer!.replace(/^\^/, '')); // the exact version fw pins
    expect(await read(root, 'fluid/templates/mail/order-shipped.txt')).toBe('Your order is on its way\n\nHello {{name}},\n\nOrder id: {{orderId}}\n');
    // A second mail: nodemailer is there already.
    const again = await dryRunThenRun(root, 'make', 'mail', 'welcome');
    expect(again.map((f) => f.path)).not.toContain('package.json');
    await generateIsNoOp();
  });

  test('guard: any of some roles or permissions, on the kernel guard API', async () => {
    await dryRunThenRun(root, 'make', 'guard', 'can-publish', '--roles', 'editor,admin', '--permissions', 'posts:publish');
    const guard = await read(root, 'fluid/guards/can-publish.ts');
    expect(guard).toContain("export const canPublish: Guard = guard('canPublish', async (ctx) => {");
    expect(guard).toContain("if (['editor', 'admin'].some((role) => roles.includes(role))) return user;");
    await generateIsNoOp();
  });

  test('event: a signal and its listener, registered in fluid/app.ts', async () => {
    await dryRunThenRun(root, 'make', 'event', 'order.paid', '--fields', 'orderId:string total:number');
    const app = await read(root, 'fluid/app.ts');
    expect(app).toContain("import { orderPaidEvent } from './events/order-paid.js';");
    expect(app).toContain('export const orderPaid = orderPaidEvent(fluid);');
    await generateIsNoOp();
    // Run again, it changes nothing: no second registration (as orderPaidSignal) of the same event.
    const again = await ok(root, 'make', 'event', 'order.paid', '--fields', 'orderId:string total:number');
    expect(again).toMatch(/^1 file: 1 unchanged\n/);
    expect(again).toContain('fluid/app.ts already has export const orderPaid = orderPaidEvent(fluid);: left as it is');
    expect(await read(root, 'fluid/app.ts')).toBe(app);
  });

  test('plugin: a plugin with its ctx field, registered with fluid.plugin()', async () => {
    await dryRunThenRun(root, 'make', 'plugin', 'request-timer');
    expect(await read(root, 'fluid/plugins/request-timer.ts')).toContain('    readonly requestTimer: RequestTimerState;');
    expect(await read(root, 'fluid/app.ts')).toContain('fluid.plugin(requestTimer());');
    await generateIsNoOp();
  });

  test('test: a vitest test per route, JSON or page, app or Additive', async () => {
    await ok(root, 'make', 'route', 'publish', '--method', 'post', '--router', 'app');
    for (const route of ['user', 'about', 'blog.posts', 'blog.archive', 'publish']) await dryRunThenRun(root, 'make', 'test', route);
    expect(await read(root, 'test/user.test.ts')).toContain("fluid.urlFor('user', { id: '1' })");
    // In the style of test/home.test.ts: the kernel's test client, which sends the CSRF token an
    // app with auth requires on a POST.
    for (const file of ['test/user.test.ts', 'test/publish.test.ts']) expect(await read(root, file)).toContain('const client = testClient(fluid);');
    expect(await read(root, 'test/publish.test.ts')).toContain('const response = await client.post(url);');
    expect(await read(root, 'test/about.test.ts')).toContain('toMatch(/text\\/html/)');
    expect(await read(root, 'test/blog-posts.test.ts')).toContain('toMatch(/json/)');
    await generateIsNoOp();
  });
});

test('the app type-checks and its tests pass, exercising the mail, the event and the plugin', async () => {
  // What a user would write next, using what the generators made.
  await writeFile(
    path.join(root, 'test/made.test.ts'),
    `import { readdir } from 'node:fs/promises';
import { expect, test } from 'vitest';
import fluid, { orderPaid } from '../fluid/app.js';
import type { OrderPaid } from '../fluid/events/order-paid.js';
import { sendOrderShippedMail } from '../fluid/mail/order-shipped.js';

fluid.app.get('timer', '/timer', (ctx) => ({ startedAt: ctx.requestTimer.startedAt }));

test('the mail lands in the outbox, the event reaches a listener, the plugin sets ctx.requestTimer', async () => {
  const server = await fluid.listen(0, '127.0.0.1');
  try {
    const port = (server.address() as { port: number }).port;
    const { startedAt } = (await (await fetch(\`http://127.0.0.1:\${port}/timer\`)).json()) as { startedAt: number };
    expect(startedAt).toBeGreaterThan(0);
    const sent = await sendOrderShippedMail(fluid, 'ann@example.com', { name: 'Ann', orderId: 'A-1' });
    expect(sent.file).toMatch(/\\.eml$/);
    expect((await readdir(fluid.root + '/var/outbox')).length).toBe(1);
    const got = new Promise<OrderPaid>((resolve) => fluid.events.event('order.paid', resolve));
    orderPaid.trigger({ orderId: 'A-1', total: 12 });
    expect(await got).toEqual({ orderId: 'A-1', total: 12 });
  } finally {
    await fluid.close();
  }
});
`,
  );
  await writeFile(path.join(root, 'fw.json'), (await read(root, 'fw.json')).replace('"config": {', '"config": {\n    "MAIL_DEFAULT_SENDER": "Shop <shop@example.com>",'));
  expect(sh('npx', ['tsc', '--noEmit'], root, 120_000).stdout).toBe('');
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST')));
  const tests = sh('npm', ['test'], root, 180_000, [0], env);
  // eslint-disable-next-line no-control-regex
  expect(tests.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/Test Files\s+8 passed \(8\)/);
}, 300_000);
