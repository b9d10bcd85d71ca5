/**
 * `fw create additive` and `fw destroy additive` edit `fw.json` in place (jsonc-parser): the
 * user's key order, spacing, indentation and line endings stay as they were.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { editAdditives } from '../../generators/src/project/config-edit.js';
import * as prettier from 'prettier';
import { DEFAULT_PRETTIER_OPTIONS } from '../../generators/src/pipeline/format.js';
import { fw, newProject, read } from './project-helpers.js';

describe('fw.json keeps your formatting', () => {
  test('create and destroy touch only the "additives" list', async () => {
    const root = await newProject();
    const mine = [
      '{',
      '    "name": "demo",',
      '    "config": {   "APP_FRONTEND": { "type": "htmx", "alpine": false },',
      '                  "PORT": 3000 },',
      '    "$schema": "./node_modules/@fw/schemas/json/fw.schema.json",',
      '    "additives": []',
      '}',
      '',
    ].join('\r\n');
    await writeFile(path.join(root, 'fw.json'), mine);
    expect((await fw(root, 'create', 'additive', 'blog')).code).toBe(0);
    const created = await readFile(path.join(root, 'fw.json'), 'utf8');
    expect(JSON.parse(created).additives).toEqual(['blog']);
    expect(created.replace(/\[[^\]]*\]/, '[]')).toBe(mine);
    expect((await fw(root, 'destroy', 'additive', 'blog')).code).toBe(0);
    expect(await readFile(path.join(root, 'fw.json'), 'utf8')).toBe(mine);
  });

  test('the fw.json of a new project stays prettier-clean through create and destroy', async () => {
    const root = await newProject();
    const clean = async (): Promise<void> => {
      const text = await read(root, 'fw.json');
      expect(await prettier.format(text, { ...DEFAULT_PRETTIER_OPTIONS, filepath: 'fw.json' })).toBe(text);
    };
    await clean();
    for (const name of ['blog', 'shop']) expect((await fw(root, 'create', 'additive', name)).code).toBe(0);
    expect(JSON.parse(await read(root, 'fw.json')).additives).toEqual(['blog', 'shop']);
    await clean();
    expect((await fw(root, 'destroy', 'additive', 'blog')).code).toBe(0);
    await clean();
    // A list too long for prettier's line is broken one name a line, as prettier breaks it.
    const many = Array.from({ length: 12 }, (_, i) => `additive-${i}`);
    const long = editAdditives(await read(root, 'fw.json'), (l) => [...l, ...many]);
    expect(long).toContain('[\n    "shop",\n');
    expect(await prettier.format(long, { ...DEFAULT_PRETTIER_OPTIONS, filepath: 'fw.json' })).toBe(long);
  });

  test('editAdditives: appends and removes in place; a one-line file stays on one line', () => {
    const text = '{\n  "name": "x",\n  "additives": ["a", "b"],\n  "config": {  "X": 1 }\n}\n';
    expect(editAdditives(text, (l) => l.filter((n) => n !== 'a'))).toBe('{\n  "name": "x",\n  "additives": ["b"],\n  "config": {  "X": 1 }\n}\n');
    const listed = '{\n  "name": "x",\n  "additives": [\n    "a"\n  ]\n}\n';
    expect(editAdditives(listed, (l) => [...l, 'b'])).toBe('{\n  "name": "x",\n  "additives": [\n    "a",\n    "b"\n  ]\n}\n');
    const commented = '{\n  "additives": [/* none yet */]\n}\n';
    expect(JSON.parse(editAdditives(commented, (l) => [...l, 'a']).replace('/* none yet */', ''))).toEqual({ additives: ['a'] });
    expect(editAdditives(text, (l) => [...l, 'c'])).toContain('"config": {  "X": 1 }');
    expect(editAdditives('{"name":"x","additives":["a"],"config":{ "Y":  2}}', (l) => [...l, 'b'])).toBe('{"name":"x","additives":["a","b"],"config":{ "Y":  2}}');
    expect(editAdditives(text, (l) => [...l])).toBe(text);
  });
});
