import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { CliError } from '../cli/errors.js';

/** The lock file, relative to the project root. */
export const LOCK_FILE = '.fw/lock';

/** What a lock file holds: who took it. */
export interface LockHolder {
  pid: number;
  host: string;
  command: string;
  since: string;
}

/** A lock file that is still empty after this long was left by a process killed while taking it. */
const EMPTY_STALE_MS = 5_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readHolder(file: string): Promise<LockHolder | undefined> {
  try {
    const holder = JSON.parse(await readFile(file, 'utf8')) as Partial<LockHolder>;
    if (typeof holder.pid === 'number' && typeof holder.host === 'string') {
      return { pid: holder.pid, host: holder.host, command: String(holder.command ?? 'fw'), since: String(holder.since ?? '') };
    }
  } catch {
    // unreadable or half-written: judged by age below
  }
  return undefined;
}

/** Whether the lock at `file` was left behind by a process that is gone. */
async function isStale(file: string): Promise<boolean> {
  const holder = await readHolder(file);
  if (holder) return holder.host === hostname() && !alive(holder.pid);
  try {
    return Date.now() - (await stat(file)).mtimeMs > EMPTY_STALE_MS;
  } catch {
    return true;
  }
}

/** Who holds the project's lock, and whether that process is gone (`fw doctor` reports it). */
export interface LockStatus {
  /** The holder, when the file names one (a lock being taken may still be empty). */
  holder: LockHolder | undefined;
  /** True when its process is gone (same host, pid not running), or it stayed empty too long. */
  stale: boolean;
}

/** The state of `.fw/lock`; `undefined` when no lock is held. */
export async function lockStatus(projectRoot: string): Promise<LockStatus | undefined> {
  const file = path.join(projectRoot, LOCK_FILE);
  try {
    await stat(file);
  } catch {
    return undefined;
  }
  return { holder: await readHolder(file), stale: await isStale(file) };
}

/**
 * Takes the project's generator lock, `.fw/lock` (created with `open(..., 'wx')`, holding the pid,
 * host, command and start time). A lock whose process is gone (same host, pid not running) is
 * stale and taken over. Another live holder is a {@link CliError} naming its pid and command.
 * Returns the release function (removes the file if it is still ours).
 */
export async function acquireLock(projectRoot: string, command: string): Promise<() => Promise<void>> {
  const file = path.join(projectRoot, LOCK_FILE);
  await mkdir(path.dirname(file), { recursive: true });
  const mine: LockHolder = { pid: process.pid, host: hostname(), command, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o644);
      try {
        await handle.writeFile(`${JSON.stringify(mine)}\n`);
      } finally {
        await handle.close();
      }
      return async () => {
        const holder = await readHolder(file);
        if (holder?.pid === mine.pid && holder.since === mine.since) await rm(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (await isStale(file)) {
        await rm(file, { force: true });
        continue;
      }
      const holder = await readHolder(file);
      const who = holder ? `pid ${holder.pid} on ${holder.host}, "${holder.command}", since ${holder.since}` : 'a process that is starting';
      throw new CliError(
        `another fw command is writing this project (${who}): ${file} is held. ` +
          'Wait for it to finish; if that process is gone, delete the lock file.',
      );
    }
  }
  throw new CliError(`could not take the lock ${file}: it keeps reappearing; another fw command is starting in this project.`);
}

/** Runs `fn` holding the project's generator lock (see {@link acquireLock}); releases it afterwards. */
export async function withProjectLock<T>(projectRoot: string, command: string, fn: () => Promise<T>): Promise<T> {
  const release = await acquireLock(projectRoot, command);
  try {
    return await fn();
  } finally {
    await release();
  }
}
