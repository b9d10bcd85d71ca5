import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { planRendered } from './helpers.js';
import { renderVersion } from './fixtures/kill-child.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const child = path.join(repo, 'test/regen/fixtures/kill-child.ts');
let root = '';
afterAll(async () => rm(root, { recursive: true, force: true }));

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

function runToEnd(v: number): void {
  const run = spawnSync(process.execPath, ['--import', 'tsx', child, root, String(v)], { cwd: repo, encoding: 'utf8', timeout: 120_000 });
  expect(run.status, run.stderr).toBe(0);
}

async function recordHashes(): Promise<Record<string, string>> {
  const record = JSON.parse(await readFile(path.join(root, '.fw/record.json'), 'utf8')) as { files: Record<string, { sha256: string }> };
  return Object.fromEntries(Object.entries(record.files).map(([p, e]) => [p, e.sha256]));
}

describe('a regeneration killed mid-write', () => {
  it('leaves every file old or new, the record consistent, and a re-run completes the work', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'fw-regen-kill-'));
    const v1 = renderVersion(1);
    const v2 = renderVersion(2);
    runToEnd(1);
    const first = [...v2.keys()][0]!;

    // Start regenerating to v2 and SIGKILL it as soon as its first file has landed.
    const proc = spawn(process.execPath, ['--import', 'tsx', child, root, '2'], { cwd: repo, stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => proc.on('exit', (_code, signal) => resolve(signal)));
    const deadline = Date.now() + 60_000;
    for (;;) {
      const bytes = await readFile(path.join(root, first)).catch(() => undefined);
      if (bytes?.equals(v2.get(first)!)) break;
      if (Date.now() > deadline) throw new Error('the child never wrote its first v2 file');
      await new Promise((r) => setTimeout(r, 2));
    }
    proc.kill('SIGKILL');
    expect(await exited, 'the child must be killed, not finish').toBe('SIGKILL');

    let newer = 0;
    for (const [p, bytes] of v2) {
      const disk = await readFile(path.join(root, p));
      const isNew = disk.equals(bytes);
      expect(isNew || disk.equals(v1.get(p)!), `${p} is either the old or the new version, never partial`).toBe(true);
      if (isNew) newer++;
    }
    expect(newer, 'killed mid-way: some files new').toBeGreaterThan(0);
    expect(newer, 'killed mid-way: some files still old').toBeLessThan(v2.size);
    // The record is written last: it still describes v1, entirely.
    expect(await recordHashes()).toEqual(Object.fromEntries([...v1].map(([p, b]) => [p, sha(b)])));

    // Re-planning sees the written files as already up to date and the rest as untouched: no conflict.
    const plan = await planRendered({ projectRoot: root, rendered: v2, generatorId: 'kill' });
    const actions = new Set(plan.items.map((i) => i.action));
    expect([...actions].sort()).toEqual(['unchanged', 'update']);
    runToEnd(2);
    for (const [p, bytes] of v2) expect((await readFile(path.join(root, p))).equals(bytes)).toBe(true);
    expect(await recordHashes()).toEqual(Object.fromEntries([...v2].map(([p, b]) => [p, sha(b)])));
    const again = await planRendered({ projectRoot: root, rendered: v2, generatorId: 'kill' });
    expect(again.items.every((i) => i.action === 'unchanged')).toBe(true);
  });
});
