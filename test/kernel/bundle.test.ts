/**
 * The built @fw/kernel is a bundle (runtime-kernel/scripts/build.js): every subpath export is its
 * own entry, and the code they share lives in shared chunks. A class or function reached through
 * two subpaths must be the same object, or `instanceof` (HttpError, Additive, FluidCore) breaks
 * between an app that imports `@fw/kernel` and a plugin that imports `@fw/kernel/core`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { REPO } from '../support/registry.js';

const pkg = JSON.parse(readFileSync(path.join(REPO, 'runtime-kernel/package.json'), 'utf8')) as { exports: Record<string, unknown> };
const SUBPATHS = Object.keys(pkg.exports)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? '@fw/kernel' : `@fw/kernel/${key.slice(2)}`));

test('a value exported by several subpaths is one object (one class, one instanceof)', async () => {
  const holders = new Map<string, { subpath: string; value: unknown }[]>();
  for (const subpath of SUBPATHS) {
    const module = (await import(subpath)) as Record<string, unknown>;
    expect(Object.keys(module).length, `${subpath} exports nothing`).toBeGreaterThan(0);
    for (const [name, value] of Object.entries(module)) holders.set(name, [...(holders.get(name) ?? []), { subpath, value }]);
  }
  const shared = [...holders].filter(([, seen]) => seen.length > 1);
  expect(shared.map(([name]) => name)).toEqual(expect.arrayContaining(['FluidCore', 'HttpError', 'Additive', 'Markup']));
  for (const [name, seen] of shared) {
    for (const { subpath, value } of seen.slice(1)) expect(value, `${name} from ${subpath} is another copy than from ${seen[0]!.subpath}`).toBe(seen[0]!.value);
  }
  const root = await import('@fw/kernel');
  const core = await import('@fw/kernel/core');
  expect(new root.HttpError(404)).toBeInstanceOf(core.HttpError);
  expect(root.Fluid.prototype).toBeInstanceOf(core.FluidCore);
});
