import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyToDisk, planDestroy, planRendered } from './helpers.js';

let root: string;
const exists = (rel: string): Promise<boolean> => readFile(path.join(root, rel)).then(() => true, () => false);

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'fw-destroy-'));
  const blog = new Map([
    ['additives/blog/api.ts', Buffer.from('export const api = 1;\n')],
    ['additives/blog/app.ts', Buffer.from('export const app = 1;\n')],
    ['additives/blog/manifest.json', Buffer.from('{ "name": "blog" }\n')],
  ]);
  const shop = new Map([['additives/shop/api.ts', Buffer.from('export const api = 2;\n')]]);
  await applyToDisk(await planRendered({ projectRoot: root, rendered: blog, generatorId: 'additive:blog' }));
  await applyToDisk(await planRendered({ projectRoot: root, rendered: shop, generatorId: 'additive:shop' }));
});
afterEach(async () => rm(root, { recursive: true, force: true }));

describe('planDestroy', () => {
  it('removes the unedited files of one generator only, and drops their record entries', async () => {
    const plan = await planDestroy({ projectRoot: root, generatorId: 'additive:blog' });
    expect(plan.refused).toEqual([]);
    expect(plan.items.map((i) => i.action)).toEqual(['delete', 'delete', 'delete']);
    await applyToDisk(plan);
    expect(await exists('additives/blog/api.ts')).toBe(false);
    expect(await exists('additives/shop/api.ts')).toBe(true);
    const record = JSON.parse(await readFile(path.join(root, '.fw/record.json'), 'utf8')) as { files: object };
    expect(Object.keys(record.files)).toEqual(['additives/shop/api.ts']);
  });

  it('refuses a file the user edited, unless forced', async () => {
    await writeFile(path.join(root, 'additives/blog/app.ts'), 'export const app = 1; // mine\n');
    await rm(path.join(root, 'additives/blog/api.ts'));
    const plan = await planDestroy({ projectRoot: root, generatorId: 'additive:blog' });
    expect(plan.refused).toEqual(['additives/blog/app.ts']);
    const forced = await planDestroy({ projectRoot: root, generatorId: 'additive:blog', force: true });
    expect(forced.refused).toEqual([]);
    expect(Object.fromEntries(forced.items.map((i) => [i.path, i.action]))).toEqual({
      'additives/blog/api.ts': 'skip-deleted',
      'additives/blog/app.ts': 'delete',
      'additives/blog/manifest.json': 'delete',
    });
    await applyToDisk(forced);
    expect(await exists('additives/blog/app.ts')).toBe(false);
  });
});
