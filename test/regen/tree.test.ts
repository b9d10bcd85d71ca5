import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTree } from '../../generators/src/engine/index.js';
import { renderedFromTree } from '../../generators/src/regen/index.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'fw-regen-tree-'));
});
afterAll(async () => rm(root, { recursive: true, force: true }));

describe('renderedFromTree', () => {
  it('formats recorded writes like the engine, keeps modes and generators, and sets secrets aside', async () => {
    const tree = new FileTree();
    tree.write('fluid/app.ts', 'export const x = {a:1}', { generator: 'blueprint:project' });
    tree.write('bin/dev', '#!/bin/sh\n', { generator: 'blueprint:project', mode: 0o755, format: false });
    tree.write('app_configs/demo.ini', 'SECRET_KEY = s3cret\n', { generator: 'app', record: false });
    tree.delete('old.txt', { generator: 'blueprint:project' });
    const { rendered, unrecorded } = await renderedFromTree(tree, root);
    expect([...rendered.keys()]).toEqual(['bin/dev', 'fluid/app.ts']);
    expect(rendered.get('fluid/app.ts')?.content.toString()).toBe('export const x = { a: 1 };\n');
    expect(rendered.get('bin/dev')).toMatchObject({ mode: 0o755, generator: 'blueprint:project' });
    expect(unrecorded.map((e) => e.path)).toEqual(['app_configs/demo.ini']);
  });
});
