/**
 * The folders fw's own deletions leave empty, through the built CLI on real temp projects: an
 * Additive removed from fw.json (or destroyed) takes an emptied `additives/` with it, and a Vite
 * surface switched to htmx after you edited its vite.config takes the emptied `src/` and
 * `public/`; a folder holding anything of yours (a file, a dotfile such as `.gitkeep`, an empty
 * folder you made) stays, and so does an empty folder you made. A run killed (SIGKILL) after its
 * deletions and before removing the folders they emptied has them removed by the next run, and
 * `--dry-run` lists the folders it would remove, removing none. Needs `npm run build`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
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

/** Every folder under `root` (`.fw/` included), sorted. */
async function folders(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/**
 * Runs the built `fw <argv>` in `root` with `FW_TEST_PAUSE_AT=<moment>`, SIGKILLs it once it says
 * it paused there, and resolves with how it ended and what it said on stderr.
 */
function killedAt(root: string, moment: string, ...argv: string[]): Promise<{ signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [FW_BIN, ...argv], { cwd: root, env: { ...process.env, FW_TEST_PAUSE_AT: moment }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (stderr.includes(`fw: paused at ${moment}\n`)) proc.kill('SIGKILL');
    });
    proc.on('error', reject);
    proc.on('exit', (_code, signal) => resolve({ signal, stderr }));
  });
}

/** The generators `.fw/record.json` names. */
async function recordedGenerators(root: string): Promise<Set<string>> {
  const record = JSON.parse(await readFile(path.join(root, '.fw/record.json'), 'utf8')) as { files: Record<string, { generator: string }> };
  return new Set(Object.values(record.files).map((e) => e.generator));
}

/** The folders `fw create additive shop` makes. */
const SHOP_FOLDERS = ['additives', 'additives/shop', 'additives/shop/static', 'additives/shop/templates', 'additives/shop/templates/shop'];

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

describe('folders you made inside a removed Additive', () => {
  test.each([
    ['removed from fw.json, then fw generate', ['generate']],
    ['fw destroy additive', ['destroy', 'additive', 'shop']],
  ])('%s: your empty folders stay, and your file, with the folders holding them; only the folders fw emptied go', async (_how, argv) => {
    const root = await newProject();
    fw(root, 'create', 'additive', 'shop');
    await mkdir(path.join(root, 'additives/shop/notes'));
    await mkdir(path.join(root, 'additives/shop/templates/shop/drafts'));
    await writeFile(path.join(root, 'additives/shop/static/mine.css'), 'body { color: red; }\n');
    if (argv[0] === 'generate') await editConfig(root, (c) => (c.additives = []));
    fw(root, ...argv);
    expect(await readdir(path.join(root, 'additives/shop'))).toEqual(['notes', 'static', 'templates']);
    expect(await readdir(path.join(root, 'additives/shop/notes'))).toEqual([]);
    expect(await readdir(path.join(root, 'additives/shop/templates/shop'))).toEqual(['drafts']);
    expect(await readdir(path.join(root, 'additives/shop/static'))).toEqual(['mine.css']);
    expect(await readFile(path.join(root, 'additives/shop/static/mine.css'), 'utf8')).toBe('body { color: red; }\n');
    expect(fw(root, 'generate')).toMatch(/^\d+ files: \d+ unchanged\n$/);
  });

  test('an empty folder you made elsewhere is never fw\'s to remove', async () => {
    const root = await newProject();
    fw(root, 'create', 'additive', 'shop');
    await mkdir(path.join(root, 'fluid/drafts'));
    fw(root, 'destroy', 'additive', 'shop');
    expect(has(root, 'additives')).toBe(false);
    expect(await readdir(path.join(root, 'fluid/drafts'))).toEqual([]);
  });
});

describe('a run killed after its deletions, before it removed the folders they emptied', () => {
  test.each([
    ['fw generate', 'record-write', ['generate']],
    ['fw generate', 'folder-prune', ['generate']],
    ['fw destroy additive', 'folder-prune', ['destroy', 'additive', 'shop']],
  ])('%s killed at %s: the next fw generate removes them (and lists them with --dry-run first); your empty folder stays', async (_command, moment, argv) => {
    const root = await newProject();
    fw(root, 'create', 'additive', 'shop');
    await mkdir(path.join(root, 'fluid/drafts'));
    if (argv[0] === 'generate') await editConfig(root, (c) => (c.additives = []));
    const killed = await killedAt(root, moment, ...argv);
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    // The kill left the Additive's files deleted and its folders empty; from folder-prune on, the
    // record no longer names a file of it.
    expect(has(root, 'additives/shop/api.ts')).toBe(false);
    for (const folder of SHOP_FOLDERS) expect(has(root, folder), folder).toBe(true);
    if (moment === 'folder-prune') expect([...(await recordedGenerators(root))]).not.toContain('additive:shop');

    const before = await folders(root);
    const dry = fw(root, 'generate', '--dry-run');
    for (const folder of SHOP_FOLDERS) expect(dry).toMatch(new RegExp(`^  delete +${folder}/  \\(`, 'm'));
    expect(dry).not.toContain('fluid/drafts');
    expect(await folders(root), 'the dry run removed nothing').toEqual(before);

    const real = fw(root, 'generate');
    for (const folder of SHOP_FOLDERS) expect(real).toMatch(new RegExp(`^  delete +${folder}/  \\(`, 'm'));
    expect(await folders(root)).toEqual(before.filter((f) => !SHOP_FOLDERS.includes(f)));
    expect(has(root, '.fw/cache/applying')).toBe(false);
    expect(await readdir(path.join(root, 'fluid/drafts'))).toEqual([]);
    expect(fw(root, 'generate')).toMatch(/^\d+ files: \d+ unchanged\n$/);
  }, 60_000);
});

describe('fw doctor after a run killed at folder-prune', () => {
  test('names the folders the run emptied with the interrupted-run marker, and --fix removes them, not yours', async () => {
    const root = await newProject();
    fw(root, 'create', 'additive', 'shop');
    await mkdir(path.join(root, 'fluid/drafts'));
    expect((await killedAt(root, 'folder-prune', 'destroy', 'additive', 'shop')).signal).toBe('SIGKILL');
    const report = spawnSync(process.execPath, [FW_BIN, 'doctor'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    expect(report.status, report.stdout + report.stderr).toBe(1);
    expect(report.stdout).toContain(`--fix clears the marker and removes the folders its deletions emptied: ${SHOP_FOLDERS.map((f) => `${f}/`).join(', ')}`);
    expect(fw(root, 'doctor', '--fix')).toMatch(/^fw doctor --fix: repaired/);
    for (const folder of SHOP_FOLDERS) expect(has(root, folder), folder).toBe(false);
    expect(await readdir(path.join(root, 'fluid/drafts'))).toEqual([]);
    expect(fw(root, 'generate')).toMatch(/^\d+ files: \d+ unchanged\n$/);
  }, 60_000);
});

describe('--dry-run lists the folders the run would remove', () => {
  test('fw generate and fw destroy additive print each emptied folder like a file line, remove none, and --json names them', async () => {
    const root = await newProject();
    fw(root, 'create', 'additive', 'shop');
    await mkdir(path.join(root, 'additives/shop/notes'));
    const before = await folders(root);
    const destroy = fw(root, 'destroy', 'additive', 'shop', '--dry-run');
    expect(destroy).toMatch(/^  delete +additives\/shop\/static\/  \(emptied by fw's deletions\)$/m);
    expect(destroy).toMatch(/^  delete +additives\/shop\/templates\/shop\/  \(/m);
    expect(destroy).toMatch(/^  delete +additives\/shop\/templates\/  \(/m);
    // notes/ is yours, so additives/shop/ and additives/ are not emptied.
    expect(destroy).not.toMatch(/^  delete +additives\/shop\/  /m);
    expect(destroy).not.toMatch(/^  delete +additives\/  /m);
    expect(destroy).toContain('Dry run: nothing was written.');
    expect(await folders(root)).toEqual(before);

    await editConfig(root, (c) => (c.additives = []));
    const json = JSON.parse(fw(root, 'generate', '--dry-run', '--json')) as { emptiedFolders: string[] };
    expect(json.emptiedFolders).toEqual(['additives/shop/static', 'additives/shop/templates', 'additives/shop/templates/shop']);
    expect(await folders(root)).toEqual(before);
    const real = JSON.parse(fw(root, 'generate', '--json')) as { emptiedFolders: string[] };
    expect(real.emptiedFolders).toEqual(json.emptiedFolders);
    expect(await folders(root)).toEqual(before.filter((f) => !json.emptiedFolders.includes(f)));
  });
});
