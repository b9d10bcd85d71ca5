import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pausePoint } from './pause.js';

/** Marker in the name of the engine's temporary files: `<file>.fw-tmp-<random>`. */
export const TEMP_MARKER = '.fw-tmp-';

/**
 * Writes `content` to `absolute` atomically: a temp file in the same directory is written,
 * given `mode`, fsynced and renamed over the target, so a reader (or a crash) sees either the
 * old file or the new one, never a half-written one. Missing directories are created. On failure
 * the temp file is removed, the old file is untouched, and the error names `label`. `point`
 * names the moment between the sync and the rename for the kill trials (see `pausePoint`).
 */
export async function writeFileAtomic(absolute: string, content: Uint8Array, mode: number, label: string, point?: string): Promise<void> {
  const temp = `${absolute}${TEMP_MARKER}${randomBytes(6).toString('hex')}`;
  try {
    await mkdir(path.dirname(absolute), { recursive: true });
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(content);
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    pausePoint(point);
    await rename(temp, absolute);
  } catch (error) {
    await rm(temp, { force: true });
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Could not write ${label}: ${reason}`, { cause: error });
  }
}
