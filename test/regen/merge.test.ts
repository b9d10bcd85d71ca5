import { describe, expect, it } from 'vitest';
import { hasConflictMarkers, MARKER_BASE, MARKER_OURS, MARKER_SEP, MARKER_THEIRS, mergeFile } from '../../generators/src/pipeline/merge.js';

const path = 'fluid/app.ts';

describe('mergeFile of a package.json', () => {
  const pkg = (deps: Record<string, string>, extra: Record<string, unknown> = {}): string =>
    `${JSON.stringify({ name: 'demo', scripts: { dev: 'fw run' }, ...extra, dependencies: deps }, null, 2)}\n`;
  const base = pkg({ '@fw/kernel': '^0.1.0' });

  it('merges two dependencies added after the same line by key (the comma is no overlap)', () => {
    const ours = pkg({ '@fw/kernel': '^0.1.0', zod: '4.1.0' });
    const theirs = pkg({ '@fw/kernel': '^0.1.0', 'typesafe-i18n': '5.27.1' });
    const r = mergeFile({ base, ours, theirs, path: 'package.json' });
    expect(r).toMatchObject({ kind: 'clean', conflicts: 0 });
    expect(r.text).toBe(pkg({ '@fw/kernel': '^0.1.0', 'typesafe-i18n': '5.27.1', zod: '4.1.0' }));
  });

  it('keeps the CRLF and the indentation of the file on disk, and a key the user removed stays removed', () => {
    const ours = pkg({ zod: '4.1.0' }).replace(/\n/g, '\r\n');
    const theirs = pkg({ '@fw/kernel': '^0.1.0', vite: '8.3.8' }, { workspaces: ['fluid/frontend'] });
    const r = mergeFile({ base, ours, theirs, path: 'package.json' });
    expect(r.kind).toBe('clean');
    // A key new in the render goes after the user's keys.
    const want = { name: 'demo', scripts: { dev: 'fw run' }, dependencies: { vite: '8.3.8', zod: '4.1.0' }, workspaces: ['fluid/frontend'] };
    expect(r.text).toBe(`${JSON.stringify(want, null, 2)}\n`.replace(/\n/g, '\r\n'));
  });

  it('still conflicts when both sides changed the same key, and leaves other JSON files to the line merge', () => {
    const ours = pkg({ '@fw/kernel': '^0.2.0' });
    const theirs = pkg({ '@fw/kernel': '^0.3.0' });
    expect(mergeFile({ base, ours, theirs, path: 'package.json' })).toMatchObject({ kind: 'conflict', conflicts: 1 });
    const added = { base, ours: pkg({ '@fw/kernel': '^0.1.0', zod: '4.1.0' }), theirs: pkg({ '@fw/kernel': '^0.1.0', vite: '8.3.8' }) };
    expect(mergeFile({ ...added, path: 'fluid/frontend/package.json' }).kind).toBe('clean');
    expect(mergeFile({ ...added, path: 'tsconfig.json' }).kind).toBe('conflict');
  });

  it('marks only the key both sides changed: the neighbouring script the render changed alone and a dependency the user added merge', () => {
    const scripts = (test: string, typecheck: string): Record<string, unknown> => ({ scripts: { dev: 'fw run', test, typecheck } });
    const base3 = pkg({ '@fw/kernel': '^0.1.0' }, scripts('vitest run', 'tsc --noEmit'));
    const ours = pkg({ '@fw/kernel': '^0.1.0', zod: '4.1.0' }, scripts('vitest run --coverage', 'tsc --noEmit'));
    const theirs = pkg({ '@fw/kernel': '^0.1.0' }, scripts('fw test', 'fw typecheck'));
    const r = mergeFile({ base: base3, ours, theirs, path: 'package.json' });
    expect(r).toMatchObject({ kind: 'conflict', conflicts: 1 });
    const region = (r.text ?? '').split(`${MARKER_OURS}\n`)[1]!.split(`${MARKER_THEIRS}\n`)[0]!;
    expect(region).toBe(
      [`    "test": "vitest run --coverage",`, MARKER_BASE, `    "test": "vitest run",`, MARKER_SEP, `    "test": "fw test",`, ''].join('\n'),
    );
    // Outside the region: the render's typecheck script and the user's dependency.
    expect(r.text).toContain('"typecheck": "fw typecheck"');
    expect(r.text).not.toContain('tsc --noEmit');
    expect(r.text).toContain('"zod": "4.1.0"');
    // Resolving the region the user's way leaves valid JSON with everything else merged.
    const resolved = (r.text ?? '').replace(/^<{7} [^\n]*\n([^\n]*\n)[\s\S]*?^>{7} [^\n]*\n/m, '$1');
    expect(JSON.parse(resolved)).toMatchObject({ scripts: { test: 'vitest run --coverage', typecheck: 'fw typecheck' }, dependencies: { zod: '4.1.0' } });
  });
});

describe('mergeFile', () => {
  it('merges non-overlapping edits cleanly', () => {
    const base = 'a\nb\nc\nd\ne\n';
    const ours = 'a\nB (mine)\nc\nd\ne\n';
    const theirs = 'a\nb\nc\nd\nE (generated)\n';
    const r = mergeFile({ base, ours, theirs, path });
    expect(r).toMatchObject({ kind: 'clean', conflicts: 0, binary: false });
    expect(r.text).toBe('a\nB (mine)\nc\nd\nE (generated)\n');
    expect(r.bytes.toString('utf8')).toBe(r.text);
  });

  it('takes identical changes on both sides without a conflict', () => {
    const r = mergeFile({ base: 'x\ny\n', ours: 'x\nz\n', theirs: 'x\nz\n', path });
    expect(r.kind).toBe('clean');
    expect(r.text).toBe('x\nz\n');
  });

  it('writes diff3-style markers for overlapping edits and counts each region', () => {
    const base = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';
    const ours = 'one\nTWO mine\nthree\nfour\nfive\nSIX mine\nseven\n';
    const theirs = 'one\nTWO gen\nthree\nfour\nfive\nSIX gen\nseven\n';
    const r = mergeFile({ base, ours, theirs, path });
    expect(r.kind).toBe('conflict');
    expect(r.conflicts).toBe(2);
    expect(r.text).toBe(
      [
        'one',
        MARKER_OURS, 'TWO mine', MARKER_BASE, 'two', MARKER_SEP, 'TWO gen', MARKER_THEIRS,
        'three', 'four', 'five',
        MARKER_OURS, 'SIX mine', MARKER_BASE, 'six', MARKER_SEP, 'SIX gen', MARKER_THEIRS,
        'seven', '',
      ].join('\n'),
    );
    expect(MARKER_OURS).toBe('<<<<<<< ours (your edit)');
    expect(MARKER_THEIRS).toBe('>>>>>>> theirs (new render)');
    expect(hasConflictMarkers(r.text ?? '')).toBe(true);
  });

  it('merges CRLF files as lines and keeps the CRLF endings of the file on disk', () => {
    const base = 'a\nb\nc\nd\n';
    const ours = 'a\r\nb mine\r\nc\r\nd\r\n';
    const theirs = 'a\nb\nc\nd gen\n';
    const r = mergeFile({ base, ours, theirs, path });
    expect(r.kind).toBe('clean');
    expect(r.text).toBe('a\r\nb mine\r\nc\r\nd gen\r\n');
  });

  it('writes conflict markers with CRLF in a CRLF file', () => {
    const r = mergeFile({ base: 'a\nb\n', ours: 'a\r\nmine\r\n', theirs: 'a\ngen\n', path });
    expect(r.kind).toBe('conflict');
    expect(r.text).toBe(`a\r\n${MARKER_OURS}\r\nmine\r\n${MARKER_BASE}\r\nb\r\n${MARKER_SEP}\r\ngen\r\n${MARKER_THEIRS}\r\n`);
  });

  it('treats a missing final newline as its own change, never as a conflict', () => {
    // The user removed the final newline and edited line 1; the generator edited line 3.
    const r1 = mergeFile({ base: 'a\nb\nc\n', ours: 'A\nb\nc', theirs: 'a\nb\nC\n', path });
    expect(r1).toMatchObject({ kind: 'clean', text: 'A\nb\nC' });
    // The generator dropped the final newline; the user edited the first line.
    const r2 = mergeFile({ base: 'a\nb\nc\n', ours: 'A\nb\nc\n', theirs: 'a\nb\nc', path });
    expect(r2).toMatchObject({ kind: 'clean', text: 'A\nb\nc' });
    // Appending to a file without a final newline on one side while the other edits elsewhere.
    const r3 = mergeFile({ base: 'a\nb\nc', ours: 'a\nb\nc\nd', theirs: 'A\nb\nc', path });
    expect(r3).toMatchObject({ kind: 'clean', text: 'A\nb\nc\nd' });
  });

  it('ends a file whose last region is a conflict with a newline', () => {
    const r = mergeFile({ base: 'a\nb', ours: 'a\nmine', theirs: 'a\ngen', path });
    expect(r.kind).toBe('conflict');
    expect(r.text?.endsWith(`${MARKER_THEIRS}\n`)).toBe(true);
  });

  it('merges empty files and files that become empty', () => {
    expect(mergeFile({ base: '', ours: '', theirs: 'new\n', path }).text).toBe('new\n');
    expect(mergeFile({ base: 'a\n', ours: 'a\n', theirs: '', path }).text).toBe('');
  });

  it('never merges binary files: yours stays when both sides changed it', () => {
    const base = Buffer.from([0x89, 0x50, 0x00, 0x01]);
    const ours = Buffer.from([0x89, 0x50, 0x00, 0x02]);
    const theirs = Buffer.from([0x89, 0x50, 0x00, 0x03]);
    const r = mergeFile({ base, ours, theirs, path: 'static/logo.png' });
    expect(r).toMatchObject({ kind: 'conflict', conflicts: 1, binary: true, text: undefined });
    expect(r.bytes.equals(ours)).toBe(true);
    expect(mergeFile({ base, ours: base, theirs, path }).bytes.equals(theirs)).toBe(true);
    expect(mergeFile({ base, ours, theirs: base, path }).bytes.equals(ours)).toBe(true);
  });

  it('treats invalid UTF-8 as binary', () => {
    const r = mergeFile({ base: Buffer.from([0xff, 0x0a]), ours: Buffer.from([0xfe, 0x0a]), theirs: Buffer.from([0xfd, 0x0a]), path });
    expect(r).toMatchObject({ kind: 'conflict', binary: true });
  });
});
