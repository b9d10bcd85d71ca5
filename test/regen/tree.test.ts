import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemDiff, Tree } from '../../generators/src/pipeline/index.js';
import { prettierFormatter } from '../../generators/src/pipeline/prettier.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'fw-regen-tree-'));
});
afterAll(async () => rm(root, { recursive: true, force: true }));

describe('the tree', () => {
  it('formats renders before planning, keeps modes and generators, and keeps secrets out of the record and the diffs', async () => {
    const tree = new Tree(root, { formatter: prettierFormatter(root, undefined) });
    tree.render('fluid/app.ts', 'export const x = {a:1}', { generator: 'blueprint:project' });
    tree.render('bin/dev', '#!/bin/sh\n', { generator: 'blueprint:project', mode: 0o755, format: false });
    tree.write('app_configs/demo.ini', 'SECRET_KEY = s3cret\n', { record: false, secret: true });
    tree.delete('old.txt');
    const plan = await tree.plan();
    expect(plan.items.map((i) => i.path)).toEqual(['app_configs/demo.ini', 'bin/dev', 'fluid/app.ts']);
    const byPath = new Map(plan.items.map((i) => [i.path, i]));
    expect(byPath.get('fluid/app.ts')?.write?.toString()).toBe('export const x = { a: 1 };\n');
    expect(byPath.get('bin/dev')).toMatchObject({ mode: 0o755, generator: 'blueprint:project' });
    expect(byPath.get('app_configs/demo.ini')?.record).toEqual({ op: 'keep' });
    expect(itemDiff(byPath.get('app_configs/demo.ini')!)).not.toContain('s3cret');
  });

  it('reads see pending changes: a write, a delete, the merge of a render with the file on disk', async () => {
    await writeFile(path.join(root, 'notes.txt'), 'on disk\n');
    const tree = new Tree(root);
    expect((await tree.readText('notes.txt'))).toBe('on disk\n');
    tree.write('notes.txt', 'pending\n');
    expect(await tree.readText('notes.txt')).toBe('pending\n');
    tree.delete('notes.txt');
    expect(await tree.exists('notes.txt')).toBe(false);
    tree.render('new.txt', 'rendered\n', { generator: 'g' });
    expect(await tree.readText('new.txt')).toBe('rendered\n');
    expect((await tree.item('new.txt'))?.action).toBe('create');
  });
});
