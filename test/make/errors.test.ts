/**
 * `fw make` refuses bad input with an error naming what was wrong, and writes nothing: an unknown
 * generator (did you mean), a missing answer without a terminal (its flag), a bad answer, a
 * model before `fw migrate init`, a route or page that clashes with the app (both sides named,
 * unless --force), and an event whose name maps to another event's file.
 */
import { existsSync } from 'node:fs';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import Koa from 'koa';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { fw, ok, project, read, snapshot } from './helpers.js';

let root = '';
let remove = async (): Promise<void> => undefined;

beforeAll(async () => {
  ({ root, remove } = await project());
});

afterAll(() => remove());

/** Runs `fw <argv>`, expects it to fail with `message`, and checks nothing was written. */
async function refused(message: string | RegExp, ...argv: string[]): Promise<void> {
  const before = await snapshot(root);
  const run = await fw(root, ...argv);
  expect(run.code).toBe(1);
  if (typeof message === 'string') expect(run.error).toBe(message);
  else expect(run.error).toMatch(message);
  expect(await snapshot(root)).toEqual(before);
}

test('an unknown generator: did you mean, and the generators there are', async () => {
  await refused(
    'fw make: unknown generator "pgae" (did you mean page?); the generators are route, page, model, mail, guard, event, test, plugin. Run "fw make --list".',
    'make', 'pgae', 'about',
  );
});

test('a missing answer without a terminal names its flag; a bad one says why', async () => {
  await refused('fw make page: missing --name (Page name): give it as "fw make page <name>" or --name <value>; fw asks only on a terminal.', 'make', 'page');
  await refused(/^fw make route: --method: expected one of get, post, put, patch, delete, all; got "fetch"$/, 'make', 'route', 'x', '--method', 'fetch');
  await refused(/^fw make page: --name: "2fast" is not a usable name: start with a letter/, 'make', 'page', '2fast');
  await refused(/^fw make route: --path: a path starts with "\/"/, 'make', 'route', 'x', '--path', 'nope');
  await refused('fw make page: unknown option --titel (did you mean --title?). Run "fw make page --help" for its questions.', 'make', 'page', 'x', '--titel', 'X');
  expect(await ok(root, 'make', 'page', '--help')).toContain('  --title <value>                 Page title [has a default] (or argument 2)');
});

test('a model before fw migrate init names the command to run', async () => {
  await refused(
    'fw make model: prisma/main/schema.prisma does not exist: run "npx fw migrate init" first (it writes the Prisma environment of every bind)',
    'make', 'model', 'Post',
  );
});

test('fw make route and fw make page refuse a clash, naming both sides; --force writes them anyway', async () => {
  // GET /hello is the htmx app's own route ("hello").
  await refused(
    'fw make route: route GET /hello ("greeting") clashes with what the app already has:\n' +
      '  - GET /hello ("greeting", fluid/app.ts) would answer the same requests as GET /hello ("hello", fluid/app.ts:14)\n' +
      'Choose another name, or move the route or template it clashes with; pass --force to write it anyway.',
    'make', 'route', 'greeting', '--router', 'app', '--path', '/hello',
  );
  await refused(
    'fw make page: route GET /welcome ("hello") clashes with what the app already has:\n' +
      '  - route name "hello" of GET /welcome ("hello", fluid/app.ts) is already taken by GET /hello ("hello", fluid/app.ts:14)\n' +
      '  - template "hello.html" (rendered by route "hello") is already in fluid/templates/hello.html, which render() finds first\n' +
      'Choose another name, or move the route or template it clashes with; pass --force to write it anyway.',
    'make', 'page', 'hello', '--path', '/welcome',
  );
  await refused(/^fw make page: route GET \/index \("index"\) clashes with what the app already has:\n {2}- template "index\.html" \(rendered by route "index"\) is already in fluid\/templates\/index\.html, which render\(\) finds first\n/, 'make', 'page', 'index');

  const forced = await ok(root, 'make', 'route', 'greeting', '--router', 'app', '--path', '/hello', '--force');
  expect(forced).toContain('--force: written despite: GET /hello ("greeting", fluid/app.ts) would answer the same requests as GET /hello ("hello", fluid/app.ts:14)');
  expect(await read(root, 'fluid/app.ts')).toContain("fluid.app.get('greeting', '/hello', () => ({ route: 'greeting' }));");
});

test('fw make event refuses a second event whose name maps to the file of the first (it rewrote that file, renaming the first event)', async () => {
  await ok(root, 'make', 'event', 'order.paid', '--fields', 'orderId:string');
  const file = await read(root, 'fluid/events/order-paid.ts');
  expect(file).toContain("export const ORDER_PAID = 'order.paid';");
  for (const name of ['OrderPaid', 'order_paid']) {
    await refused(
      `fw make event: fluid/events/order-paid.ts already defines the event "order.paid", and "${name}" would use the same file (and the name orderPaidEvent in fluid/app.ts). ` +
        `They are two different events: give "${name}" a name that differs from "order.paid" in more than case and separators, or use "order.paid"`,
      'make', 'event', name, '--fields', 'orderId:string',
    );
  }
  // The same event again is still a re-run that changes nothing.
  expect(await ok(root, 'make', 'event', 'order.paid', '--fields', 'orderId:string')).toMatch(/^1 file: 1 unchanged\n/);
  expect(await read(root, 'fluid/events/order-paid.ts')).toBe(file);
});

test('a file fw make wrote and you deleted stays deleted, and fw says how to get it back; --force writes it again', async () => {
  await ok(root, 'make', 'page', 'faq');
  const template = await read(root, 'fluid/templates/faq.html');
  await rm(path.join(root, 'fluid/templates/faq.html'));
  const again = await ok(root, 'make', 'page', 'faq');
  expect(again).toContain('skip-deleted        fluid/templates/faq.html');
  expect(again).toContain('fluid/templates/faq.html: you deleted it, so fw make left it deleted; pass --force to write it again');
  expect(existsSync(path.join(root, 'fluid/templates/faq.html'))).toBe(false);
  expect(await ok(root, 'make', 'page', 'faq', '--force')).toContain('create              fluid/templates/faq.html  (you had deleted it: written again because of --force)');
  expect(await read(root, 'fluid/templates/faq.html')).toBe(template);
  expect(await ok(root, 'generate')).toMatch(/^\d+ files: \d+ unchanged\n$/);
});

test('fw make plugin refuses every field a context already has (Koa\'s and the kernel\'s), which its plugin would shadow', async () => {
  // Every property of a real Koa context, prototypes included, and the fields fw's kernel adds.
  const request = new IncomingMessage(new Socket());
  const ctx = new Koa().createContext(request, new ServerResponse(request));
  const fields = new Set(['fluid', 'render', 'urlFor', 'clientAddress', 'params', 'requestId', 'locale', 'i18n', 'session', 'user', 'csrfToken']);
  for (let o: object | null = ctx; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const name of Object.getOwnPropertyNames(o)) fields.add(name);
  }
  // The names a plugin's field can take: `fw make plugin last-modified` gives ctx.lastModified.
  const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const names = [...fields].filter((f) => /^[a-z][a-zA-Z]*$/.test(f)).map(kebab);
  expect(names).toEqual(expect.arrayContaining(['accepts', 'redirect', 'request-id', 'last-modified']));
  for (const name of names) await refused(/^fw make plugin: --name: /, 'make', 'plugin', name);
});
