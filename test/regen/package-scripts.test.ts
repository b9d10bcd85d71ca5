/**
 * A project generated before `npm test` and `npm run typecheck` ran `fw test` and `fw typecheck`
 * (its `package.json` had `"test": "vitest run"` and `"typecheck": "tsc --noEmit"`) gets the new
 * scripts from `fw generate`'s three-way merge, and the user's own edits of `package.json`
 * survive it. The older generation is made through the real record and store (`updateRecord`):
 * to `fw generate`, the older scripts are what fw generated last time, as in a real project.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageVersion } from '../../generators/src/package-info.js';
import { readRecord, updateRecord } from '../../generators/src/pipeline/record.js';
import { fw, newProject, ok, read } from '../generators/project-helpers.js';

const NEW_SCRIPTS = ['"test": "fw test",', '"typecheck": "fw typecheck",'];
const OLD_SCRIPTS = ['"test": "vitest run",', '"typecheck": "tsc --noEmit",'];

/** A project whose last generation (record, store and disk) has the older scripts; answers its root. */
async function olderProject(name: string): Promise<string> {
  const root = await newProject(name);
  const file = path.join(root, 'package.json');
  let older = await readFile(file, 'utf8');
  NEW_SCRIPTS.forEach((script, i) => {
    expect(older).toContain(script);
    older = older.replace(script, OLD_SCRIPTS[i]!);
  });
  const entry = (await readRecord(root))?.files['package.json'];
  expect(entry?.generator).toBe('blueprint:project');
  await writeFile(file, older);
  await updateRecord(root, packageVersion(), [{ path: 'package.json', content: Buffer.from(older), generator: entry!.generator, mode: Number.parseInt(entry!.mode, 8) }], []);
  // The older generation is in place: to fw generate, package.json is an untouched older render.
  expect(await planned(root)).toBe('update');
  return root;
}

/** What `fw generate` would do to package.json (`fw generate --dry-run --json`). */
async function planned(root: string): Promise<string | undefined> {
  const run = await fw(root, 'generate', '--dry-run', '--json'); // exit 1 when it would conflict
  expect(run.error).toBeUndefined();
  const result = JSON.parse(run.out) as { files: { path: string; action: string }[] };
  return result.files.find((f) => f.path === 'package.json')?.action;
}

/** The user's edits elsewhere in package.json: a dependency, a script of their own, a description. */
async function userEdits(root: string): Promise<void> {
  const file = path.join(root, 'package.json');
  const json = JSON.parse(await readFile(file, 'utf8')) as { description?: string; scripts: Record<string, string>; dependencies: Record<string, string> };
  json.description = 'Notes, kept by hand';
  json.scripts.seed = 'tsx scripts/seed.ts';
  json.dependencies.zod = '4.6.7';
  await writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
}

describe('fw generate on a project generated with the older test/typecheck scripts', () => {
  it('brings the new scripts, and the edits elsewhere in package.json survive', async () => {
    const root = await olderProject('olderscripts');
    await userEdits(root);
    expect(await planned(root)).toBe('merge');
    await ok(root, 'generate');
    const json = JSON.parse(await read(root, 'package.json')) as { description: string; scripts: Record<string, string>; dependencies: Record<string, string> };
    expect(json.scripts.test).toBe('fw test');
    expect(json.scripts.typecheck).toBe('fw typecheck');
    expect(json.scripts.seed).toBe('tsx scripts/seed.ts');
    expect(json.dependencies.zod).toBe('4.6.7');
    expect(json.description).toBe('Notes, kept by hand');
    // The new render is the base now: a second run has nothing to do.
    expect(await planned(root)).toBe('unchanged');
  });

  it('a script the user changed is never lost: a conflict shows their script beside the new ones, and the edits elsewhere are merged', async () => {
    const root = await olderProject('changedscript');
    await userEdits(root);
    const file = path.join(root, 'package.json');
    await writeFile(file, (await readFile(file, 'utf8')).replace('"test": "vitest run"', '"test": "vitest run --coverage"'));
    expect(await planned(root)).toBe('conflict');
    const run = await fw(root, 'generate');
    expect(run.code, run.out).toBe(1);
    // The conflict region holds the test script alone: the user's as they left it, the new one as
    // fw renders it. The typecheck script, which only fw changed, is merged outside it.
    const text = await read(root, 'package.json');
    const region = /^<{7} .*\n([\s\S]*?)^\|{7} .*\n[\s\S]*?^={7}\n([\s\S]*?)^>{7} /m.exec(text);
    expect(region, text).not.toBeNull();
    expect(region![1]!.trim()).toBe('"test": "vitest run --coverage",');
    expect(region![2]!.trim()).toBe('"test": "fw test",');
    expect(text).toContain('"typecheck": "fw typecheck"');
    expect(text).toContain('"seed": "tsx scripts/seed.ts"');
    expect(text).toContain('"zod": "4.6.7"');
  });
});
