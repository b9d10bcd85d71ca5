import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyToDisk, planRendered, type RenderedFile } from './helpers.js';

let root: string;
const modeOf = async (rel: string): Promise<number> => (await stat(path.join(root, rel))).mode & 0o777;
const recordMode = async (rel: string): Promise<string | undefined> =>
  (JSON.parse(await readFile(path.join(root, '.fw/record.json'), 'utf8')) as { files: Record<string, { mode: string }> }).files[rel]?.mode;
/** Regenerates the given files; each lives under its own generator, so the others are left alone. */
const own = (files: Record<string, RenderedFile>): Map<string, RenderedFile> => new Map(Object.entries(files).map(([p, f]) => [p, { ...f, generator: `g:${p}` }]));
const regen = async (files: Record<string, RenderedFile>): Promise<Awaited<ReturnType<typeof planRendered>>> => {
  const rendered = own(files);
  const plan = await planRendered({ projectRoot: root, rendered, generatorId: 'g', owns: (g) => rendered.has(g.slice(2)) });
  await applyToDisk(plan);
  return plan;
};

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'fw-regen-mode-'));
  await regen({
    'bin/dev': { content: Buffer.from('#!/bin/sh\necho dev\n'), mode: 0o644 },
    'bin/run': { content: Buffer.from('#!/bin/sh\n# a\n# b\necho run\n'), mode: 0o644 },
  });
});
afterEach(async () => rm(root, { recursive: true, force: true }));

describe('file modes in regeneration', () => {
  it('applies a mode change of the render to an untouched file, and records it', async () => {
    const plan = await regen({ 'bin/dev': { content: Buffer.from('#!/bin/sh\necho dev\n'), mode: 0o755 } });
    expect(plan.items[0]).toMatchObject({ action: 'update', reason: 'file mode changed to 0755' });
    expect(await modeOf('bin/dev')).toBe(0o755);
    expect(await recordMode('bin/dev')).toBe('0755');
    const again = await planRendered({ projectRoot: root, rendered: new Map([['bin/dev', { content: Buffer.from('#!/bin/sh\necho dev\n'), mode: 0o755 }]]), generatorId: 'g', owns: () => false });
    expect(again.items[0]?.action).toBe('unchanged');
  });

  it("keeps the user's chmod when the render's content changes", async () => {
    await writeFile(path.join(root, 'bin/run'), '#!/bin/sh\n# a (mine)\n# b\necho run\n');
    await chmod(path.join(root, 'bin/run'), 0o755);
    const v2 = { 'bin/run': { content: Buffer.from('#!/bin/sh\n# a\n# b\necho run v2\n'), mode: 0o644 } };
    const plan = await regen(v2);
    expect(plan.items[0]?.action).toBe('merge');
    expect(await readFile(path.join(root, 'bin/run'), 'utf8')).toBe('#!/bin/sh\n# a (mine)\n# b\necho run v2\n');
    expect(await modeOf('bin/run')).toBe(0o755);
    // The record holds the render's mode, so the user's chmod stays "their edit" next time too.
    expect(await recordMode('bin/run')).toBe('0644');
    const again = await planRendered({ projectRoot: root, rendered: new Map(Object.entries(v2)), generatorId: 'g', owns: () => false });
    expect(again.items[0]?.action).toBe('unchanged');
  });
});
