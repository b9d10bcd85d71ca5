/**
 * Every pipeline command, with `--dry-run`, writes nothing (not `.fw/`, not the cache), and what it
 * prints is what the real run then does: the same files with the same actions, each printed
 * diff, applied to the file as it was, gives the file as the real run left it, and the folders it
 * lists (`emptiedFolders`) are the ones the real run removes; the dry run removes none.
 */
import { appendFile, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { applyPatch } from 'diff';
import { describe, expect, test } from 'vitest';
import { tempDir } from './helpers.js';
import { editConfig, fw, newProject, snapshot } from './project-helpers.js';

interface JsonFile {
  path: string;
  action: string;
  reason: string;
  diff?: string;
  sidecar?: string;
}

/** The project files (not fw's own `.fw/`) whose bytes differ between two snapshots; `undefined` bytes = absent. */
function changes(before: Awaited<ReturnType<typeof snapshot>>, after: Awaited<ReturnType<typeof snapshot>>): Map<string, { before?: Buffer; after?: Buffer }> {
  const out = new Map<string, { before?: Buffer; after?: Buffer }>();
  for (const file of new Set([...before.keys(), ...after.keys()])) {
    if (file.startsWith('.fw/')) continue;
    const b = before.get(file)?.bytes;
    const a = after.get(file)?.bytes;
    if (b === undefined || a === undefined || !b.equals(a) || before.get(file)!.mode !== after.get(file)!.mode) {
      out.set(file, { ...(b ? { before: b } : {}), ...(a ? { after: a } : {}) });
    }
  }
  return out;
}

/** Every folder under `root` (none when it does not exist), sorted. */
async function folders(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/**
 * Runs `fw <argv> --dry-run --json` in `cwd`, checks nothing under `root` changed, runs `fw <argv>
 * --json` and checks the real run did exactly what the dry run printed.
 */
async function dryRunMatches(cwd: string, root: string, ...argv: string[]): Promise<JsonFile[]> {
  const state = async (): Promise<Awaited<ReturnType<typeof snapshot>>> => ((await stat(root).catch(() => undefined)) ? snapshot(root) : new Map());
  const before = await state();
  const foldersBefore = await folders(root);
  const dry = await fw(cwd, ...argv, '--dry-run', '--json');
  expect(dry.error, `${argv.join(' ')} --dry-run`).toBeUndefined();
  const planned = JSON.parse(dry.out) as { files: JsonFile[]; dryRun: boolean; emptiedFolders: string[] };
  expect(planned.dryRun).toBe(true);
  expect(await state(), `${argv.join(' ')} --dry-run wrote something`).toEqual(before);
  expect(await folders(root), `${argv.join(' ')} --dry-run removed a folder`).toEqual(foldersBefore);

  const real = await fw(cwd, ...argv, '--json');
  expect(real.error, argv.join(' ')).toBeUndefined();
  const done = JSON.parse(real.out) as { files: JsonFile[]; emptiedFolders: string[] };
  const strip = (files: JsonFile[]) => files.map(({ diff: _diff, ...rest }) => rest);
  expect(strip(done.files), `${argv.join(' ')}: the real run reports what the dry run printed`).toEqual(strip(planned.files));
  expect(done.emptiedFolders, `${argv.join(' ')}: the real run removes the folders the dry run listed`).toEqual(planned.emptiedFolders);
  const foldersAfter = new Set(await folders(root));
  expect(foldersBefore.filter((f) => !foldersAfter.has(f)), `${argv.join(' ')}: the folders that went are the ones the dry run listed`).toEqual(planned.emptiedFolders);

  const changed = changes(before, await state());
  const printed = planned.files.filter((f) => f.diff);
  const expected = new Set(printed.flatMap((f) => [...(f.diff!.includes(`+++ b/${f.path}\n`) || f.diff!.includes('+++ /dev/null') ? [f.path] : []), ...(f.sidecar ? [f.sidecar] : [])]));
  expect([...changed.keys()].sort(), `${argv.join(' ')}: the files that changed are the ones the dry run showed`).toEqual([...expected].sort());
  for (const f of printed) {
    const change = changed.get(f.path);
    if (!change || f.diff!.includes('(holds a secret: contents not shown)') || f.diff!.startsWith('Binary files')) continue;
    const patch = f.diff!.split(/(?=^--- )/m)[0]!;
    const result = applyPatch(change.before?.toString('utf8') ?? '', patch);
    expect(result, `${f.path}: the printed diff applies`).not.toBe(false);
    expect(result, `${f.path}: the printed diff gives what was written`).toBe(change.after?.toString('utf8') ?? '');
  }
  return planned.files;
}

describe('--dry-run of every command writes nothing and prints what the real run does', () => {
  test('create project', async () => {
    const cwd = await tempDir();
    const files = await dryRunMatches(cwd, path.join(cwd, 'app'), 'create', 'project', 'app', '--yes', '--alpine');
    expect(files.map((f) => f.action)).toContain('create');
  });

  test('create app', async () => {
    const root = await newProject();
    const files = await dryRunMatches(root, root, 'create', 'app', 'staging');
    expect(files).toEqual([expect.objectContaining({ path: 'app_configs/staging.ini', action: 'create' })]);
  });

  test('generate: new Additive, a role, the surface switched, a hand edit merged', async () => {
    const root = await newProject();
    await appendFile(path.join(root, 'fluid/app.ts'), "\nfluid.app.get('about', '/about', () => 'about me');\n");
    const index = path.join(root, 'fluid/templates/index.html');
    await writeFile(index, (await readFile(index, 'utf8')).replace('<body>', '<body>\n    <p>my banner</p>'));
    await editConfig(root, (c) => {
      c.additives.push('blog');
      c.config.AUTH_ROLES = ['editor'];
      c.config.APP_FRONTEND = { type: 'htmx', alpine: true };
    });
    const files = await dryRunMatches(root, root, 'generate');
    expect(new Set(files.map((f) => f.action))).toEqual(new Set(['create', 'update', 'merge', 'unchanged']));
  });

  test('create additive', async () => {
    const root = await newProject();
    const files = await dryRunMatches(root, root, 'create', 'additive', 'blog');
    expect(files.find((f) => f.path === 'fw.json')?.action).toBe('update');
  });

  test('destroy additive (an edited file forced away, a file of yours kept)', async () => {
    const root = await newProject();
    expect((await fw(root, 'create', 'additive', 'blog')).code).toBe(0);
    await appendFile(path.join(root, 'additives/blog/api.ts'), '// mine\n');
    await appendFile(path.join(root, 'additives/blog/notes.md'), 'my notes\n');
    const files = await dryRunMatches(root, root, 'destroy', 'additive', 'blog', '--force');
    expect(files.filter((f) => f.action === 'delete')).toHaveLength(7);
    expect(await readFile(path.join(root, 'additives/blog/notes.md'), 'utf8')).toBe('my notes\n');
  });

  test('migrate init', async () => {
    const root = await newProject();
    const files = await dryRunMatches(root, root, 'migrate', 'init');
    expect(files.find((f) => f.path === 'prisma/main/schema.prisma')?.action).toBe('create');
  });
});

describe('--dry-run of a run that conflicts', () => {
  test('says the conflicts are the ones the real run would mark, and to run it to write them', async () => {
    const root = await newProject();
    const app = path.join(root, 'fluid/app.ts');
    await writeFile(app, (await readFile(app, 'utf8')).replace("{ title: 'demo' }", "{ title: 'Demo (mine)' }"));
    await editConfig(root, (c) => {
      c.config.APP_FRONTEND = { type: 'vite', framework: 'none' };
    });
    const before = await snapshot(root);
    const dry = await fw(root, 'generate', '--dry-run');
    expect(dry.code).toBe(1);
    expect(dry.out).toMatch(/conflict\s+fluid\/app\.ts\s+\(your edits overlap the generator's changes: 1 conflict the real run would mark in the file\)/);
    expect(dry.out).toContain('Run `fw generate` to write them, resolve them, then run it again.\n');
    expect(dry.out).not.toContain('Then run `fw generate` again.');
    expect(await snapshot(root)).toEqual(before);
    const real = await fw(root, 'generate');
    expect(real.out).toMatch(/conflict\s+fluid\/app\.ts\s+\(your edits overlap the generator's changes: 1 conflict marked in the file\)/);
    expect(real.out).toContain('Then run `fw generate` again.\n');
  }, 60_000);
});
