/**
 * `renderAuthGuards`: renders `fluid/guards.ts` into a temp project, type-checks it (and a user
 * module using it) against the kernel sources with tsc, then runs the generated guards over HTTP.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { renderAuthGuards, AuthGuardsError, GUARDS_PATH } from '../../generators/src/auth/index.js';
import { formatFile } from '../../generators/src/engine/format.js';
import type { Guard } from '@fw/kernel/auth';
import { cleanupProjects } from '../kernel/helpers.js';
import { authApp, Client, client, USERS } from './helpers.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  cleanupProjects();
});

const CONFIG = { roles: ['editor', 'content-manager'], permissions: ['publish', 'posts:write'] };

function project(files: Map<string, string>, extra: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'fw-guards-'));
  dirs.push(root);
  for (const [rel, text] of [...files, ...Object.entries(extra)]) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({
      extends: join(REPO, 'tsconfig.base.json'),
      compilerOptions: {
        noEmit: true,
        composite: false,
        declaration: false,
        declarationMap: false,
        typeRoots: [join(REPO, 'node_modules', '@types')],
        paths: {
          '@fw/kernel': [join(REPO, 'runtime-kernel/src/index.ts')],
          '@fw/kernel/*': [join(REPO, 'runtime-kernel/src/*/index.ts')],
          '@fw/schemas': [join(REPO, 'schemas/src/index.ts')],
        },
      },
      // the kernel's own ambient declarations (e.g. for untyped packages) come along with its sources
      include: ['fluid/**/*.ts', join(REPO, 'runtime-kernel/src/**/*.d.ts')],
    }),
  );
  return root;
}

function tsc(root: string): Promise<{ status: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', root], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (status) => done({ status, output }));
  });
}

const USES = `import { requireEditor, requireContentManager, requirePublishPermission, requirePostsWritePermission, roleGuard, permissionGuard, type Role, type Permission } from './guards.js';
import type { Guard } from '@fw/kernel/auth';
export const all: Guard[] = [requireEditor, requireContentManager, requirePublishPermission, requirePostsWritePermission, roleGuard('editor'), permissionGuard('posts:write')];
export const role: Role = 'content-manager';
export const permission: Permission = 'publish';
`;

describe('renderAuthGuards', () => {
  it('is pure: the same config renders the same bytes, at fluid/guards.ts only', () => {
    const a = renderAuthGuards(CONFIG);
    expect([...a.keys()]).toEqual([GUARDS_PATH]);
    expect(renderAuthGuards(CONFIG).get(GUARDS_PATH)).toBe(a.get(GUARDS_PATH));
    const text = a.get(GUARDS_PATH)!;
    expect(text).toContain("export const requireEditor: Guard = requireRole('editor');");
    expect(text).toContain("export const requirePostsWritePermission: Guard = requirePermission('posts:write');");
    expect(text).toContain("export const ROLES = ['editor', 'content-manager'] as const;");
  });

  it('is prettier-stable (the engine formats it to the same bytes, so regeneration shows no churn)', async () => {
    for (const config of [CONFIG, { roles: [], permissions: [] }]) {
      const text = renderAuthGuards(config).get(GUARDS_PATH)!;
      const dir = mkdtempSync(join(tmpdir(), 'fw-guards-fmt-'));
      dirs.push(dir);
      expect((await formatFile(GUARDS_PATH, Buffer.from(text), dir)).toString()).toBe(text);
    }
  });

  it('type-checks against the kernel sources, and a wrong role name is a type error', async () => {
    // One project: the generated module, a module using every export (must compile) and one
    // misusing a role name (must be the only error). Plus a project from empty lists.
    const bad = "import { roleGuard } from './guards.js';\nroleGuard('edtor');\n";
    const full = project(renderAuthGuards(CONFIG), { 'fluid/uses.ts': USES, 'fluid/bad.ts': bad });
    const empty = project(renderAuthGuards({ roles: [], permissions: [] }), {});
    const [checked, emptyChecked] = await Promise.all([tsc(full), tsc(empty)]);
    const errors = checked.output.split('\n').filter((l) => /error TS/.test(l));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/fluid\/bad\.ts\(2,11\): error TS2345: Argument of type '"edtor"' is not assignable to parameter of type '"editor" \| "content-manager"'/);
    expect(emptyChecked.output).toBe('');
    expect(emptyChecked.status).toBe(0);
  }, 300_000);

  it('names the config entry on a clash or a bad name', () => {
    expect(() => renderAuthGuards({ roles: ['a-b', 'a_b'], permissions: [] })).toThrow(AuthGuardsError);
    expect(() => renderAuthGuards({ roles: ['a-b', 'a_b'], permissions: [] })).toThrow(/config\.AUTH_ROLES\[1\]: 'a_b' and config\.AUTH_ROLES\[0\] 'a-b' would both generate requireAB/);
    expect(() => renderAuthGuards({ roles: ['user'], permissions: [] })).toThrow(/AUTH_ROLES\[0\]: 'user' would generate requireUser/);
    expect(() => renderAuthGuards({ roles: [], permissions: ["x'; evil()"] })).toThrow(/AUTH_PERMISSIONS\[0\]: .* is not a name/);
  });

  it('the generated guards work over HTTP', async () => {
    const root = project(renderAuthGuards(CONFIG), {});
    const mod = (await import(pathToFileURL(join(root, GUARDS_PATH)).href)) as Record<string, Guard>;
    const { fluid } = authApp();
    fluid.app.get('edit', '/edit', mod.requireEditor!, () => ({ ok: true }));
    fluid.app.get('pub', '/pub', mod.requirePublishPermission!, () => ({ ok: true }));
    const base = (await client(fluid)).base;
    try {
      const editor = new Client(base);
      await editor.signIn(USERS.role!);
      expect((await editor.fetch('/edit')).status).toBe(200);
      expect((await editor.fetch('/pub', { headers: { Accept: 'application/json' } })).status).toBe(403);
      const publisher = new Client(base);
      await publisher.signIn(USERS.permission!);
      expect((await publisher.fetch('/pub')).status).toBe(200);
    } finally {
      await fluid.close();
    }
  });
});
