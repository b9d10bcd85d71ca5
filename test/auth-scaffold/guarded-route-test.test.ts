/**
 * `fw make test` of a route behind a guard (one of `fw make guard`, or the kernel's through
 * fluid/guards.ts): the test client is not signed in, so the guard refuses it, and the generated
 * test, which expected 200, failed on `npm test` as soon as it was written. Now the test checks
 * that refusal (401/403, or the sign-in redirect of a page request), and an unguarded route's
 * test still expects 200. A project with the auth scaffold, migrated (SQLite), whose own
 * `npm test` runs the three generated tests.
 */
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../generators/project-helpers.js';
import { linkCheckoutFw } from '../dev/helpers.js';
import { migrate, scaffoldProject, type ScaffoldProject } from './app.js';

let project: ScaffoldProject;

beforeAll(async () => {
  project = await scaffoldProject();
  const root = project.root;
  await migrate(root);
  await ok(root, 'make', 'guard', 'editor', '--permissions', 'posts.edit');
  const app = path.join(root, 'fluid/app.ts');
  const source = await readFile(app, 'utf8');
  await writeFile(
    app,
    `import { editor } from './guards/editor.js';\nimport { requireUser } from './guards.js';\n${source.replace(
      'export default fluid;',
      [
        "fluid.api.get('drafts', '/drafts', editor, () => ({ drafts: [] }));",
        "fluid.app.get('desk', '/desk', requireUser, (ctx) => ctx.render('index.html', { title: 'Desk' }));",
        "fluid.api.get('open', '/open', () => ({ open: true }));",
        '',
        'export default fluid;',
      ].join('\n'),
    )}`,
  );
  for (const route of ['drafts', 'desk', 'open']) await ok(root, 'make', 'test', route);
  linkCheckoutFw(root); // the project's own `fw`: this checkout's build
}, 180_000);

afterAll(() => project?.remove());

describe('fw make test of a guarded route', () => {
  it('writes a test of the refusal, naming the guard; an unguarded route still gets the 200 test', async () => {
    const drafts = await readFile(path.join(project.root, 'test/drafts.test.ts'), 'utf8');
    expect(drafts).toContain(`test('GET /api/drafts ("drafts") refuses a request that is not signed in (editor)'`);
    expect(drafts).toContain('expect([302, 401, 403]).toContain(response.status);');
    expect(drafts).not.toContain('toBe(200)');
    expect(await readFile(path.join(project.root, 'test/desk.test.ts'), 'utf8')).toContain('(requireUser)');
    expect(await readFile(path.join(project.root, 'test/open.test.ts'), 'utf8')).toContain('expect(response.status).toBe(200);');
  });

  it("the project's npm test passes the three generated tests", () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_ENV' && key !== 'FW_ENV'));
    const run = spawnSync('npm', ['test', '--', 'test/drafts.test.ts', 'test/desk.test.ts', 'test/open.test.ts'], { cwd: project.root, env, encoding: 'utf8', timeout: 180_000 });
    const out = run.stdout + run.stderr;
    expect(run.status, out).toBe(0);
    // eslint-disable-next-line no-control-regex
    expect(out.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/Tests\s+3 passed \(3\)/);
  }, 200_000);
});
