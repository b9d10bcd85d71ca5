/**
 * The built @fw/kernel is a bundle (runtime-kernel/scripts/build.js): every subpath export is its
 * own entry, and the code they share lives in shared chunks. A class or function reached through
 * two subpaths must be the same object, or `instanceof` (HttpError, Additive, FluidCore) breaks
 * between an app that imports `@fw/kernel` and a plugin that imports `@fw/kernel/core`.
 *
 * The unit project resolves `@fw/kernel` to the TypeScript sources, so this test runs the built
 * `dist/` in a plain Node process, through the package's own `exports`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { REPO } from '../support/registry.js';

const KERNEL = path.join(REPO, 'runtime-kernel');
const pkg = JSON.parse(readFileSync(path.join(KERNEL, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
// The module entries (`{ types, default }`), not the files exported as they are (package.json, docs pages).
const SUBPATHS = Object.entries(pkg.exports)
  .filter(([, target]) => typeof target === 'object')
  .map(([key]) => (key === '.' ? '@fw/kernel' : `@fw/kernel/${key.slice(2)}`));

beforeAll(() => {
  if (!existsSync(path.join(KERNEL, 'dist/index.js'))) throw new Error('runtime-kernel/dist is missing: run "npm run build" first (npm test does).');
});

/** Imports every subpath in one Node process; answers each export name reached through several subpaths, and whether they agree. */
const PROBE = `
const subpaths = ${JSON.stringify(SUBPATHS)};
const holders = new Map();
for (const subpath of subpaths) {
  for (const [name, value] of Object.entries(await import(subpath))) holders.set(name, [...(holders.get(name) ?? []), { subpath, value }]);
}
const shared = {};
for (const [name, seen] of holders) if (seen.length > 1) shared[name] = seen.filter((s) => s.value !== seen[0].value).map((s) => s.subpath);
const root = await import('@fw/kernel');
const core = await import('@fw/kernel/core');
const instanceOf = { httpError: new root.HttpError(404) instanceof core.HttpError, fluid: root.Fluid.prototype instanceof core.FluidCore };
process.stdout.write(JSON.stringify({ shared, instanceOf }));
`;

test('a value exported by several subpaths of the built kernel is one object (one class, one instanceof)', () => {
  // From the kernel's folder, `@fw/kernel` resolves to the package itself (its `exports`).
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', PROBE], { cwd: KERNEL, encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  const { shared, instanceOf } = JSON.parse(result.stdout) as { shared: Record<string, string[]>; instanceOf: Record<string, boolean> };
  expect(Object.keys(shared)).toEqual(expect.arrayContaining(['FluidCore', 'HttpError', 'Additive', 'Markup']));
  const copies = Object.entries(shared).filter(([, others]) => others.length > 0);
  expect(copies, 'exports that are another copy in some subpath').toEqual([]);
  expect(instanceOf).toEqual({ httpError: true, fluid: true });
});
