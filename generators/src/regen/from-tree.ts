import path from 'node:path';
import type { FileTree, WriteEntry } from '../engine/file-tree.js';
import { formatFile } from '../engine/format.js';
import type { RenderedFile } from './regenerate.js';

/** A {@link FileTree} split for regeneration. */
export interface TreeRender {
  /** Recorded writes, formatted as the engine formats them: the `rendered` input of `planRegeneration`. */
  rendered: Map<string, RenderedFile>;
  /**
   * Writes the record must never keep (`record: false`, e.g. `app_configs/*.ini` with secrets):
   * not merged; the command plans them with the engine's two-way `plan` as before.
   */
  unrecorded: WriteEntry[];
}

/**
 * Turns the in-memory tree a generator rendered into the `rendered` map of
 * `planRegeneration`: every recorded write, prettier-formatted exactly as the engine's `plan`
 * formats it, with its mode and generator. Explicit deletes in the tree are dropped: in
 * regeneration a file the config no longer produces is simply absent from the render.
 */
export async function renderedFromTree(tree: FileTree, projectRoot: string): Promise<TreeRender> {
  const root = path.resolve(projectRoot);
  const rendered = new Map<string, RenderedFile>();
  const unrecorded: WriteEntry[] = [];
  for (const entry of tree.entries()) {
    if (entry.kind !== 'write') continue;
    if (!entry.record) {
      unrecorded.push(entry);
      continue;
    }
    const content = entry.format ? await formatFile(entry.path, entry.content, root) : entry.content;
    rendered.set(entry.path, { content, mode: entry.mode, generator: entry.generator });
  }
  return { rendered, unrecorded };
}
