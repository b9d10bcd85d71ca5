/**
 * The tests `fw make test` writes pass on the project's own `npm test` the first time, for routes
 * registered in a module of the app's own (`fluid/posts.ts`, imported by fluid/app.ts) behind a
 * guard defined there (`fluid/access.ts`, typed `Guard`, made from the kernel's), and behind
 * middleware of the project's own that lets the request through. Before, the module's routes were
 * not found at all, and a guard outside fluid/guards* got a test expecting 200, which the guard
 * refuses. A project with the auth scaffold, migrated (SQLite).
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../generators/project-helpers.js';
import { FW_BIN } from '../dev/helpers.js';
import { migrate, scaffoldProject, type ScaffoldProject } from '../auth-scaffold/app.js';

let project: ScaffoldProject;
const ROUTES = ['drafts', 'audited', 'feed'];

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
      "import { staff } from './access.js';",
      "import { audit } from './audit.js';",
      '',
      '/** The posts routes. */',
      'export function registerPosts(fluid: Fluid): void {',
      "  fluid.api.get('drafts', '/drafts', staff, () => ({ drafts: [] }));",
      "  fluid.api.get('audited', '/audited', audit, () => ({ audited: true }));",
      "  fluid.api.get('feed', '/feed', () => ({ feed: [] }));",
      '}',
      '',
    ].join('\n'),
  );
  const app = path.join(root, 'fluid/app.ts');
  const source = await readFile(app, 'utf8');
  await writeFile(app, `import { registerPosts } from './posts.js';\n${source.replace('export default fluid;', 'registerPosts(fluid);\n\nexport default fluid;')}`);
  for (const route of ROUTES) await ok(root, 'make', 'test', route);
  // The project's own `fw` (npm links node_modules/.bin/fw to @fw/cli): this checkout's build.
  await mkdir(path.join(root, 'node_modules/.bin'), { recursive: true });
  await writeFile(path.join(root, 'node_modules/.bin/fw'), `#!/bin/sh\nexec "${process.execPath}" "${FW_BIN}" "$@"\n`, { mode: 0o755 });
}, 180_000);

afterAll(() => project?.remove());

describe('fw make test of routes in a module of the app', () => {
  it('writes the refusal test for the guard of fluid/access.ts, a tolerant one for the own middleware, 200 for the open route', async () => {
    const read = (name: string) => readFile(path.join(project.root, `test/${name}.test.ts`), 'utf8');
    expect(await read('drafts')).toContain('refuses a request that is not signed in (staff)');
    expect(await read('audited')).toContain('expect([200, 302, 401, 403]).toContain(response.status);');
    expect(await read('feed')).toContain('expect(response.status).toBe(200);');
  });

  it("the project's npm test passes the three generated tests", () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_ENV' && key !== 'FW_ENV'));
    const run = spawnSync('npm', ['test', '--', ...ROUTES.map((r) => `test/${r}.test.ts`)], { cwd: project.root, env, encoding: 'utf8', timeout: 180_000 });
    const out = run.stdout + run.stderr;
    expect(run.status, out).toBe(0);
    // eslint-disable-next-line no-control-regex
    expect(out.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/Tests\s+3 passed \(3\)/);
  }, 200_000);
});
