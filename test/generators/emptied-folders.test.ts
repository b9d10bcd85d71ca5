/**
 * The folders fw's own deletions leave empty, through the built CLI on real temp projects: an
 * Additive removed from fw.json (or destroyed) takes an emptied `additives/` with it, and a Vite
 * surface switched to htmx after you edited its vite.config takes the emptied `src/` and
 * `public/`; a folder holding anything of yours (a file, a dotfile such as `.gitkeep`) stays.
 * Needs `npm run build`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO } from './helpers.js';
import { editConfig, newProject, read } from './project-helpers.js';

const FW_BIN = path.join(REPO, 'generators/dist/bin/fw.js');

/** Runs the built `fw <argv>` in `root`; fails the test, with what it said, unless it exits 0. */
function fw(root: string, ...argv: string[]): string {
  if (!existsSync(FW_BIN)) throw new Error(`missing ${FW_BIN}: run "npm run build" first (npm test does).`);
  const ran = spawnSync(process.execPath, [FW_BIN, ...argv], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  expect(ran.status, `fw ${argv.join(' ')}:\n${ran.stdout}${ran.stderr}`).toBe(0);
  return ran.stdout;
}

const has = (root: string, rel: string): boolean => existsSync(path.join(root, rel));

describe('removing the last Additive', () => {
  test('from fw.json: fw generate removes the additives/ folder it leaves empty', async () => {
    const root = await newProject();
    fw(root, 'create', 'additive', 'blog');
    expect(has(root, 'additives/blog/api.ts')).toBe(true);
    await editConfig(root, (c) => (c.additives = []));
    fw(root, 'generate');
    expect(has(root, 'additives')).toBe(false);
    expect(fw(root, 'generate')).toMatch(/^\d+ files: \d+ unchanged\n$/);
  });

  test('with fw destroy additive: the emptied additives/ goes too', async () => {
    const root = await newProject();
    fw(root, 'create', 'additive', 'blog');
    fw(root, 'destroy', 'additive', 'blog');
    expect(has(root, 'additives')).toBe(false);
  });

  test('an additives/ folder holding a file of yours (a .gitkeep) stays, with that file', async () => {
    const root = await newProject();
    fw(root, 'create', 'additive', 'blog');
    await writeFile(path.join(root, 'additives/.gitkeep'), '');
    fw(root, 'destroy', 'additive', 'blog');
    expect(await readdir(path.join(root, 'additives'))).toEqual(['.gitkeep']);
  });
});

describe('switching a Vite surface to htmx after editing its vite.config', () => {
  async function editedViteProject(): Promise<string> {
    const root = await newProject();
    await editConfig(root, (c) => (c.config.APP_FRONTEND = { type: 'vite', framework: 'react', typescript: true }));
    fw(root, 'generate');
    expect(has(root, 'fluid/frontend/src/main.tsx')).toBe(true);
    expect(has(root, 'fluid/frontend/public')).toBe(true);
    await appendFile(path.join(root, 'fluid/frontend/vite.config.ts'), '// my build tweaks\n');
    await editConfig(root, (c) => (c.config.APP_FRONTEND = { type: 'htmx' }));
    return root;
  }

  test('keeps the edited config and removes the src/ and public/ folders its deletions emptied', async () => {
    const root = await editedViteProject();
    expect(fw(root, 'generate')).toMatch(/keep-edited\s+fluid\/frontend\/vite\.config\.ts/);
    expect(await read(root, 'fluid/frontend/vite.config.ts')).toContain('// my build tweaks');
    expect(has(root, 'fluid/frontend/src')).toBe(false);
    expect(has(root, 'fluid/frontend/public')).toBe(false);
  });

  test('a folder holding anything of yours stays: your file, and your folder inside it', async () => {
    const root = await editedViteProject();
    await writeFile(path.join(root, 'fluid/frontend/src/mine.ts'), 'export const mine = 1;\n');
    await mkdir(path.join(root, 'fluid/frontend/public/uploads'));
    fw(root, 'generate');
    expect(await readdir(path.join(root, 'fluid/frontend/src'))).toEqual(['mine.ts']);
    expect(await readdir(path.join(root, 'fluid/frontend/public'))).toEqual(['uploads']);
  });
});
