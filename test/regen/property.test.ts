import { mkdtemp, readdir, readFile, rm, stat, unlink, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasConflictMarkers, itemChangesDisk, MARKER_OURS, MARKER_THEIRS } from '../../generators/src/pipeline/index.js';
import { applyToDisk, planRendered } from './helpers.js';
import { prng } from '../support/random.js';


const GEN = 'property';
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function snapshot(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  async function walk(rel: string): Promise<void> {
    for (const e of await readdir(path.join(root, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(r);
      else out.set(r, (await readFile(path.join(root, r))).toString('base64') + ':' + ((await stat(path.join(root, r))).mode & 0o777));
    }
  }
  await walk('');
  return out;
}

async function readOrUndefined(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

async function runSeed(seed: number): Promise<void> {
  const rand = prng(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));
  const chance = (p: number): boolean => rand() < p;
  let counter = 0;
  const token = (kind: string): string => `${kind}-${seed}-${counter++}`;
  const makeFile = (): string[] => Array.from({ length: int(0, 14) }, () => token('gen'));
  const render = (lines: string[], crlf: boolean, finalNewline: boolean): Buffer => {
    const eol = crlf ? '\r\n' : '\n';
    return Buffer.from(lines.join(eol) + (finalNewline && lines.length > 0 ? eol : ''), 'utf8');
  };

  const root = await mkdtemp(path.join(tmpdir(), `fw-regen-${seed}-`));
  dirs.push(root);

  // 1. First generation: every file is created and recorded.
  const first = new Map<string, Buffer>();
  const fileCount = int(2, 7);
  for (let i = 0; i < fileCount; i++) {
    first.set(`src/f${i}.txt`, render(makeFile(), chance(0.15), chance(0.85)));
  }
  if (chance(0.3)) first.set('static/logo.bin', Buffer.from([0, 1, 2, int(0, 255)]));
  const plan0 = await planRendered({ projectRoot: root, rendered: first, generatorId: GEN });
  expect(plan0.items.every((i) => i.action === 'create')).toBe(true);
  await applyToDisk(plan0);

  // 2. Random user edits: insert / delete / change lines, delete files, edit binaries.
  const userTokens = new Map<string, string[]>();
  const userDeleted = new Set<string>();
  const userEdited = new Set<string>();
  for (const p of first.keys()) {
    const abs = path.join(root, p);
    if (chance(0.1)) {
      await unlink(abs);
      userDeleted.add(p);
      continue;
    }
    if (!chance(0.6)) continue;
    if (p.endsWith('.bin')) {
      await writeFile(abs, Buffer.from([0, 9, 9, int(0, 255)]));
      userEdited.add(p);
      continue;
    }
    const text = await readFile(abs, 'utf8');
    const crlf = text.includes('\r\n');
    const finalNewline = /\n$/.test(text);
    const lines = text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
    const tokens: string[] = [];
    for (let k = int(1, 4); k > 0; k--) {
      const op = int(0, 2);
      if (op === 0 || lines.length === 0) {
        const t = token('user');
        lines.splice(int(0, lines.length), 0, t);
        tokens.push(t);
      } else if (op === 1) {
        const at = int(0, lines.length - 1);
        const [gone] = lines.splice(at, 1);
        const gi = tokens.indexOf(gone ?? '');
        if (gi !== -1) tokens.splice(gi, 1);
      } else {
        const at = int(0, lines.length - 1);
        const gi = tokens.indexOf(lines[at] ?? '');
        if (gi !== -1) tokens.splice(gi, 1);
        const t = token('user');
        lines[at] = t;
        tokens.push(t);
      }
    }
    await writeFile(abs, render(lines, crlf, finalNewline));
    if (Buffer.compare(await readFile(abs), first.get(p)!) !== 0) userEdited.add(p);
    userTokens.set(p, tokens);
  }

  // 3. Random config changes: modify rendered files, add and remove files.
  const second = new Map<string, Buffer>();
  for (const [p, bytes] of first) {
    if (chance(0.12)) continue; // no longer produced
    if (p.endsWith('.bin')) {
      second.set(p, chance(0.5) ? Buffer.from([0, 1, 7, int(0, 255)]) : bytes);
      continue;
    }
    if (!chance(0.5)) {
      second.set(p, bytes);
      continue;
    }
    const text = bytes.toString('utf8');
    const crlf = text.includes('\r\n');
    const lines = text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
    for (let k = int(1, 3); k > 0; k--) {
      const op = int(0, 2);
      if (op === 0 || lines.length === 0) lines.splice(int(0, lines.length), 0, token('gen2'));
      else if (op === 1) lines.splice(int(0, lines.length - 1), 1);
      else lines[int(0, lines.length - 1)] = token('gen2');
    }
    second.set(p, render(lines, crlf, chance(0.9)));
  }
  for (let k = int(0, 2); k > 0; k--) second.set(`src/new${k}.txt`, render(makeFile(), false, true));

  // 4. Plan (a dry run: nothing on disk changes), then apply.
  const before = await snapshot(root);
  const plan = await planRendered({ projectRoot: root, rendered: second, generatorId: GEN });
  expect(await snapshot(root)).toEqual(before);
  const byPath = new Map(plan.items.map((i) => [i.path, i]));
  await applyToDisk(plan);

  for (const [p, tokens] of userTokens) {
    if (!userEdited.has(p)) continue; // the random edits cancelled out
    const after = await readOrUndefined(path.join(root, p));
    // No user-written line is lost: a file with user edits is never deleted, and every line the
    // user wrote is still in it (inside the "ours" side of a marked conflict at worst).
    expect(after, `${p} (seed ${seed}) must survive`).toBeDefined();
    for (const t of tokens) expect(after!.split(/\r?\n/), `${t} in ${p} (seed ${seed})`).toContain(t);
    if (after !== undefined && hasConflictMarkers(after)) {
      expect(byPath.get(p)?.action, `${p} has markers, so it must be reported (seed ${seed})`).toBe('conflict');
      // A user line inside a conflict region sits between the ours marker and the theirs marker.
      expect(after.indexOf(MARKER_OURS)).toBeLessThan(after.lastIndexOf(MARKER_THEIRS));
    }
  }
  for (const p of userDeleted) {
    expect(await readOrUndefined(path.join(root, p)), `${p} deleted by the user stays deleted (seed ${seed})`).toBeUndefined();
    if (second.has(p)) expect(byPath.get(p)?.action).toBe('skip-deleted');
  }
  for (const [p, theirs] of second) {
    if (userDeleted.has(p) || userEdited.has(p)) continue;
    // Untouched files are exactly the new render.
    expect(await readFile(path.join(root, p)), `${p} (seed ${seed})`).toEqual(theirs);
  }
  for (const p of first.keys()) {
    if (second.has(p) || userDeleted.has(p)) continue;
    const exists = (await readOrUndefined(path.join(root, p))) !== undefined;
    expect(exists, `${p}: removed only when unedited (seed ${seed})`).toBe(userEdited.has(p));
    expect(byPath.get(p)?.action).toBe(userEdited.has(p) ? 'keep-edited' : 'delete');
  }
  for (const item of plan.items) {
    if (item.action === 'conflict' && item.write === undefined) {
      expect(await readFile(path.join(root, `${item.path}.fw-new`))).toEqual(second.get(item.path));
    }
  }

  // 5. Regenerating again with no change writes nothing, and applying is idempotent.
  const settled = await snapshot(root);
  const again = await planRendered({ projectRoot: root, rendered: second, generatorId: GEN });
  for (const item of again.items) {
    expect(['unchanged', 'skip-deleted'], `${item.path}: ${item.action} (seed ${seed})`).toContain(item.action);
    expect(itemChangesDisk(item)).toBe(false);
    expect(item.record.op === 'set' ? 'set' : 'no-set').toBe('no-set');
  }
  await applyToDisk(again);
  expect(await snapshot(root)).toEqual(settled);
}

describe('regeneration properties over random seeds', () => {
  const SEEDS = 240;
  const BATCH = 40;
  for (let start = 1; start <= SEEDS; start += BATCH) {
    it(`seeds ${start}..${start + BATCH - 1}: no user line lost, deletions respected, re-run writes nothing`, async () => {
      for (let seed = start; seed < start + BATCH; seed++) await runSeed(seed);
    });
  }
});

describe('a regeneration made of several rounds', () => {
  it('keeps resolving conflicts as user edits', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'fw-regen-rounds-'));
    dirs.push(root);
    await mkdir(path.join(root, 'src'), { recursive: true });
    const r1 = new Map([['src/a.txt', Buffer.from('one\ntwo\nthree\n')]]);
    await applyToDisk(await planRendered({ projectRoot: root, rendered: r1, generatorId: GEN }));
    await writeFile(path.join(root, 'src/a.txt'), 'one\nTWO mine\nthree\n');
    const r2 = new Map([['src/a.txt', Buffer.from('one\nTWO gen\nthree\n')]]);
    const p2 = await planRendered({ projectRoot: root, rendered: r2, generatorId: GEN });
    expect(p2.items[0]?.action).toBe('conflict');
    await applyToDisk(p2);
    // The user resolves by keeping both lines.
    await writeFile(path.join(root, 'src/a.txt'), 'one\nTWO mine\nTWO gen\nthree\n');
    // The next config change touches another line: it merges into the resolution, no conflict again.
    const r3 = new Map([['src/a.txt', Buffer.from('one\nTWO gen\nthree\nfour\n')]]);
    const p3 = await planRendered({ projectRoot: root, rendered: r3, generatorId: GEN });
    expect(p3.items[0]?.action).toBe('merge');
    await applyToDisk(p3);
    expect(await readFile(path.join(root, 'src/a.txt'), 'utf8')).toBe('one\nTWO mine\nTWO gen\nthree\nfour\n');
  });
});
