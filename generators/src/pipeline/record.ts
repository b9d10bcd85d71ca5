import { readFileSync } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from './atomic.js';
import { sha256 } from './hash.js';
import { mapLimit } from './pool.js';

/** Folder of the generation record, relative to the project root. */
export const RECORD_DIR = '.fw';
/** The record file, relative to the project root. */
export const RECORD_FILE = '.fw/record.json';
/** The content store folder, relative to the project root: `.fw/store/<sha256>`. */
export const STORE_DIR = '.fw/store';

/** What the record keeps about one generated file. */
export interface RecordEntry {
  /** SHA-256 (hex) of the bytes last written; the bytes are in `.fw/store/<sha256>`. */
  sha256: string;
  /** The generator or blueprint that wrote it. */
  generator: string;
  /** File mode as four octal digits, e.g. "0644" or "0755". */
  mode: string;
  /** Line endings of the bytes written. */
  eol: 'lf' | 'crlf';
}

/** `.fw/record.json`: what the generators last wrote, the base of three-way regeneration. */
export interface GenerationRecord {
  version: 1;
  /** Version of fw that last wrote the record. */
  generator: string;
  /** Project-relative POSIX path → entry, keys sorted. */
  files: Record<string, RecordEntry>;
}

/** Thrown when `.fw/record.json` cannot be read or has the wrong shape. */
export class RecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecordError';
  }
}

/** Formats a numeric mode for the record ("0644"). */
export function formatMode(mode: number): string {
  return (mode & 0o777).toString(8).padStart(4, '0');
}

/** Parses a record mode ("0755") back to a number. */
export function parseMode(mode: string): number {
  return Number.parseInt(mode, 8);
}

/** "crlf" if the bytes contain a CRLF line ending, otherwise "lf". */
export function detectEol(content: Buffer): 'lf' | 'crlf' {
  return content.includes('\r\n') ? 'crlf' : 'lf';
}

function isEntry(value: unknown): value is RecordEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.sha256 === 'string' && /^[0-9a-f]{64}$/.test(entry.sha256) &&
    typeof entry.generator === 'string' &&
    typeof entry.mode === 'string' && /^[0-7]{4}$/.test(entry.mode) &&
    (entry.eol === 'lf' || entry.eol === 'crlf')
  );
}

/** Reads `.fw/record.json`; `undefined` when the project has none yet. Errors name the file and key. */
export async function readRecord(projectRoot: string): Promise<GenerationRecord | undefined> {
  const file = path.join(projectRoot, RECORD_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new RecordError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  const record = data as Partial<GenerationRecord> | null;
  if (record?.version !== 1) throw new RecordError(`${file}: "version" must be 1, got ${JSON.stringify(record?.version)}`);
  if (typeof record.generator !== 'string') throw new RecordError(`${file}: "generator" must be a string`);
  if (typeof record.files !== 'object' || record.files === null) throw new RecordError(`${file}: "files" must be an object`);
  for (const [key, entry] of Object.entries(record.files)) {
    if (!isEntry(entry)) {
      throw new RecordError(`${file}: "files.${key}" must be { sha256, generator, mode: "0644", eol: "lf" | "crlf" }`);
    }
  }
  return record as GenerationRecord;
}

/**
 * `.fw/.gitattributes`: git must check the store out byte for byte (no `core.autocrlf`
 * conversion), or the blobs would no longer hash to their names on another machine.
 */
export const GITATTRIBUTES_FILE = '.fw/.gitattributes';
const GITATTRIBUTES = '# Written by fw: the content store must keep its exact bytes in every checkout.\nstore/** -text -diff\n';

/**
 * The exact bytes of a blob as written, given the bytes read from `.fw/store/<hash>`. A blob
 * checked out with CRLF line endings by git (`core.autocrlf`, in a clone made before
 * `.fw/.gitattributes` existed) is read back as the LF bytes it was, when those hash to its name.
 */
function verified(content: Buffer, hash: string): Buffer {
  if (sha256(content) === hash) return content;
  if (content.includes('\r\n')) {
    const lf = Buffer.from(content.toString('latin1').replace(/\r\n/g, '\n'), 'latin1');
    if (sha256(lf) === hash) return lf;
  }
  throw new RecordError(`${STORE_DIR}/${hash} is corrupt: its bytes do not hash to its name`);
}

/** The exact bytes last written for an entry, from the content store (see {@link Store}). */
export async function readStored(projectRoot: string, hash: string): Promise<Buffer> {
  return verified(await readFile(path.join(projectRoot, STORE_DIR, hash)), hash);
}

/**
 * The content store of one run: blobs are read synchronously (a planner reads thousands of small
 * files; synchronous reads are about twice as fast here) and kept for the run, so a blob asked
 * for twice (the base of a path and a cached formatted render) is read once.
 */
export class Store {
  readonly #dir: string;
  readonly #blobs = new Map<string, Buffer | undefined>();

  constructor(projectRoot: string) {
    this.#dir = path.join(projectRoot, STORE_DIR);
  }

  /** The blob named `hash`, or `undefined` when it is missing or corrupt. */
  read(hash: string): Buffer | undefined {
    if (this.#blobs.has(hash)) return this.#blobs.get(hash);
    let blob: Buffer | undefined;
    try {
      blob = verified(readFileSync(path.join(this.#dir, hash)), hash);
    } catch {
      blob = undefined;
    }
    this.#blobs.set(hash, blob);
    return blob;
  }
}

/** A file just written, as the record needs it. */
export interface WrittenFile {
  path: string;
  content: Buffer;
  generator: string;
  mode: number;
}

/** Serialises a record with sorted keys and a trailing newline (stable diffs in git). */
export function serializeRecord(record: GenerationRecord): string {
  const files: Record<string, RecordEntry> = {};
  for (const key of Object.keys(record.files).sort(compareText)) {
    const entry = record.files[key]!;
    files[key] = { sha256: entry.sha256, generator: entry.generator, mode: entry.mode, eol: entry.eol };
  }
  return `${JSON.stringify({ version: 1, generator: record.generator, files }, null, 2)}\n`;
}

/**
 * Updates the record for what was actually written and deleted: stores the written bytes in the
 * content store, drops the entries of `deleted` (files removed, or written without a record) and
 * rewrites `.fw/record.json` atomically. Does nothing when both lists are empty. The store blobs
 * no entry refers to any more are the apply step's to collect (`removeEngineLeftovers`).
 */
export async function updateRecord(
  projectRoot: string,
  generatorVersion: string,
  written: readonly WrittenFile[],
  deleted: readonly string[],
): Promise<GenerationRecord | undefined> {
  if (written.length === 0 && deleted.length === 0) return undefined;
  const previous = await readRecord(projectRoot);
  const record: GenerationRecord = { version: 1, generator: generatorVersion, files: { ...previous?.files } };
  await mapLimit(written, 16, async (file) => {
    const hash = sha256(file.content);
    const blob = path.join(projectRoot, STORE_DIR, hash);
    if (!(await exists(blob))) await writeFileAtomic(blob, file.content, 0o644, `${STORE_DIR}/${hash}`, 'store-write');
  });
  for (const file of written) {
    record.files[file.path] = { sha256: sha256(file.content), generator: file.generator, mode: formatMode(file.mode), eol: detectEol(file.content) };
  }
  for (const file of deleted) delete record.files[file];
  await writeRecord(projectRoot, record);
  await ensureGitattributes(projectRoot);
  return record;
}

/** Writes `.fw/record.json` atomically (sorted keys, see {@link serializeRecord}). */
export async function writeRecord(projectRoot: string, record: GenerationRecord): Promise<void> {
  await writeFileAtomic(path.join(projectRoot, RECORD_FILE), Buffer.from(serializeRecord(record)), 0o644, RECORD_FILE, 'record-write');
}

/** Writes `.fw/.gitattributes` when it is missing; answers whether it wrote it. */
export async function ensureGitattributes(projectRoot: string): Promise<boolean> {
  const attributes = path.join(projectRoot, GITATTRIBUTES_FILE);
  if (await exists(attributes)) return false;
  await writeFileAtomic(attributes, Buffer.from(GITATTRIBUTES), 0o644, GITATTRIBUTES_FILE);
  return true;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** Plain code-unit comparison, so ordering never depends on the locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
