/**
 * Property test of `fw generate` at the command level (the planner-level one is
 * test/regen/property.test.ts): over many seeds, random user edits (insert, change and delete
 * lines, delete files) and random config changes (surface, Alpine, additives added, removed and
 * renamed, roles), then `fw generate`. Asserts: dry-run writes nothing; no line the user inserted
 * or changed is lost unless its file holds a reported conflict; every local additive is
 * registered exactly once (the codemods are idempotent); a second run writes nothing.
 */
import { cp, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readRecord } from '../../generators/src/pipeline/record.js';
import { tempDir } from './helpers.js';
import { editConfig, fw, snapshot } from './project-helpers.js';
import { prng } from '../support/random.js';

const SEEDS = Number(process.env.FW_PROPERTY_SEEDS ?? 24);
const POOL = ['blog', 'shop', 'news', 'forum'];


function comment(file: string, text: string): string | undefined {
  if (/\.(ts|css)$/.test(file)) return `/* ${text} */`;
  if (file.endsWith('.html')) return `<!-- ${text} -->`;
  if (file.endsWith('.md') || file === '.gitignore') return text;
  return undefined; // JSON and the rest: left alone
}

let templateDir = '';
let template = '';
beforeAll(async () => {
  // Made once and copied per seed (tempDir() folders are removed after each test, so not that).
  templateDir = await mkdtemp(path.join(tmpdir(), 'fw-prop-template-'));
  await fw(templateDir, 'create', 'project', 'prop-app', '--yes');
  template = path.join(templateDir, 'prop-app');
  await fw(template, 'create', 'additive', 'blog');
}, 60_000);
afterAll(() => rm(templateDir, { recursive: true, force: true }));

test.each(Array.from({ length: SEEDS }, (_, i) => i))('seed %i: edits and config changes survive fw generate', async (seed) => {
  const random = prng(seed * 7919 + 1);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const root = path.join(await tempDir('fw-prop-'), 'prop-app');
  await cp(template, root, { recursive: true });

  // Random user edits on generated files.
  const record = await readRecord(root);
  const files = Object.keys(record!.files).filter((f) => comment(f, 'x') !== undefined);
  const kept = new Map<string, string[]>(); // file -> lines the user wrote that must survive
  for (let e = 0; e < 1 + Math.floor(random() * 6); e++) {
    const file = pick(files);
    const abs = path.join(root, file);
    const text = await readFile(abs, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const lines = text.split('\n');
    const at = Math.floor(random() * lines.length);
    const kind = random();
    if (kind < 0.45) {
      const line = comment(file, `user ${seed}.${e} inserted`)!;
      lines.splice(at, 0, line);
      kept.set(file, [...(kept.get(file) ?? []), line]);
    } else if (kind < 0.7 && lines[at]?.trim()) {
      const line = comment(file, `user ${seed}.${e} changed`)!;
      lines[at] = line;
      kept.set(file, [...(kept.get(file) ?? []), line]);
    } else if (kind < 0.9) {
      lines.splice(at, 1);
    } else {
      await unlink(abs);
      kept.delete(file);
      continue;
    }
    await writeFile(abs, lines.join('\n'));
  }

  // Random config changes.
  let additives: string[] = [];
  await editConfig(root, (c) => {
    const surface = pick(['htmx', 'htmx-alpine', 'none']);
    c.config.APP_FRONTEND = surface === 'none' ? { type: 'none' } : { type: 'htmx', alpine: surface === 'htmx-alpine' };
    const list = new Set(c.additives);
    for (const name of POOL) if (random() < 0.35) (list.has(name) ? list.delete(name) : list.add(name));
    c.additives = additives = [...list];
    if (random() < 0.4) c.config.AUTH_ROLES = pick([['editor'], ['editor', 'author'], []]);
  });

  const before = await snapshot(root);
  await fw(root, 'generate', '--dry-run');
  expect(await snapshot(root), 'dry-run wrote something').toEqual(before);

  const ran = await fw(root, 'generate', '--json');
  expect(ran.error).toBeUndefined();
  const result = JSON.parse(ran.out) as { files: Array<{ path: string; action: string; conflicts: number; unresolved: boolean }>; registrations: { note?: string } };
  const conflicted = new Set(result.files.filter((f) => f.conflicts > 0 || f.unresolved).map((f) => f.path));
  expect(ran.code).toBe(conflicted.size > 0 || result.registrations.note ? 1 : 0);
  for (const [file, lines] of kept) {
    if (conflicted.has(file)) continue;
    const text = await readFile(path.join(root, file), 'utf8').catch(() => '');
    for (const line of lines) expect(text, `${file} lost "${line}" (seed ${seed})`).toContain(line);
  }

  const app = await readFile(path.join(root, 'fluid/app.ts'), 'utf8').catch(() => undefined);
  if (app !== undefined && !conflicted.has('fluid/app.ts')) {
    for (const name of additives) expect(app.split(`fluid.additive(${name});`).length - 1, `${name} registered once (seed ${seed})`).toBe(1);
    for (const name of POOL.filter((n) => !additives.includes(n))) expect(app, `seed ${seed}`).not.toContain(`fluid.additive(${name});`);
  }

  const settled = await snapshot(root);
  await fw(root, 'generate');
  expect(await snapshot(root), `a second fw generate wrote something (seed ${seed})`).toEqual(settled);
}, 60_000);
