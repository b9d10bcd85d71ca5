/**
 * SIGKILL at exact moments of the apply step (the `FW_TEST_PAUSE_AT` seam freezes the child right
 * after a temp file was synced and before its rename; the test kills it there): a project file
 * write, a `.fw/store` write and the `.fw/record.json` write. Whatever the kill left (temp files,
 * stored copies no record refers to, the marker, a stale lock) is gone after the next run, and
 * `fw doctor` reports it and `fw doctor --fix` repairs it without running a generator.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { listFiles } from '../generators/helpers.js';
import { editConfig, fw, newProject } from '../generators/project-helpers.js';
import { renderVersion } from './fixtures/kill-child.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const child = path.join(repo, 'test/regen/fixtures/kill-child.ts');
const FW = path.join(repo, 'generators/src/bin/fw.ts');
// tsx from this checkout, whatever folder the child runs in.
const TSX = pathToFileURL(path.join(repo, 'node_modules/tsx/dist/loader.mjs')).href;
const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((r) => rm(r, { recursive: true, force: true })));
});

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** Runs `args` under node + tsx in `cwd`; with `pauseAt`, waits for the pause, SIGKILLs, and resolves after the kill. */
function runChild(args: string[], cwd: string, pauseAt?: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', TSX, ...args], {
      cwd,
      env: { ...process.env, ...(pauseAt ? { FW_TEST_PAUSE_AT: pauseAt } : {}) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    proc.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (pauseAt && stderr.includes(`fw: paused at ${pauseAt}\n`)) proc.kill('SIGKILL');
    });
    proc.on('error', reject);
    proc.on('exit', (code, signal) => resolve({ code, signal, stderr }));
  });
}

/** A folder the kill child regenerates (with an fw.json, so `fw doctor` finds the project). */
async function project(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'fw-kill-moment-'));
  roots.push(root);
  await writeFile(path.join(root, 'fw.json'), JSON.stringify({ name: 'kill' }));
  return root;
}

async function recordHashes(root: string): Promise<Record<string, string>> {
  const record = JSON.parse(await readFile(path.join(root, '.fw/record.json'), 'utf8')) as { files: Record<string, { sha256: string }> };
  return Object.fromEntries(Object.entries(record.files).map(([p, e]) => [p, e.sha256]));
}

const hashesOf = (files: Map<string, Buffer>): Record<string, string> => Object.fromEntries([...files].map(([p, b]) => [p, sha(b)]));

async function temps(root: string): Promise<string[]> {
  return (await listFiles(root)).filter((f) => f.includes('.fw-tmp-'));
}

/** The stored copies the record does not refer to. */
async function orphans(root: string): Promise<string[]> {
  const live = new Set(Object.values(await recordHashes(root)));
  return (await readdir(path.join(root, '.fw/store'))).filter((n) => /^[0-9a-f]{64}$/.test(n) && !live.has(n));
}

describe('SIGKILL at a named moment of fw generate (v1 → v2 of a 40-file render)', () => {
  const SHAPE = ['40', '4096'];
  const v1 = renderVersion(1, 40, 4096);
  const v2 = renderVersion(2, 40, 4096);

  it.each([
    ['file-write', 'a project file'],
    ['store-write', 'a .fw/store copy'],
    ['record-write', '.fw/record.json'],
  ] as const)('killed at %s (%s): the leftovers are there, and the next run leaves nothing behind', async (moment, _what) => {
    const root = await project();
    expect((await runChild([child, root, '1', ...SHAPE], repo)).code).toBe(0);
    const killed = await runChild([child, root, '2', ...SHAPE], repo, moment);
    expect(killed.signal, killed.stderr).toBe('SIGKILL');

    // What the kill left: the temp file of the write it froze in, the marker, the old record.
    const left = await temps(root);
    if (moment === 'file-write') expect(left.some((f) => f.startsWith('big/'))).toBe(true);
    if (moment === 'store-write') expect(left.some((f) => f.startsWith('.fw/store/'))).toBe(true);
    if (moment === 'record-write') {
      expect(left.filter((f) => f.startsWith('.fw/record.json.fw-tmp-'))).toHaveLength(1);
      expect((await orphans(root)).length, 'every v2 copy is stored, none recorded').toBe(v2.size);
    }
    expect(existsSync(path.join(root, '.fw/cache/applying'))).toBe(true);
    expect(await recordHashes(root)).toEqual(hashesOf(v1));
    const report = await fw(root, 'doctor');
    expect(report.code).toBe(1);
    for (const temp of left) expect(report.out).toContain(temp);
    expect(report.out).toContain('interrupted-run');

    // The next run completes the work and removes every leftover.
    expect((await runChild([child, root, '2', ...SHAPE], repo)).code).toBe(0);
    expect(await temps(root)).toEqual([]);
    expect(await orphans(root)).toEqual([]);
    expect(existsSync(path.join(root, '.fw/cache/applying'))).toBe(false);
    expect(await recordHashes(root)).toEqual(hashesOf(v2));
    for (const [p, bytes] of v2) expect((await readFile(path.join(root, p))).equals(bytes), p).toBe(true);
    expect((await fw(root, 'doctor')).out).toMatch(/^fw doctor: nothing wrong in /);
  }, 120_000);

  it('killed at record-write, repaired by fw doctor --fix: no temp file, no orphan, the old record intact', async () => {
    const root = await project();
    expect((await runChild([child, root, '1', ...SHAPE], repo)).code).toBe(0);
    expect((await runChild([child, root, '2', ...SHAPE], repo, 'record-write')).signal).toBe('SIGKILL');
    const before = await fw(root, 'doctor', '--json');
    const found = (JSON.parse(before.out) as { found: { kind: string }[] }).found.map((f) => f.kind);
    expect(found.filter((k) => k === 'orphan-copy')).toHaveLength(v2.size);
    expect(found).toContain('temp-file');
    expect(found).toContain('interrupted-run');
    const fixed = await fw(root, 'doctor', '--fix');
    expect(fixed.code, fixed.error ?? fixed.out).toBe(0);
    expect(fixed.out).toMatch(/^fw doctor --fix: repaired \d+ of \d+ problem\(s\)/);
    expect(await temps(root)).toEqual([]);
    expect(await orphans(root)).toEqual([]);
    expect(existsSync(path.join(root, '.fw/cache/applying'))).toBe(false);
    expect(await recordHashes(root)).toEqual(hashesOf(v1));
    for (const hash of Object.values(hashesOf(v1))) expect(existsSync(path.join(root, '.fw/store', hash)), 'recorded copies are kept').toBe(true);
    expect((await fw(root, 'doctor')).code).toBe(0);
  }, 120_000);
});

describe('fw doctor on a real project', () => {
  it('a real fw generate killed at record-write leaves a stale lock; doctor reports it, --fix takes it over and cleans up', async () => {
    const root = await newProject('doctor-app');
    roots.push(path.dirname(root));
    await editConfig(root, (c) => {
      c.additives = ['blog', 'shop'];
    });
    const killed = await runChild([FW, 'generate'], root, 'record-write');
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    expect(existsSync(path.join(root, '.fw/lock'))).toBe(true);
    const report = await fw(root, 'doctor');
    expect(report.code).toBe(1);
    expect(report.out).toMatch(/stale-lock +\.fw\/lock: held by pid \d+ on .*"fw generate".*which is gone/);
    expect(report.out).toMatch(/orphan-copy +\.fw\/store\/[0-9a-f]{64}/);
    expect(report.out).toContain('Run "fw doctor --fix" to repair them.');
    const fixed = await fw(root, 'doctor', '--fix');
    expect(fixed.code, fixed.error ?? fixed.out).toBe(0);
    expect(existsSync(path.join(root, '.fw/lock'))).toBe(false);
    expect(await temps(root)).toEqual([]);
    expect(await orphans(root)).toEqual([]);
    const again = await fw(root, 'generate');
    expect(again.code, again.error ?? again.out).toBe(0);
    expect((await fw(root, 'doctor')).out).toMatch(/^fw doctor: nothing wrong in /);
  }, 180_000);

  it('a run paused with its lock held: doctor calls its temp file the running run\'s, --fix removes nothing; resumed, it finishes and nothing is left', async () => {
    const root = await newProject('doctor-paused');
    roots.push(path.dirname(root));
    await editConfig(root, (c) => {
      c.additives = ['blog'];
    });
    // A real fw generate, stopped (SIGSTOP) right after it synced a .fw/store temp file.
    const proc = spawn(process.execPath, ['--import', TSX, FW, 'generate'], {
      cwd: root,
      env: { ...process.env, FW_TEST_PAUSE_AT: 'store-write' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    try {
      let stderr = '';
      await new Promise<void>((resolve, reject) => {
        proc.stderr.on('data', (d: Buffer) => {
          stderr += d.toString();
          if (stderr.includes('fw: paused at store-write\n')) resolve();
        });
        proc.on('exit', () => reject(new Error(`fw generate ended before pausing:\n${stderr}`)));
      });
      const left = await temps(root);
      expect(left.filter((f) => f.startsWith('.fw/store/')).length).toBeGreaterThan(0);
      const report = await fw(root, 'doctor');
      expect(report.out).toMatch(/held-lock +\.fw\/lock: held by pid \d+ .* which is running/);
      const holder = `the run holding .fw/lock (pid ${proc.pid}, "fw generate"), which is still going`;
      for (const temp of left) expect(report.out).toContain(`${temp}: a temp file, written by ${holder}: not a leftover`);
      expect(report.out).toContain(`.fw/cache/applying: set by ${holder}: no run was interrupted`);
      expect(report.out).not.toContain('killed run');
      expect(report.out).not.toContain('a run was interrupted');
      expect(report.out).not.toContain('fw doctor --fix" to repair');
      const json = JSON.parse((await fw(root, 'doctor', '--json')).out) as { found: { kind: string; path: string; fixable: boolean }[] };
      expect(json.found.filter((f) => f.fixable)).toEqual([]);
      // Kinds of their own, not a killed run's (temp-file, orphan-copy, interrupted-run).
      const kinds = new Map(json.found.map((f) => [f.path, f.kind]));
      for (const temp of left) expect(kinds.get(temp)).toBe('in-flight-temp-file');
      expect(kinds.get('.fw/cache/applying')).toBe('run-in-progress');
      for (const kind of ['temp-file', 'orphan-copy', 'interrupted-run']) expect(json.found.map((f) => f.kind)).not.toContain(kind);
      for (const f of json.found.filter((f) => f.path.startsWith('.fw/store/') && !f.path.includes('.fw-tmp-'))) expect(f.kind).toBe('in-flight-copy');
      expect((await fw(root, 'doctor', '--fix')).error).toMatch(/another fw command is writing this project/);
      expect(await temps(root)).toEqual(left);
    } finally {
      // Resumed whatever happened above, and awaited, so it never writes into a removed folder.
      proc.kill('SIGCONT');
      await exited;
    }
    expect(await exited).toBe(0);
    expect(await temps(root)).toEqual([]);
    expect(existsSync(path.join(root, '.fw/lock'))).toBe(false);
    expect((await fw(root, 'doctor')).out).toMatch(/^fw doctor: nothing wrong in /);
  }, 180_000);

  it('a held lock of a running process is reported and --fix refuses; bad entries, missing and corrupt copies are found and repaired', async () => {
    const root = await newProject('doctor-record');
    roots.push(path.dirname(root));
    // A live holder: this test process.
    await writeFile(path.join(root, '.fw/lock'), JSON.stringify({ pid: process.pid, host: (await import('node:os')).hostname(), command: 'fw generate', since: 'now' }));
    const held = await fw(root, 'doctor');
    expect(held.out).toMatch(/held-lock +\.fw\/lock: held by pid \d+ .* which is running/);
    expect((await fw(root, 'doctor', '--fix')).error).toMatch(/another fw command is writing this project/);
    await rm(path.join(root, '.fw/lock'));

    const recordFile = path.join(root, '.fw/record.json');
    const record = JSON.parse(await readFile(recordFile, 'utf8')) as { files: Record<string, { sha256: string; generator: string; mode: string; eol: string }> };
    const uses = new Map<string, number>();
    for (const entry of Object.values(record.files)) uses.set(entry.sha256, (uses.get(entry.sha256) ?? 0) + 1);
    const [restorable, edited, corrupt] = Object.keys(record.files).filter((f) => f.endsWith('.ts') && uses.get(record.files[f]!.sha256) === 1).slice(0, 3) as [string, string, string];
    record.files['../outside.txt'] = { ...record.files[restorable]! };
    await writeFile(recordFile, JSON.stringify(record, null, 2));
    await rm(path.join(root, '.fw/store', record.files[restorable]!.sha256));
    await rm(path.join(root, '.fw/store', record.files[edited]!.sha256));
    await writeFile(path.join(root, edited), '// edited, so its stored copy cannot be rebuilt\n');
    await writeFile(path.join(root, '.fw/store', record.files[corrupt]!.sha256), 'not the bytes');
    await rm(path.join(root, '.fw/.gitattributes'));

    const report = JSON.parse((await fw(root, 'doctor', '--json')).out) as { found: { kind: string; path: string; fixable: boolean }[] };
    const kinds = report.found.map((f) => `${f.kind}${f.fixable ? '' : ' (unfixable)'}`).sort();
    expect(kinds).toEqual(['bad-path', 'corrupt-copy', 'gitattributes', 'missing-copy', 'missing-copy (unfixable)']);
    const fixed = await fw(root, 'doctor', '--fix', '--json');
    expect(fixed.code).toBe(1); // the edited file's base cannot come back
    const after = JSON.parse(fixed.out) as { remaining: { kind: string; path: string }[] };
    expect(after.remaining).toEqual([expect.objectContaining({ kind: 'missing-copy', path: `.fw/store/${record.files[edited]!.sha256}` })]);
    const repaired = JSON.parse(await readFile(recordFile, 'utf8')) as { files: Record<string, unknown> };
    expect(Object.keys(repaired.files)).not.toContain('../outside.txt');
    for (const file of [restorable, corrupt]) {
      const stored = await readFile(path.join(root, '.fw/store', record.files[file]!.sha256));
      expect(sha(stored), file).toBe(record.files[file]!.sha256);
    }
    expect(existsSync(path.join(root, '.fw/.gitattributes'))).toBe(true);
  }, 180_000);
});
