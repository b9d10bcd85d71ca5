import { spawnSync } from 'node:child_process';
import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { apply as applyPlan, PathRefusedError, readRecord, readStored, sha256, summarise, TEMP_MARKER, Tree } from '../../generators/src/pipeline/index.js';
import { prettierFormatter } from '../../generators/src/pipeline/prettier.js';
import { listFiles, REPO, tempDir } from './helpers.js';

const gen = { generator: 'test' };

/** Plans and applies a tree (renders are formatted with prettier, as `fw` commands do). */
async function apply(tree: Tree) {
  return applyPlan(await tree.plan(), { generatorVersion: '9.9.9' });
}

/** A tree on `root` that formats with prettier. */
const treeOn = (root: string): Tree => new Tree(root, { formatter: prettierFormatter(root, undefined) });

describe('tree paths', () => {
  test.each([
    ['../x', 'outside the project root'],
    ['a/../../x', 'outside the project root'],
    ['/etc/passwd', 'absolute paths are not allowed'],
    ['C:/x', 'absolute paths are not allowed'],
    ['', 'empty'],
    ['.', 'project root itself'],
    ['a\0b', 'NUL'],
    ['a\\b', 'forward slashes'],
    ['.git/config', 'inside .git/'],
    ['src/node_modules/x.js', 'inside node_modules/'],
    ['.fw/record.json', 'written by the engine only'],
  ])('refuses %j with a message naming it', async (bad, reason) => {
    const root = await tempDir();
    const tree = new Tree(root);
    let error: unknown;
    try {
      tree.render(bad, 'x', gen);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PathRefusedError);
    expect((error as Error).message).toContain(`Refusing path ${JSON.stringify(bad)}`);
    expect((error as Error).message).toContain(reason);
    expect((await tree.plan()).items).toHaveLength(0);
  });

  test('normalises ./ and a/./b and keeps the last operation on a path', async () => {
    const tree = new Tree(await tempDir());
    tree.render('./a/./b.txt', 'one', gen);
    tree.render('a/b.txt', 'two', gen);
    expect((await tree.plan()).items.map((e) => e.path)).toEqual(['a/b.txt']);
    expect(await tree.read('a/b.txt')).toEqual(Buffer.from('two'));
  });
});

describe('plan and apply', () => {
  test('classifies explicit writes and deletes as create / update / delete / unchanged against disk', async () => {
    const root = await tempDir();
    await writeFile(path.join(root, 'same.txt'), 'same\n');
    await writeFile(path.join(root, 'old.txt'), 'old\n');
    await writeFile(path.join(root, 'gone.txt'), 'bye\n');
    const tree = new Tree(root);
    tree.write('same.txt', 'same\n');
    tree.write('old.txt', 'new\n');
    tree.write('dir/new.txt', 'fresh\n');
    tree.delete('gone.txt');
    tree.delete('never-existed.txt');
    const result = await tree.plan();
    expect(result.items.map((e) => [e.action, e.path])).toEqual([
      ['create', 'dir/new.txt'],
      ['delete', 'gone.txt'],
      ['update', 'old.txt'],
      ['unchanged', 'same.txt'],
    ]);
    expect(summarise(result)).toContain('4 files: 1 create, 1 update, 1 delete, 1 unchanged');
    const done = await applyPlan(result);
    expect(done).toMatchObject({ created: ['dir/new.txt'], updated: ['old.txt'], deleted: ['gone.txt'], unchanged: ['same.txt'] });
    expect(await readFile(path.join(root, 'old.txt'), 'utf8')).toBe('new\n');
    expect(await listFiles(root)).not.toContain('gone.txt');
  });

  test('a planned-but-not-committed tree (dry run) writes nothing, not even .fw/', async () => {
    const root = await tempDir();
    await writeFile(path.join(root, 'keep.txt'), 'keep\n');
    const tree = treeOn(root);
    tree.write('keep.txt', 'changed\n');
    tree.render('deep/new.ts', 'export const a = 1;\n', gen);
    const result = await tree.plan();
    expect(result.items.map((e) => e.action)).toEqual(['create', 'update']);
    expect(await listFiles(root)).toEqual(['keep.txt']);
    expect(await readFile(path.join(root, 'keep.txt'), 'utf8')).toBe('keep\n');
  });

  test('a rewrite that changes nothing leaves files and the record untouched (mtime unchanged)', async () => {
    const root = await tempDir();
    const build = () => {
      const tree = treeOn(root);
      tree.render('src/index.ts', 'export const answer = 42;\n', gen);
      tree.render('notes.txt', 'hello\n', gen);
      return tree;
    };
    await apply(build());
    const before = await Promise.all(['src/index.ts', 'notes.txt', '.fw/record.json'].map((f) => stat(path.join(root, f))));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await apply(build());
    expect(again).toMatchObject({ created: [], updated: [], deleted: [], unchanged: ['notes.txt', 'src/index.ts'] });
    const after = await Promise.all(['src/index.ts', 'notes.txt', '.fw/record.json'].map((f) => stat(path.join(root, f))));
    expect(after.map((s) => s.mtimeMs)).toEqual(before.map((s) => s.mtimeMs));
    expect(after.map((s) => s.ino)).toEqual(before.map((s) => s.ino));
  });

  test('formats by extension with prettier, and leaves .ini and .hbs alone', async () => {
    const root = await tempDir();
    const tree = treeOn(root);
    tree.render('a.ts', 'export   const x = {a:1,b:"two"}', gen);
    tree.render('b.json', '{"a":[1,2]}', gen);
    tree.render('c.ini', 'KEY=value', gen);
    tree.render('d.hbs', '{{  x  }}', gen);
    tree.render('e.ts', 'const   y=1', { ...gen, format: false });
    await apply(tree);
    const read = (f: string) => readFile(path.join(root, f), 'utf8');
    expect(await read('a.ts')).toBe("export const x = { a: 1, b: 'two' };\n");
    expect(await read('b.json')).toBe('{ "a": [1, 2] }\n');
    expect(await read('c.ini')).toBe('KEY=value');
    expect(await read('d.hbs')).toBe('{{  x  }}');
    expect(await read('e.ts')).toBe('const   y=1');
  });

  test('a formatting failure names the file', async () => {
    const root = await tempDir();
    const tree = treeOn(root);
    tree.render('broken.ts', 'export const = ;', gen);
    await expect(tree.plan()).rejects.toThrow(/prettier could not format broken\.ts/);
  });

  test('sets file modes (executables) and treats an executable-bit change as an update', async () => {
    const root = await tempDir();
    const tree = treeOn(root);
    tree.render('bin/tool.sh', '#!/bin/sh\necho hi\n', { ...gen, mode: 0o755 });
    tree.render('plain.txt', 'x\n', gen);
    await apply(tree);
    expect((await stat(path.join(root, 'bin/tool.sh'))).mode & 0o777).toBe(0o755);
    expect((await stat(path.join(root, 'plain.txt'))).mode & 0o777).toBe(0o644);
    const flip = treeOn(root);
    flip.render('bin/tool.sh', '#!/bin/sh\necho hi\n', gen);
    expect((await flip.plan()).items[0]?.action).toBe('update');
  });
});

describe('containment', () => {
  test('refuses a write through a symlinked folder that points outside the root', async () => {
    const root = await tempDir();
    const outside = await tempDir('fw-outside-');
    await symlink(outside, path.join(root, 'link'));
    const tree = new Tree(root);
    tree.render('link/escape.txt', 'nope\n', gen);
    await expect(tree.plan()).rejects.toThrow(PathRefusedError);
    await expect(tree.plan()).rejects.toThrow(/"link\/escape\.txt".*outside the project root/);
    expect(await listFiles(outside)).toEqual([]);
  });

  test('refuses to overwrite a symlinked file that points outside the root', async () => {
    const root = await tempDir();
    const outside = await tempDir('fw-outside-');
    await writeFile(path.join(outside, 'secret.txt'), 'original\n');
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'secret.txt'));
    const tree = new Tree(root);
    tree.render('secret.txt', 'overwritten\n', gen);
    await expect(tree.plan()).rejects.toThrow(/"secret\.txt".*outside the project root/);
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('original\n');
  });

  test('allows a symlink that stays inside the root', async () => {
    const root = await tempDir();
    await mkdir(path.join(root, 'real'));
    await symlink(path.join(root, 'real'), path.join(root, 'alias'));
    const tree = new Tree(root);
    tree.render('alias/file.txt', 'inside\n', gen);
    await apply(tree);
    expect(await readFile(path.join(root, 'real/file.txt'), 'utf8')).toBe('inside\n');
  });
});

describe('atomic writes', () => {
  test('leaves no temp files behind', async () => {
    const root = await tempDir();
    const tree = new Tree(root);
    for (let i = 0; i < 20; i += 1) tree.render(`d${i % 3}/f${i}.txt`, `file ${i}\n`, gen);
    await apply(tree);
    const files = await listFiles(root);
    expect(files.filter((f) => f.includes(TEMP_MARKER))).toEqual([]);
    expect(files.filter((f) => !f.startsWith('.fw/'))).toHaveLength(20);
  });

  test('a write that fails (EFBIG under a file-size limit) keeps the old file; the record stays true to disk', async () => {
    const root = await tempDir();
    const first = new Tree(root);
    first.render('data.txt', 'old contents\n', gen);
    await apply(first);
    const recordBefore = await readFile(path.join(root, '.fw/record.json'), 'utf8');
    const script = path.join(root, '..', `${path.basename(root)}-big.mts`);
    await writeFile(
      script,
      `import { apply, Tree } from ${JSON.stringify(path.join(REPO, 'generators/src/pipeline/index.ts'))};\n` +
        `const tree = new Tree(${JSON.stringify(root)});\n` +
        `tree.render('data.txt', 'x'.repeat(200_000), { generator: 'test' });\n` +
        `tree.render('small.txt', 'small\\n', { generator: 'test' });\n` +
        `await apply(await tree.plan());\n`,
    );
    // `ulimit -f 1`: the kernel refuses to grow any file past 1 KiB, a real write failure.
    const child = spawnSync('bash', ['-c', `ulimit -f 1; exec node --import tsx ${JSON.stringify(script)}`], {
      cwd: REPO,
      encoding: 'utf8',
    });
    await import('node:fs/promises').then((fs) => fs.rm(script, { force: true }));
    expect(child.status).not.toBe(0);
    expect(child.stderr).toMatch(/Could not write data\.txt: EFBIG/);
    expect(await readFile(path.join(root, 'data.txt'), 'utf8')).toBe('old contents\n');
    // data.txt keeps its old entry; small.txt, which did land, is recorded.
    const before = JSON.parse(recordBefore) as { files: Record<string, unknown> };
    const after = await readRecord(root);
    expect(after?.files['data.txt']).toEqual(before.files['data.txt']);
    expect(after?.files['small.txt']?.sha256).toBe(sha256(Buffer.from('small\n')));
    expect(await readFile(path.join(root, 'small.txt'), 'utf8')).toBe('small\n');
    expect((await listFiles(root)).filter((f) => f.includes(TEMP_MARKER))).toEqual([]);
  });
});

describe('generation record', () => {
  test('keeps sha256, generator, mode and eol per file, and the exact bytes in the store', async () => {
    const root = await tempDir();
    const tree = new Tree(root);
    tree.render('z.txt', 'last\n', { generator: 'blueprint:z' });
    tree.render('a/crlf.txt', 'one\r\ntwo\r\n', { generator: 'blueprint:a' });
    tree.render('run.sh', '#!/bin/sh\n', { generator: 'blueprint:a', mode: 0o755 });
    await apply(tree);
    const text = await readFile(path.join(root, '.fw/record.json'), 'utf8');
    const record = await readRecord(root);
    expect(record?.version).toBe(1);
    expect(record?.generator).toBe('9.9.9');
    expect(Object.keys(record!.files)).toEqual(['a/crlf.txt', 'run.sh', 'z.txt']);
    expect(text.endsWith('\n')).toBe(true);
    expect(record!.files['a/crlf.txt']).toEqual({
      sha256: sha256(Buffer.from('one\r\ntwo\r\n')), generator: 'blueprint:a', mode: '0644', eol: 'crlf',
    });
    expect(record!.files['run.sh']).toMatchObject({ mode: '0755', eol: 'lf' });
    for (const [file, entry] of Object.entries(record!.files)) {
      const onDisk = await readFile(path.join(root, file));
      expect(await readStored(root, entry.sha256)).toEqual(onDisk);
      expect(sha256(onDisk)).toBe(entry.sha256);
    }
  });

  test('is updated only for files written: deletes drop entries and unreferenced blobs', async () => {
    const root = await tempDir();
    const first = new Tree(root);
    first.render('a.txt', 'a1\n', gen);
    first.render('b.txt', 'b1\n', gen);
    await apply(first);
    const second = new Tree(root);
    second.render('a.txt', 'a2\n', gen);
    second.delete('b.txt');
    await apply(second);
    const record = await readRecord(root);
    expect(Object.keys(record!.files)).toEqual(['a.txt']);
    expect(record!.files['a.txt']?.sha256).toBe(sha256(Buffer.from('a2\n')));
    expect(await listFiles(path.join(root, '.fw/store'))).toEqual([sha256(Buffer.from('a2\n'))]);
  });

  test('files written with record: false (secrets) never reach the record or the store', async () => {
    const root = await tempDir();
    const tree = new Tree(root);
    tree.write('app_configs/x.ini', 'SECRET_KEY = abc\n', { record: false });
    tree.render('other.txt', 'x\n', gen);
    await apply(tree);
    const record = await readRecord(root);
    expect(Object.keys(record!.files)).toEqual(['other.txt']);
    // A path that was recorded before and is now written without a record loses its entry.
    const again = new Tree(root);
    again.write('other.txt', 'now secret\n', { record: false });
    await apply(again);
    expect((await readRecord(root))?.files).toEqual({});
    for (const blob of await listFiles(path.join(root, '.fw/store'))) {
      expect(await readFile(path.join(root, '.fw/store', blob), 'utf8')).not.toContain('SECRET_KEY');
    }
  });

  test('a broken record is reported with the file and the key', async () => {
    const root = await tempDir();
    await mkdir(path.join(root, '.fw'));
    await writeFile(path.join(root, '.fw/record.json'), JSON.stringify({ version: 1, generator: 'x', files: { 'a.txt': { sha256: 'nope' } } }));
    await expect(readRecord(root)).rejects.toThrow(/record\.json: "files\.a\.txt" must be/);
    await writeFile(path.join(root, '.fw/record.json'), '{"version": 2}');
    await expect(readRecord(root)).rejects.toThrow(/"version" must be 1, got 2/);
  });
});
