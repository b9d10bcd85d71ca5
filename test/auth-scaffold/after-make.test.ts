/**
 * `fw create auth` in an app that already has files of `fw make`: they are yours once written
 * (as under `fw generate`), so the auth scaffold leaves them as they are. It rendered the whole
 * project owning every generator, and deleted each of them as "no longer generated and never
 * edited": the page, its stylesheet, the guard, the event, the plugin, the mail and the tests,
 * while fluid/app.ts kept the routes and registrations that import or render them. A Vite React
 * app (its pages' `fluid/static/app.css` is fw make page's), then migrated and served in
 * production on a real server: the page and its stylesheet answer, beside the auth pages.
 */
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../generators/project-helpers.js';
import { REPO_ROOT } from '../support/prisma.js';
import { boot, linkHrefs, migrate, scaffoldProject, type RunningApp, type ScaffoldProject } from './app.js';

/** What the `fw make` runs before `fw create auth` write. */
const MADE = [
  'fluid/templates/about.html',
  'fluid/static/app.css',
  'fluid/guards/editor.ts',
  'fluid/events/order-paid.ts',
  'fluid/plugins/tracer.ts',
  'fluid/mail/welcome.ts',
  'fluid/templates/mail/welcome.html',
  'fluid/templates/mail/welcome.txt',
  'test/about.test.ts',
];

let project: ScaffoldProject;
let app: RunningApp;
let before: string[] = [];

beforeAll(async () => {
  project = await scaffoldProject(['--framework', 'react'], async (root) => {
    await ok(root, 'make', 'page', 'about');
    await ok(root, 'make', 'guard', 'editor', '--permissions', 'posts.edit');
    await ok(root, 'make', 'event', 'order.paid', '--fields', 'id:string total:number');
    await ok(root, 'make', 'plugin', 'tracer');
    await ok(root, 'make', 'mail', 'welcome', '--no-install');
    await ok(root, 'make', 'test', 'about');
    before = await Promise.all(MADE.map((file) => readFile(path.join(root, file), 'utf8')));
  });
  await migrate(project.root);
  const build = spawnSync(process.execPath, [path.join(REPO_ROOT, 'node_modules/vite/bin/vite.js'), 'build'], { cwd: path.join(project.root, 'fluid/frontend'), encoding: 'utf8', timeout: 120_000 });
  expect(build.status, build.stderr).toBe(0);
  app = await boot(project.root, { DEBUG: 'false', FW_CHECK_FRONTEND: 'false', FW_BUILD_FRONTEND: 'false' });
}, 180_000);

afterAll(async () => {
  await app?.close();
  await project?.remove();
});

describe('fw create auth after fw make', () => {
  it('deletes none of the files fw make wrote, and leaves their bytes and their records', async () => {
    expect(project.authOutput).not.toMatch(/^\s*delete\s/m);
    expect(await Promise.all(MADE.map((file) => readFile(path.join(project.root, file), 'utf8')))).toEqual(before);
    const record = JSON.parse(await readFile(path.join(project.root, '.fw/record.json'), 'utf8')) as { files: Record<string, { generator: string }> };
    expect(MADE.map((file) => record.files[file]?.generator)).toEqual(MADE.map(() => expect.stringMatching(/^make:/)));
  });

  it('serves the made page and its stylesheet beside the auth pages', async () => {
    const page = await fetch(`${app.url}/about`);
    expect(page.status).toBe(200);
    const hrefs = linkHrefs(await page.text());
    expect(hrefs).toContain('/static/app.css');
    for (const href of hrefs) expect((await fetch(new URL(href, app.url), { redirect: 'manual' })).status, href).toBe(200);
    expect((await fetch(`${app.url}/sign-in`)).status).toBe(200);
  });
});
