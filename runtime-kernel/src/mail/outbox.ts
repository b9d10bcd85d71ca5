/**
 * The development outbox: every message becomes one `.eml` file a developer can open in any mail
 * client or read as text.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A folder of `.eml` files, created on first use (and again if it is removed). */
export class Outbox {
  /** The absolute folder. */
  readonly dir: string;
  #made = false;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** Creates the folder if needed. */
  async ensure(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    this.#made = true;
  }

  /**
   * Writes `raw` as `<timestamp>-<message id>.eml`, atomically (a temporary file in the same
   * folder, then a rename), and returns the file path.
   */
  async write(messageId: string, raw: Buffer, now = new Date()): Promise<string> {
    if (!this.#made) await this.ensure();
    const stamp = now.toISOString().replace(/[-:]/g, '').replace('.', '-');
    const id = messageId.replace(/^<|>$/g, '').replace(/[^A-Za-z0-9._@-]+/g, '_').slice(0, 120);
    const file = join(this.dir, `${stamp}-${id}.eml`);
    const temp = join(this.dir, `.${stamp}-${randomBytes(6).toString('hex')}.tmp`);
    try {
      await writeFile(temp, raw, { mode: 0o600 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await this.ensure(); // the folder was removed while the app ran
      await writeFile(temp, raw, { mode: 0o600 });
    }
    try {
      await rename(temp, file);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    return file;
  }
}
