import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan, hasConflicts, itemDiff, summarise, toJSON, unifiedDiff, type Plan } from '../../generators/src/pipeline/index.js';
import { applyToDisk, planRendered } from './helpers.js';

const GEN = 'project';
let root: string;
const b = (s: string): Buffer => Buffer.from(s, 'utf8');

async function write(rel: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
  await writeFile(path.join(root, rel), text);
}

const v1 = new Map<string, Buffer>([
  ['fluid/app.ts', b("import { Fluid } from '@fw/kernel';\n\nexport const fluid = new Fluid({ root: new URL('..', import.meta.url) });\nfluid.app.get('home', '/', (ctx) => ctx.render('index.html', { title: 'demo' }));\nexport default fluid;\n")],
  ['fluid/templates/index.html', b('<h1>{{title}}</h1>\n<script src="/fluid/static/vendor/htmx.min.js"></script>\n')],
  ['README.md', b('# demo\n\nRun `npx fw run`.\n')],
  ['old.txt', b('produced by v1 only\n')],
  ['kept.txt', b('produced by v1 only, edited later\n')],
  ['gone.txt', b('the user deletes this\n')],
]);

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'fw-regen-plan-'));
  await applyToDisk(await planRendered({ projectRoot: root, rendered: v1, generatorId: GEN }));
  // The user's edits.
  await write('fluid/app.ts', (await readFile(path.join(root, 'fluid/app.ts'), 'utf8')).replace("fluid.app.get('home'", "fluid.app.get('about', '/about', () => 'about');\nfluid.app.get('home'"));
  await write('README.md', '# demo (mine)\n\nRun `npx fw run`.\n');
  await write('kept.txt', 'my notes\n');
  await rm(path.join(root, 'gone.txt'));
  await write('notes.md', 'a file the user wrote\n');
});
afterAll(async () => rm(root, { recursive: true, force: true }));

// v2 of the config: the surface switches to vite, the README title changes, old files go away.
const v2 = new Map<string, Buffer>([
  ['fluid/app.ts', b(v1.get('fluid/app.ts')!.toString().replace("import { Fluid } from '@fw/kernel';", "import { Fluid } from '@fw/kernel';\nimport { vite } from '@fw/kernel/vite';"))],
  ['fluid/templates/index.html', b('<h1>{{title}}</h1>\n<script type="module" src="/vite-dev/main.tsx"></script>\n')],
  ['README.md', b('# demo (vite)\n\nRun `npx fw run`.\n')],
  ['gone.txt', b('the user deletes this, v2\n')],
  ['notes.md', b('fw wants this path too\n')],
  ['fluid/frontend/main.tsx', b("console.log('vite');\n")],
]);

describe('planRegeneration', () => {
  let plan: Plan;
  beforeAll(async () => {
    plan = await planRendered({ projectRoot: root, rendered: v2, generatorId: GEN });
  });

  it('classifies every path of the record and the render', () => {
    const actions = Object.fromEntries(plan.items.map((i) => [i.path, i.action]));
    expect(actions).toEqual({
      'README.md': 'conflict',
      'fluid/app.ts': 'merge',
      'fluid/frontend/main.tsx': 'create',
      'fluid/templates/index.html': 'update',
      'gone.txt': 'skip-deleted',
      'kept.txt': 'keep-edited',
      'notes.md': 'conflict-untracked',
      'old.txt': 'delete',
    });
    expect(hasConflicts(plan)).toBe(true);
  });

  it('prints a summary with counts and the files to resolve', () => {
    const text = summarise(plan);
    expect(text).toContain('8 files: 1 create, 1 update, 1 merge, 1 conflict, 1 conflict-untracked, 1 delete, 1 skip-deleted, 1 keep-edited');
    expect(text).toContain('README.md: edit the regions between <<<<<<< and >>>>>>>, remove the markers');
    expect(text).toContain('notes.md: compare with notes.md.fw-new');
    expect(text).toMatch(/skip-deleted\s+gone\.txt\s+\(you deleted it: stays deleted\)/);
  });

  it('gives the same for machines, with diffs on request', () => {
    const json = toJSON(plan, { diffs: true });
    expect(json.exitCode).toBe(1);
    expect(json.counts.merge).toBe(1);
    expect(json.conflicts).toEqual({ files: ['README.md', 'notes.md'], regions: 2 });
    const app = json.files.find((f) => f.path === 'fluid/app.ts');
    expect(app?.diff).toContain("+import { vite } from '@fw/kernel/vite';");
    expect(json.files.find((f) => f.path === 'notes.md')?.sidecar).toBe('notes.md.fw-new');
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it('produces git-style unified diffs for --dry-run', () => {
    expect(unifiedDiff('x.txt', 'a\nb\n', 'a\nc\n')).toBe('--- a/x.txt\n+++ b/x.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n');
    expect(unifiedDiff('x.txt', undefined, 'new\n')).toContain('--- /dev/null\n+++ b/x.txt\n');
    expect(unifiedDiff('x.bin', Buffer.from([0, 1]), Buffer.from([0, 2]))).toBe('Binary files a/x.bin and b/x.bin differ\n');
    expect(unifiedDiff('x.txt', 'same\n', 'same\n')).toBe('');
    const old = plan.items.find((i) => i.path === 'old.txt')!;
    expect(itemDiff(old)).toContain('+++ /dev/null');
  });

  it('maps the plan onto the writer and returns record updates for what was written', async () => {
    const calls: string[] = [];
    const updates = await applyPlan(plan, {
      write: (p, bytes) => void calls.push(`write ${p} ${bytes.length}`),
      remove: (p) => void calls.push(`remove ${p}`),
    });
    expect(calls.map((c) => c.split(' ').slice(0, 2).join(' '))).toEqual([
      'write README.md', 'write fluid/app.ts', 'write fluid/frontend/main.tsx', 'write fluid/templates/index.html',
      'write notes.md.fw-new', 'remove old.txt',
    ]);
    expect(updates.written.map((w) => w.path)).toEqual(['README.md', 'fluid/app.ts', 'fluid/frontend/main.tsx', 'fluid/templates/index.html', 'notes.md']);
    // The recorded base of a merged or conflicted file is the render, not what was written.
    expect(updates.written[0]?.content.toString()).toBe(v2.get('README.md')!.toString());
    expect(updates.dropped).toEqual(['kept.txt', 'old.txt']);
  });

  it('applies to disk: edits kept, markers written, record updated, second run is quiet', async () => {
    await applyToDisk(plan);
    const app = await readFile(path.join(root, 'fluid/app.ts'), 'utf8');
    expect(app).toContain("fluid.app.get('about', '/about', () => 'about');");
    expect(app).toContain("import { vite } from '@fw/kernel/vite';");
    expect(await readFile(path.join(root, 'README.md'), 'utf8')).toBe(
      '<<<<<<< ours (your edit)\n# demo (mine)\n||||||| base (last generated)\n# demo\n=======\n# demo (vite)\n>>>>>>> theirs (new render)\n\nRun `npx fw run`.\n',
    );
    expect(await readFile(path.join(root, 'notes.md'), 'utf8')).toBe('a file the user wrote\n');
    expect(await readFile(path.join(root, 'notes.md.fw-new'), 'utf8')).toBe('fw wants this path too\n');
    const record = JSON.parse(await readFile(path.join(root, '.fw/record.json'), 'utf8')) as { files: Record<string, unknown> };
    expect(Object.keys(record.files).sort()).toEqual(['README.md', 'fluid/app.ts', 'fluid/frontend/main.tsx', 'fluid/templates/index.html', 'gone.txt', 'notes.md']);

    const again = await planRendered({ projectRoot: root, rendered: v2, generatorId: GEN });
    const actions = Object.fromEntries(again.items.map((i) => [i.path, i.action]));
    expect(actions['README.md']).toBe('unchanged');
    expect(again.items.find((i) => i.path === 'README.md')?.unresolved).toBe(true);
    expect(actions['notes.md']).toBe('unchanged');
    expect(again.items.find((i) => i.path === 'notes.md')).toMatchObject({ unresolved: true, sidecarLeft: true });
    expect(again.items.find((i) => i.path === 'notes.md')?.sidecar).toBeUndefined();
    expect(summarise(again)).toContain('still holds conflict markers');
    expect(summarise(again)).toMatch(/unchanged\s+notes\.md\s+\(notes\.md\.fw-new from an earlier run is still there\)/);
    expect(summarise(again)).toContain('notes.md: compare with notes.md.fw-new, keep what you want, delete the .fw-new file');
    // Nothing new conflicted in this run: no "(0 conflicts)".
    expect(summarise(again)).toContain('2 files need your attention:\n');
    expect(hasConflicts(again)).toBe(true);
  });

  it('an untracked file in the way is resolved by keeping it and deleting the .fw-new, as the summary says', async () => {
    await writeFile(path.join(root, 'README.md'), '# demo (mine, resolved)\n\nRun `npx fw run`.\n');
    await rm(path.join(root, 'notes.md.fw-new'));
    const resolved = await planRendered({ projectRoot: root, rendered: v2, generatorId: GEN });
    expect(resolved.items.find((i) => i.path === 'notes.md')).toMatchObject({ action: 'unchanged', unresolved: false, conflicts: 0 });
    expect(hasConflicts(resolved)).toBe(false);
    await applyToDisk(resolved);
    expect(await readFile(path.join(root, 'notes.md'), 'utf8')).toBe('a file the user wrote\n');
  });

  it('only considers record entries of its own generator by default', async () => {
    const other = await planRendered({ projectRoot: root, rendered: new Map(), generatorId: 'additive:blog' });
    expect(other.items).toEqual([]);
    const all = await planRendered({ projectRoot: root, rendered: new Map(), generatorId: 'x', owns: () => true });
    expect(all.items.length).toBe(6);
  });

  it('refuses record paths that escape the project, naming the path', async () => {
    await expect(
      planRendered({ projectRoot: root, rendered: new Map([['../evil.txt', b('x')]]), generatorId: GEN }),
    ).rejects.toThrow(/\.\.\/evil\.txt.*outside the project root/);
  });
});

describe('a file where fw wants a folder', () => {
  it('is refused while planning, naming both paths, before anything is written', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fw-blocked-'));
    try {
      await writeFile(path.join(dir, 'fluid'), 'a file named like a folder\n');
      const rendered = new Map([['a.txt', b('a\n')], ['fluid/i18n/en/index.ts', b('export {};\n')]]);
      await expect(planRendered({ projectRoot: dir, rendered, generatorId: GEN })).rejects.toThrow(
        'Cannot write fluid/i18n/en/index.ts: fluid is a file, not a folder; move or rename it, then run again',
      );
      expect(existsSync(path.join(dir, 'a.txt'))).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a write that fails (a folder appeared where the file goes, after planning)', () => {
  it('names the file, records what landed, and leaves no interrupted-run marker behind for fw doctor', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fw-fail-'));
    try {
      await applyToDisk(await planRendered({ projectRoot: dir, rendered: new Map([['a.txt', b('a\n')]]), generatorId: GEN }));
      const plan = await planRendered({ projectRoot: dir, rendered: new Map([['a.txt', b('a2\n')], ['b.txt', b('b\n')]]), generatorId: GEN });
      await mkdir(path.join(dir, 'b.txt/inside'), { recursive: true });
      await expect(applyToDisk(plan)).rejects.toThrow(/^Could not write b\.txt: /);
      expect(existsSync(path.join(dir, '.fw/cache/applying'))).toBe(false);
      expect(await readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('a2\n');
      const record = JSON.parse(await readFile(path.join(dir, '.fw/record.json'), 'utf8')) as { files: Record<string, { sha256: string }> };
      expect(Object.keys(record.files)).toEqual(['a.txt']);
      expect(await readFile(path.join(dir, '.fw/store', record.files['a.txt']!.sha256), 'utf8')).toBe('a2\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
