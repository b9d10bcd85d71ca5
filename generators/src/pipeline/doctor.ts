import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { APPLYING_FILE } from './apply.js';
import { writeFileAtomic } from './atomic.js';
import { emptiedFolders, removeFolders } from './folders.js';
import { sha256 } from './hash.js';
import { findEngineLeftovers, findTempLeftovers, interruptedFolders, removeEngineLeftovers } from './leftovers.js';
import { acquireLock, lockStatus, LOCK_FILE } from './lock.js';
import { normalizeProjectPath } from './paths.js';
import {
  ensureGitattributes,
  GITATTRIBUTES_FILE,
  readRecord,
  readStored,
  RECORD_FILE,
  STORE_DIR,
  writeRecord,
  type GenerationRecord,
  type RecordEntry,
} from './record.js';

/**
 * The checks behind `fw doctor`: what a killed or interrupted run can leave in a project, and
 * whether the generation record still describes a usable store. `examine` only reads; `repair`
 * takes the project lock (a stale one is taken over) and fixes what it can.
 */

/**
 * The kinds of finding `fw doctor` knows. A killed run's leftovers are `temp-file`, `orphan-copy`
 * and `interrupted-run`; while the run holding `.fw/lock` is still going, the same files are its
 * work in flight and are reported as `in-flight-temp-file`, `in-flight-copy` and `run-in-progress`
 * (not fixable: that run renames, records or removes them).
 */
export type FindingKind =
  | 'temp-file'
  | 'orphan-copy'
  | 'missing-copy'
  | 'corrupt-copy'
  | 'bad-path'
  | 'stale-lock'
  | 'held-lock'
  | 'interrupted-run'
  | 'gitattributes'
  // The work in flight of the run holding `.fw/lock` while it is still going (never fixable):
  | 'in-flight-temp-file'
  | 'in-flight-copy'
  | 'run-in-progress';

/** One problem found. */
export interface Finding {
  kind: FindingKind;
  /** The project-relative path it is about. */
  path: string;
  /** What is wrong, in one line. */
  detail: string;
  /** Whether `fw doctor --fix` repairs it (when not, `detail` says what to do). */
  fixable: boolean;
}

/** The outcome of {@link repair}. */
export interface Repair {
  /** What was found before fixing. */
  found: Finding[];
  /** What is still wrong afterwards. */
  remaining: Finding[];
}

/** A stored copy's problem, or none. */
async function copyProblem(root: string, file: string, entry: RecordEntry): Promise<Finding | undefined> {
  const blob = `${STORE_DIR}/${entry.sha256}`;
  if (!existsSync(path.join(root, blob))) {
    const restorable = (await restorableBytes(root, file, entry)) !== undefined;
    return {
      kind: 'missing-copy',
      path: blob,
      detail: `the stored copy of ${file} is missing${restorable ? '; the file still has exactly those bytes, so it can be restored' : '; fw generate will show the file as edited where it differs from the render'}`,
      fixable: restorable,
    };
  }
  try {
    await readStored(root, entry.sha256);
    return undefined;
  } catch {
    const restorable = (await restorableBytes(root, file, entry)) !== undefined;
    return {
      kind: 'corrupt-copy',
      path: blob,
      detail: `the stored copy of ${file} does not hash to its name${restorable ? '; it can be restored from the file' : '; --fix removes it, and fw generate will show the file as edited where it differs from the render'}`,
      fixable: true,
    };
  }
}

/** The bytes the record holds for `file`, read from the file itself when it still has them. */
async function restorableBytes(root: string, file: string, entry: RecordEntry): Promise<Buffer | undefined> {
  let disk: Buffer;
  try {
    disk = await readFile(path.join(root, file));
  } catch {
    return undefined;
  }
  if (sha256(disk) === entry.sha256) return disk;
  if (entry.eol === 'lf' && disk.includes('\r\n')) {
    const lf = Buffer.from(disk.toString('latin1').replace(/\r\n/g, '\n'), 'latin1'); // a CRLF checkout of an LF file
    if (sha256(lf) === entry.sha256) return lf;
  }
  return undefined;
}

function badPath(file: string): string | undefined {
  try {
    return normalizeProjectPath(file) === file ? undefined : 'it is not in normal form';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Everything wrong with the record, the store and the engine's files (reads only). With `running`
 * (who holds `.fw/lock` and is still going, in words), temp files, unrecorded stored copies and the
 * applying marker are that run's work in flight, not a killed run's leftovers: they are reported as
 * its own, and not fixable (that run renames, records or removes them).
 */
async function examineRecord(root: string, record: GenerationRecord | undefined, running?: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  const files = Object.entries(record?.files ?? {});
  for (const [file] of files) {
    const why = badPath(file);
    if (why) findings.push({ kind: 'bad-path', path: RECORD_FILE, detail: `entry ${JSON.stringify(file)} names no project file (${why}); --fix drops it`, fixable: true });
  }
  for (const [file, entry] of files) {
    if (badPath(file)) continue;
    const problem = await copyProblem(root, file, entry);
    if (problem) findings.push(problem);
  }
  const engine = await findEngineLeftovers(root, record);
  const ours = running === undefined ? undefined : `the run holding ${LOCK_FILE} (${running}), which is still going`;
  const wait = 'wait for it to finish, then run fw doctor again';
  const temp = (where: string): string => (ours ? `a temp file${where}, written by ${ours}: not a leftover; ${wait}` : `a temp file a killed run left${where}`);
  const tempKind = ours ? 'in-flight-temp-file' : 'temp-file';
  for (const file of engine.temps) findings.push({ kind: tempKind, path: file, detail: temp(''), fixable: !ours });
  for (const orphan of engine.orphans) {
    const detail = ours ? `a stored copy not recorded yet, written by ${ours}: not a leftover; ${wait}` : 'a stored copy no record entry refers to';
    findings.push({ kind: ours ? 'in-flight-copy' : 'orphan-copy', path: orphan, detail, fixable: !ours });
  }
  for (const file of findTempLeftovers(root, files.filter(([file]) => !badPath(file)).map(([file]) => file))) {
    findings.push({ kind: tempKind, path: file, detail: temp(' next to a generated file'), fixable: !ours });
  }
  if (existsSync(path.join(root, APPLYING_FILE))) {
    const detail = ours
      ? `set by ${ours}: no run was interrupted; ${wait}`
      : `a run was interrupted while writing (its temp files are listed); --fix clears the marker${leftFolders(root)}`;
    findings.push({ kind: ours ? 'run-in-progress' : 'interrupted-run', path: APPLYING_FILE, detail, fixable: !ours });
  }
  if (record && !existsSync(path.join(root, GITATTRIBUTES_FILE))) {
    findings.push({ kind: 'gitattributes', path: GITATTRIBUTES_FILE, detail: 'missing: git may change the stored copies\' line endings on checkout', fixable: true });
  }
  return findings;
}

/** The folders an interrupted run's deletions emptied and it did not remove yet (see `emptiedFolders`). */
function interruptedEmptied(root: string): string[] {
  return emptiedFolders(root, [], { pending: interruptedFolders(root) });
}

/** The end of the `interrupted-run` finding: the folders `--fix` removes with the marker, if any. */
function leftFolders(root: string): string {
  const folders = interruptedEmptied(root);
  return folders.length === 0 ? '' : ` and removes the folders its deletions emptied: ${folders.map((f) => `${f}/`).join(', ')}`;
}

/** The lock's finding, and who holds it when that process is still going (see {@link examineRecord}). */
async function examineLock(root: string): Promise<{ findings: Finding[]; running?: string }> {
  const lock = await lockStatus(root);
  if (!lock) return { findings: [] };
  const who = lock.holder ? `pid ${lock.holder.pid} on ${lock.holder.host}, "${lock.holder.command}", since ${lock.holder.since}` : 'a process that never wrote its name';
  if (lock.stale) return { findings: [{ kind: 'stale-lock', path: LOCK_FILE, detail: `held by ${who}, which is gone; --fix takes it over`, fixable: true }] };
  const running = lock.holder ? `pid ${lock.holder.pid}, "${lock.holder.command}"` : 'a process that never wrote its name';
  return {
    findings: [{ kind: 'held-lock', path: LOCK_FILE, detail: `held by ${who}, which is running: wait for it to finish (fw doctor --fix waits for no one)`, fixable: false }],
    running,
  };
}

/**
 * Examines `root`: the lock, the record (a record that cannot be read throws `RecordError`),
 * every entry's stored copy, temp files and orphan copies, an interrupted run's marker and
 * `.fw/.gitattributes`. While the lock's holder is still going, its temp files, unrecorded copies
 * and marker are reported as that run's own, not as leftovers. Writes nothing.
 */
export async function examine(root: string): Promise<Finding[]> {
  const lock = await examineLock(root);
  return [...lock.findings, ...(await examineRecord(root, await readRecord(root), lock.running))];
}

/**
 * Repairs `root` under the project lock (a stale lock is taken over; a live holder is a
 * `CliError`): drops record entries with bad paths, restores stored copies from files that still
 * have their bytes (removing corrupt ones), removes temp files and orphan copies, clears an
 * interrupted run's marker (removing the folders its deletions emptied, which the marker names)
 * and writes `.fw/.gitattributes`.
 */
export async function repair(root: string, command: string): Promise<Repair> {
  const lockFindings = (await examineLock(root)).findings;
  const release = await acquireLock(root, command);
  try {
    const record = await readRecord(root);
    const found = [...lockFindings, ...(await examineRecord(root, record))];
    if (record) {
      let changed = false;
      for (const file of Object.keys(record.files)) {
        if (badPath(file)) {
          delete record.files[file];
          changed = true;
        }
      }
      if (changed) await writeRecord(root, record);
      for (const [file, entry] of Object.entries(record.files)) {
        const problem = await copyProblem(root, file, entry);
        if (!problem) continue;
        if (problem.kind === 'corrupt-copy') await rm(path.join(root, problem.path), { force: true });
        const bytes = await restorableBytes(root, file, entry);
        if (bytes) await writeFileAtomic(path.join(root, problem.path), bytes, 0o644, problem.path);
      }
      await ensureGitattributes(root);
    }
    await removeEngineLeftovers(root, record);
    const temps = findTempLeftovers(root, Object.keys(record?.files ?? {}));
    await Promise.all(temps.map((temp) => rm(path.join(root, temp), { force: true })));
    await removeFolders(root, interruptedEmptied(root));
    await rm(path.join(root, APPLYING_FILE), { force: true });
    return { found, remaining: await examineRecord(root, record) };
  } finally {
    await release();
  }
}
