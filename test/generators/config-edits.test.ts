/**
 * `fw create additive` and `fw destroy additive` edit `fw.json` in place (jsonc-parser): the
 * user's key order, spacing, indentation and line endings stay as they were.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { editAdditives } from '../../generators/src/project/config-edit.js';
import { fw, newProject } from './project-helpers.js';

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

  test('editAdditives: appends and removes in place; a one-line file stays on one line', () => {
    const text = '{\n  "name": "x",\n  "additives": ["a", "b"],\n  "config": {  "X": 1 }\n}\n';
    expect(editAdditives(text, (l) => l.filter((n) => n !== 'a'))).toBe('{\n  "name": "x",\n  "additives": [\n    "b"\n  ],\n  "config": {  "X": 1 }\n}\n');
    expect(editAdditives(text, (l) => [...l, 'c'])).toContain('"config": {  "X": 1 }');
    expect(editAdditives('{"name":"x","additives":["a"],"config":{ "Y":  2}}', (l) => [...l, 'b'])).toBe('{"name":"x","additives":["a","b"],"config":{ "Y":  2}}');
    expect(editAdditives(text, (l) => [...l])).toBe(text);
  });
});
