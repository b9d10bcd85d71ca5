/**
 * The tests `fw make test` writes pass on the project's own `npm test` the first time, for routes
 * registered in a module of the app's own (`fluid/posts.ts`, imported by fluid/app.ts) behind a
 * guard defined there (`fluid/access.ts`, typed `Guard`, made from the kernel's), and behind
 * middleware of the project's own that lets the request through. Before, the module's routes were
 * not found at all, and a guard outside fluid/guards* got a test expecting 200, which the guard
 * refuses. Also the other ways a user puts a guard before a route: a namespace import
 * (`access.staff`), a middleware passing the request to a guard, routers held in variables with
 * `use(guard)` before their routes (`api.use`, `pages.use`), where fw knows the guard runs; and
 * where it cannot know (a middleware calling a guard on some requests, `api.use` in another module
 * than the route), a test that reads the answer, and a line saying so. A project with the auth
 * scaffold, migrated (SQLite).
 */
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../generators/project-helpers.js';
import { linkCheckoutFw } from '../dev/helpers.js';
import { migrate, scaffoldProject, type ScaffoldProject } from '../auth-scaffold/app.js';

let project: ScaffoldProject;
const ROUTES = ['drafts', 'audited', 'feed', 'queue', 'inbox', 'search', 'stats', 'members', 'later'];
const made = new Map<string, string>();

beforeAll(async () => {
  project = await scaffoldProject();
  const root = project.root;
  await migrate(root);
  await writeFile(
    path.join(root, 'fluid/access.ts'),
    "import { requireRole, type Guard } from '@fw/kernel/auth';\n\n/** Staff only. */\nexport const staff: Guard = requireRole('staff');\n",
  );
  await writeFile(
    path.join(root, 'fluid/audit.ts'),
    "import type { FluidMiddleware } from '@fw/kernel';\n\n/** Counts requests. */\nexport let seen = 0;\n\n/** Lets every request through, counted. */\nexport const audit: FluidMiddleware = async (ctx, next) => {\n  seen += 1;\n  await next();\n};\n",
  );
  await writeFile(
    path.join(root, 'fluid/posts.ts'),
    [
      "import type { Fluid } from '@fw/kernel';",
      "import * as access from './access.js';",
      "import { staff } from './access.js';",
      "import { audit } from './audit.js';",
      '',
      '/** The posts routes. */',
      'export function registerPosts(fluid: Fluid): void {',
      "  fluid.api.get('drafts', '/drafts', staff, () => ({ drafts: [] }));",
      "  fluid.api.get('audited', '/audited', audit, () => ({ audited: true }));",
      "  fluid.api.get('feed', '/feed', () => ({ feed: [] }));",
      "  fluid.api.get('queue', '/queue', access.staff, () => ({ queue: [] }));",
      "  fluid.api.get('inbox', '/inbox', (ctx, next) => staff(ctx, next), () => ({ inbox: [] }));",
      '  fluid.api.get(',
      "    'search',",
      "    '/search',",
      '    async (ctx, next) => {',
      '      if (ctx.query.private) return staff(ctx, next);',
      '      await next();',
      '    },',
      '    () => ({ results: [] }),',
      '  );',
      '  const api = fluid.api;',
      '  const pages = fluid.app;',
      '  api.use(access.staff);',
      "  api.get('stats', '/stats', () => ({ stats: [] }));",
      '  pages.use(staff);',
      "  pages.get('members', '/members', () => ({ members: [] }));",
      '}',
      '',
    ].join('\n'),
  );
  // Registered after registerPosts put access.staff on the api router: guarded, which fw cannot see.
  await writeFile(
    path.join(root, 'fluid/later.ts'),
    "import type { Fluid } from '@fw/kernel';\n\n/** A route of another module. */\nexport function registerLater(fluid: Fluid): void {\n  fluid.api.get('later', '/later', () => ({ later: true }));\n}\n",
  );
  const app = path.join(root, 'fluid/app.ts');
  const source = await readFile(app, 'utf8');
  await writeFile(
    app,
    `import { registerPosts } from './posts.js';\nimport { registerLater } from './later.js';\n${source.replace('export default fluid;', 'registerPosts(fluid);\nregisterLater(fluid);\n\nexport default fluid;')}`,
  );
  for (const route of ROUTES) made.set(route, await ok(root, 'make', 'test', route));
  linkCheckoutFw(root); // the project's own `fw`: this checkout's build
}, 180_000);

afterAll(() => project?.remove());

const read = (name: string) => readFile(path.join(project.root, `test/${name}.test.ts`), 'utf8');

describe('fw make test of routes in a module of the app', () => {
  it('writes the refusal test for the guard of fluid/access.ts, a tolerant one for the own middleware, 200 for the open route', async () => {
    expect(await read('drafts')).toContain('refuses a request that is not signed in (staff)');
    expect(await read('audited')).toContain('expect([200, 302, 401, 403]).toContain(response.status);');
    expect(await read('feed')).toContain('expect(response.status).toBe(200);');
  });

  it('sees a guard through a namespace import, a middleware passing the request to it, and use() before routes of a router held in a variable', async () => {
    expect(await read('queue')).toContain('("queue") refuses a request that is not signed in (access.staff)');
    expect(await read('inbox')).toContain('("inbox") refuses a request that is not signed in (staff)');
    expect(await read('stats')).toContain('("stats") refuses a request that is not signed in (access.staff)');
    expect(await read('members')).toContain('("members") refuses a request that is not signed in (staff)');
    for (const route of ['queue', 'inbox', 'stats', 'members']) expect(await read(route)).not.toContain('toBe(200)');
  });

  it('where the source cannot say whether a guard runs, writes a test that reads the answer and says why, in the test and on the terminal', async () => {
    const search = await read('search');
    expect(search).toContain('("search") answers, or its guard (staff) refuses a request that is not signed in');
    // The comment, its lines joined.
    const said = (test: string) => test.replace(/\n\s*\/\/ /g, ' ');
    expect(said(search)).toMatch(/whether staff runs for this route: the middleware at fluid\/posts\.ts:\d+ calls staff only on some requests\./);
    const later = await read('later');
    expect(later).toContain('("later") answers, or its guard (access.staff) refuses a request that is not signed in');
    expect(said(later)).toMatch(/api\.use\(access\.staff\) at fluid\/posts\.ts:\d+ guards the api routes registered after it runs, and this route is registered in fluid\/later\.ts/);
    for (const test of [search, later]) {
      expect(test).toContain('if (response.status === 200) {');
      expect(test).toContain('expect([401, 403]).toContain(response.status);');
    }
    expect(made.get('later')).toMatch(/test\/later\.test\.ts: fw make test cannot tell whether access\.staff guards "later" \(api\.use\(access\.staff\) at fluid\/posts\.ts:\d+ /);
    expect(made.get('later')).toContain("the test takes 200 or the guard's refusal, whichever the app answers");
  });

  it("the project's npm test passes the generated tests", () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_ENV' && key !== 'FW_ENV'));
    const run = spawnSync('npm', ['test', '--', ...ROUTES.map((r) => `test/${r}.test.ts`)], { cwd: project.root, env, encoding: 'utf8', timeout: 180_000 });
    const out = run.stdout + run.stderr;
    expect(run.status, out).toBe(0);
    // eslint-disable-next-line no-control-regex
    expect(out.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/Tests\s+9 passed \(9\)/);
  }, 200_000);
});
