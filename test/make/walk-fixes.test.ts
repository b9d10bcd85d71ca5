/**
 * What a user walk through `fw make` and `fw create additive` found, each through the CLI:
 * `fw make test` finds routes registered in a module of the app's own (not only fluid/app.ts) and
 * follows a guard to its definition in any module; `fw make mail` says where its sender comes from
 * (read as the app reads its config);
 * `fw make route --help` lists no empty choice; the Additive's page has the viewport tag the app's
 * pages have; `fw make model` offers the binds of `DATABASE_BINDS_FILE`, in its `--help` too.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { editConfig, linkKernel } from '../generators/project-helpers.js';
import { KERNEL_GUARDS } from '../../generators/src/make/builtins/test.js';
import { fw, ok, project, read } from './helpers.js';

let root = '';
let remove = async (): Promise<void> => undefined;

beforeAll(async () => {
  ({ root, remove } = await project());
}, 120_000);

afterAll(() => remove());

/** Registers `lines` in fluid/app.ts before its export, with `imports` on top. */
async function addToApp(imports: string[], lines: string[]): Promise<void> {
  const file = path.join(root, 'fluid/app.ts');
  const source = await readFile(file, 'utf8');
  await writeFile(file, `${imports.join('\n')}\n${source.replace('export default fluid;', `${lines.join('\n')}\n\nexport default fluid;`)}`);
}

describe('fw make test', () => {
  beforeAll(async () => {
    await mkdir(path.join(root, 'fluid/posts'), { recursive: true });
    // Routes registered by a module of the app's own, reached from fluid/app.ts through another.
    await writeFile(
      path.join(root, 'fluid/posts/routes.ts'),
      [
        "import type { Fluid } from '@fw/kernel';",
        "import { audit } from '../middleware.js';",
        "import { staff, reviewer } from '../access.js';",
        '',
        'export function registerPosts(fluid: Fluid): void {',
        "  fluid.api.get('posts', '/posts', () => ({ posts: [] }));",
        "  fluid.api.get('post', '/posts/:id', (ctx) => ({ id: ctx.params.id }));",
        "  fluid.api.get('drafts', '/drafts', staff, () => ({ drafts: [] }));",
        "  fluid.api.get('review', '/review', reviewer('posts'), () => ({ review: [] }));",
        "  fluid.api.get('audited', '/audited', audit, () => ({ audited: true }));",
        '}',
        '',
      ].join('\n'),
    );
    await writeFile(path.join(root, 'fluid/posts.ts'), "export { registerPosts } from './posts/routes.js';\n");
    // Guards defined outside @fw/kernel/auth and fluid/guards*: one typed Guard, one made by a factory returning Guard.
    await writeFile(
      path.join(root, 'fluid/access.ts'),
      [
        "import { requireRole, requirePermission, type Guard } from '@fw/kernel/auth';",
        '',
        'export const staff: Guard = requireRole("staff");',
        '',
        'export function reviewer(area: string): Guard {',
        '  return requirePermission(`${area}.review`);',
        '}',
        '',
      ].join('\n'),
    );
    // Middleware of the project's own: fw cannot tell whether it refuses anyone.
    await writeFile(
      path.join(root, 'fluid/middleware.ts'),
      "import type { FluidMiddleware } from '@fw/kernel';\n\nexport const audit: FluidMiddleware = async (ctx, next) => {\n  await next();\n};\n",
    );
    await addToApp(["import { registerPosts } from './posts.js';"], ['registerPosts(fluid);']);
  });

  test("a route registered in a module fluid/app.ts imports gets a test, and fw make route sees it as taken", async () => {
    await ok(root, 'make', 'test', 'posts');
    const posts = await read(root, 'test/posts.test.ts');
    expect(posts).toContain(`test('GET /api/posts ("posts") answers JSON'`);
    expect(posts).toContain('expect(response.status).toBe(200);');
    await ok(root, 'make', 'test', 'post');
    expect(await read(root, 'test/post.test.ts')).toContain("fluid.urlFor('post', { id: '1' })");
    const clash = await fw(root, 'make', 'route', 'posts');
    expect(clash.error).toContain('route name "posts"');
    expect(clash.error).toContain('fluid/posts/routes.ts:6');
  });

  test('a guard defined in a module of the app, typed Guard or made by a function returning Guard, gets the refusal test', async () => {
    await ok(root, 'make', 'test', 'drafts');
    const drafts = await read(root, 'test/drafts.test.ts');
    expect(drafts).toContain(`test('GET /api/drafts ("drafts") refuses a request that is not signed in (staff)'`);
    expect(drafts).not.toContain('toBe(200)');
    await ok(root, 'make', 'test', 'review');
    expect(await read(root, 'test/review.test.ts')).toContain("refuses a request that is not signed in (reviewer)");
  });

  test("middleware of the project's own, which may or may not refuse, gets a test that takes either and says so", async () => {
    await ok(root, 'make', 'test', 'audited');
    const audited = await read(root, 'test/audited.test.ts');
    expect(audited).toContain(`test('GET /api/audited ("audited") answers, or its middleware (audit) refuses'`);
    expect(audited).toContain('expect([200, 302, 401, 403]).toContain(response.status);');
    expect(audited).not.toContain('toBe(200)');
  });
});

describe('fw make test of a guard put on every request with fluid.use', () => {
  test('a guard given to fluid.use gets the refusal test, whichever module calls it; other middleware there changes nothing', async () => {
    await writeFile(path.join(root, 'fluid/members.ts'), "import type { Fluid } from '@fw/kernel';\n\nexport function registerMembers(fluid: Fluid): void {\n  fluid.api.get('members', '/members', () => ({ members: [] }));\n}\n");
    await addToApp(["import { registerMembers } from './members.js';"], ['registerMembers(fluid);']);
    await ok(root, 'make', 'test', 'members');
    expect(await read(root, 'test/members.test.ts')).toContain('expect(response.status).toBe(200);');
    // Middleware of the app's own on every request (logging, sessions): not a guard.
    await addToApp([], ['fluid.use(async (ctx, next) => {', '  await next();', '});']);
    await ok(root, 'make', 'test', 'members', '--force');
    expect(await read(root, 'test/members.test.ts')).toContain('expect(response.status).toBe(200);');
    await addToApp(["import * as kernelAuth from '@fw/kernel/auth';"], ['fluid.use(kernelAuth.requireUser);']);
    await ok(root, 'make', 'test', 'members', '--force');
    expect(await read(root, 'test/members.test.ts')).toContain('("members") refuses a request that is not signed in (kernelAuth.requireUser)');
  });

  test("fw make test's list of @fw/kernel/auth's guards holds every guard it exports", async () => {
    const kernelAuth: Record<string, unknown> = await import('../../runtime-kernel/src/auth/index.js');
    const guards = Object.keys(kernelAuth).filter((name) => typeof kernelAuth[name] === 'function' && typeof (kernelAuth[name] as { guardName?: unknown }).guardName === 'string');
    expect(guards.length).toBeGreaterThan(0);
    for (const name of [...guards, 'guard', 'requireRole', 'requirePermission', 'requirementOrGrant', 'requirementAndGrant']) expect(KERNEL_GUARDS.has(name), name).toBe(true);
    for (const name of KERNEL_GUARDS) expect(kernelAuth[name], name).toBeTypeOf('function');
  });
});

describe('fw make mail', () => {
  test('says where MAIL_DEFAULT_SENDER is set as the app reads it (fw.json, app_configs/<app>.ini, the environment) and, when nothing sets it, exactly how to', async () => {
    // The app's config is read by the project's own kernel, as `npm install` puts it there.
    await linkKernel(root);
    const out = await ok(root, 'make', 'mail', 'welcome');
    expect(out).toContain(
      'Next: set the sender: it is sent from MAIL_DEFAULT_SENDER, which the app does not set (in fw.json, app_configs/<app>.ini, .env or the environment), ' +
        'and sending fails until it is set. Add "MAIL_DEFAULT_SENDER": "app <no-reply@localhost>" to "config" in fw.json',
    );
    // Set in the app's ini file only: fw.json has none, and the app still sends.
    const ini = path.join(root, 'app_configs/app.ini');
    const before = await readFile(ini, 'utf8');
    await writeFile(ini, `${before}MAIL_DEFAULT_SENDER = Ini <ini@example.com>\n`);
    const line = before.split('\n').length;
    const fromIni = await ok(root, 'make', 'mail', 'receipt');
    expect(fromIni).toContain(`It is sent from MAIL_DEFAULT_SENDER (Ini <ini@example.com>, set in app_configs/app.ini:${line})`);
    expect(fromIni).not.toContain('Next: set the sender');
    await writeFile(ini, before);
    await editConfig(root, (json) => {
      json.config.MAIL_DEFAULT_SENDER = 'Shop <shop@example.com>';
    });
    const again = await ok(root, 'make', 'mail', 'invoice');
    expect(again).toMatch(/It is sent from MAIL_DEFAULT_SENDER \(Shop <shop@example\.com>, set in fw\.json:\d+:\d+\)/);
    expect(again).not.toContain('Next: set the sender');
  });
});

describe('fw make route --help', () => {
  test('--additive lists no empty choice when the app has no Additives', async () => {
    const help = await ok(root, 'make', 'route', '--help');
    const line = help.split('\n').find((l) => l.trimStart().startsWith('--additive'));
    expect(line).toBeDefined();
    expect(line).not.toContain('()');
    expect(line).toContain('this app has none: it goes in fluid/');
  });
});

describe('the page of fw create additive', () => {
  test('has the viewport meta tag, as the app page and fw make page have', async () => {
    const viewport = '<meta name="viewport" content="width=device-width, initial-scale=1" />';
    await ok(root, 'create', 'additive', 'shop');
    await ok(root, 'make', 'page', 'about');
    expect(await read(root, 'fluid/templates/index.html')).toContain(viewport);
    expect(await read(root, 'fluid/templates/about.html')).toContain(viewport);
    expect(await read(root, 'additives/shop/templates/shop/index.html')).toContain(viewport);
    const help = await ok(root, 'make', 'route', '--help');
    expect(help.split('\n').find((l) => l.trimStart().startsWith('--additive'))).toContain('(shop)');
  });
});

describe('fw make model', () => {
  test('offers the binds of DATABASE_BINDS_FILE', async () => {
    await mkdir(path.join(root, 'config'), { recursive: true });
    await writeFile(path.join(root, 'config/binds.json'), `${JSON.stringify({ main: 'file:./var/main.db', audit: 'file:./var/audit.db' })}\n`);
    await editConfig(root, (json) => {
      json.config.DATABASE_BINDS_FILE = 'config/binds.json';
    });
    await ok(root, 'migrate', 'init');
    await ok(root, 'make', 'model', 'Entry', '--bind', 'audit', '--fields', 'text:String');
    expect(await read(root, 'prisma/audit/schema.prisma')).toMatch(/model Entry \{/);
    const wrong = await fw(root, 'make', 'model', 'Other', '--bind', 'nope');
    expect(wrong.error).toContain('--bind: expected one of main, audit; got "nope"');
    // --help shows the file's binds and the default bind by name, as for binds given inline.
    const help = await ok(root, 'make', 'model', '--help');
    const line = help.split('\n').find((l) => l.trimStart().startsWith('--bind'));
    expect(line).toContain('(main | audit) [default: "main"]');
    expect(help).not.toContain('[has a default]');
  });
});
