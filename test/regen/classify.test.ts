import { describe, expect, it } from 'vitest';
import { classify, type ClassifyInput } from '../../generators/src/pipeline/classify.js';
import { MARKER_OURS } from '../../generators/src/pipeline/merge.js';

const b = (s: string): Buffer => Buffer.from(s, 'utf8');
const input = (over: Partial<ClassifyInput>): ClassifyInput => ({
  path: 'src/x.ts',
  recorded: true,
  base: b('a\nb\nc\nd\ne\n'),
  disk: b('a\nb\nc\nd\ne\n'),
  theirs: b('a\nb\nc\nd\ne\n'),
  ...over,
});
const text = (buf: Buffer | undefined): string | undefined => buf?.toString('utf8');
const recorded = (c: ReturnType<typeof classify>): string | undefined => (c.record.op === 'set' ? text(c.record.bytes) : c.record.op);

describe('classify', () => {
  it('create: new file, nothing on disk', () => {
    const c = classify(input({ recorded: false, base: undefined, disk: undefined, theirs: b('new\n') }));
    expect(c).toMatchObject({ action: 'create', remove: false, conflicts: 0 });
    expect(text(c.write)).toBe('new\n');
    expect(recorded(c)).toBe('new\n');
  });

  it('update: the user never touched it, so the new render is taken silently', () => {
    const c = classify(input({ theirs: b('a\nb\nC\nd\ne\n') }));
    expect(c.action).toBe('update');
    expect(text(c.write)).toBe('a\nb\nC\nd\ne\n');
    expect(recorded(c)).toBe('a\nb\nC\nd\ne\n');
  });

  it('update keeps CRLF when the checkout converted the untouched file to CRLF', () => {
    const c = classify(input({ disk: b('a\r\nb\r\nc\r\nd\r\ne\r\n'), theirs: b('a\nb\nC\nd\ne\n') }));
    expect(c.action).toBe('update');
    expect(text(c.write)).toBe('a\r\nb\r\nC\r\nd\r\ne\r\n');
    expect(recorded(c)).toBe('a\nb\nC\nd\ne\n');
  });

  it('merge: the user edited it and the changes do not overlap', () => {
    const c = classify(input({ disk: b('A mine\nb\nc\nd\ne\n'), theirs: b('a\nb\nc\nd\nE gen\n') }));
    expect(c.action).toBe('merge');
    expect(text(c.write)).toBe('A mine\nb\nc\nd\nE gen\n');
    // The base of the next run is the render, not the merged text.
    expect(recorded(c)).toBe('a\nb\nc\nd\nE gen\n');
  });

  it('conflict: overlapping edits get markers and are counted', () => {
    const c = classify(input({ disk: b('a\nb\nmine\nd\ne\n'), theirs: b('a\nb\ngen\nd\ne\n') }));
    expect(c).toMatchObject({ action: 'conflict', conflicts: 1, unresolved: false });
    expect(text(c.write)).toContain(MARKER_OURS);
    expect(recorded(c)).toBe('a\nb\ngen\nd\ne\n');
  });

  it('conflict (binary): yours is kept and the render goes to a .fw-new sibling', () => {
    const c = classify(input({ base: Buffer.from([0, 1]), disk: Buffer.from([0, 2]), theirs: Buffer.from([0, 3]) }));
    expect(c).toMatchObject({ action: 'conflict', conflicts: 1 });
    expect(c.sidecar?.equals(Buffer.from([0, 3]))).toBe(true);
    expect(c.reason).toContain('src/x.ts.fw-new');
    expect(c.write).toBeUndefined();
  });

  it('unchanged: the render equals the base (user edits stay)', () => {
    const c = classify(input({ disk: b('mine\n') }));
    expect(c).toMatchObject({ action: 'unchanged', record: { op: 'keep' } });
    expect(c.write).toBeUndefined();
  });

  it('unchanged: the disk already equals the new render, which becomes the base', () => {
    const c = classify(input({ disk: b('new\n'), theirs: b('new\n') }));
    expect(c.action).toBe('unchanged');
    expect(recorded(c)).toBe('new\n');
  });

  it('unchanged: the merge result equals the disk', () => {
    // The user already made the generator's change and one of their own.
    const c = classify(input({ disk: b('a\nB\nc\nd\nE\n'), theirs: b('a\nb\nc\nd\nE\n') }));
    expect(c.action).toBe('unchanged');
    expect(c.write).toBeUndefined();
  });

  it('unchanged but flagged when the file still holds conflict markers of an earlier run', () => {
    const c = classify(input({ disk: b(`a\n${MARKER_OURS}\nx\n`) }));
    expect(c).toMatchObject({ action: 'unchanged', unresolved: true });
  });

  it('conflict without a write when the file still holds markers and would conflict again (no nested markers)', () => {
    const disk = b(`a\nb\n${MARKER_OURS}\nmine\n=======\nold gen\n>>>>>>> theirs (new render)\nd\ne\n`);
    const c = classify(input({ disk, theirs: b('a\nb\nnewer gen\nd\ne\n') }));
    expect(c).toMatchObject({ action: 'conflict', conflicts: 1, record: { op: 'keep' } });
    expect(c.write).toBeUndefined();
    expect(c.reason).toContain('resolve those first');
  });

  it('skip-deleted: recorded, deleted by the user, still generated: stays deleted, entry kept', () => {
    const c = classify(input({ disk: undefined, theirs: b('changed\n') }));
    expect(c).toMatchObject({ action: 'skip-deleted', record: { op: 'keep' } });
    expect(c.write).toBeUndefined();
  });

  it('skip-deleted: no longer generated and already deleted: entry dropped', () => {
    const c = classify(input({ disk: undefined, theirs: undefined }));
    expect(c).toMatchObject({ action: 'skip-deleted', remove: false, record: { op: 'drop' } });
  });

  it('delete: no longer generated and never edited', () => {
    const c = classify(input({ theirs: undefined }));
    expect(c).toMatchObject({ action: 'delete', remove: true, record: { op: 'drop' } });
  });

  it('keep-edited: no longer generated but edited by the user', () => {
    const c = classify(input({ disk: b('mine\n'), theirs: undefined }));
    expect(c).toMatchObject({ action: 'keep-edited', remove: false, record: { op: 'drop' } });
    expect(c.write).toBeUndefined();
  });

  it('keep-edited: no longer generated and its base is missing from the store', () => {
    const c = classify(input({ base: undefined, theirs: undefined }));
    expect(c.action).toBe('keep-edited');
    expect(c.reason).toContain('.fw/store');
  });

  it('adopt: not recorded but an identical file exists', () => {
    const c = classify(input({ recorded: false, base: undefined, disk: b('x\r\n'), theirs: b('x\n') }));
    expect(c).toMatchObject({ action: 'adopt' });
    expect(recorded(c)).toBe('x\n');
    expect(c.write).toBeUndefined();
  });

  it('conflict-untracked: not recorded and a different file is in the way', () => {
    const c = classify(input({ recorded: false, base: undefined, disk: b('theirs is not mine\n'), theirs: b('gen\n') }));
    expect(c).toMatchObject({ action: 'conflict-untracked', conflicts: 1, record: { op: 'set' } });
    // The render is the next base, so the file the user keeps is then their edit of it.
    expect(c.record.op === 'set' && text(c.record.bytes)).toBe('gen\n');
    expect(text(c.sidecar)).toBe('gen\n');
    expect(c.write).toBeUndefined();
  });
});
