/**
 * The development outbox: every message becomes one `.eml` file a developer can open in any mail
 * client or read as text.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Writes `raw` into `dir` as `<timestamp>-<message id>.eml`, atomically (a temporary file in the
 * same folder, then a rename), and returns the file path.
 */
export async function writeEml(dir: string, messageId: string, raw: Buffer, now = new Date()): Promise<string> {
  await mkdir(dir, { recursive: true });
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('.', '-');
  const id = messageId.replace(/^<|>$/g, '').replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120);
  const file = join(dir, `${stamp}-${id}.eml`);
  const temp = join(dir, `.${stamp}-${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, raw, { mode: 0o600 });
    await rename(temp, file);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  return file;
}
