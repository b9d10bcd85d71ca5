import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Every file, directory and symlink under `root` → its sha256 (files), `dir`, or `link:<target>`.
 * Two equal maps mean byte-identical trees.
 */
export async function treeOf(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(join(root, rel)).catch(() => [] as string[]);
    for (const entry of entries.sort()) {
      const path = rel === '' ? entry : `${rel}/${entry}`;
      const full = join(root, path);
      const stat = await lstat(full);
      if (stat.isSymbolicLink()) out.set(path, `link:${await readlink(full)}`);
      else if (stat.isDirectory()) {
        out.set(path, 'dir');
        await walk(path);
      } else out.set(path, createHash('sha256').update(await readFile(full)).digest('hex'));
    }
  };
  await walk('');
  return out;
}
