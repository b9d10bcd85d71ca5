import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { EXECUTABLE_MODE, FILE_MODE, type FileTree } from './file-tree.js';

/** Renders a handlebars template string with data (node-plop's `renderString` in practice). */
export type RenderString = (template: string, data: Record<string, unknown>) => string;

/** Options of {@link renderBlueprint}. */
export interface RenderBlueprintOptions {
  /** Absolute path of the blueprint folder, e.g. `<pkg>/blueprints/project`. */
  source: string;
  /** Handlebars data for file contents and file names. */
  data: Record<string, unknown>;
  /** The tree to write into. */
  tree: FileTree;
  /** Name recorded as the generator of every file written. */
  generator: string;
  /** Handlebars renderer. */
  render: RenderString;
  /** Project-relative folder the blueprint is rendered into (default: the project root). */
  destination?: string;
}

/** Blueprint file names npm would not ship as is: `_gitignore` becomes `.gitignore`. */
const RENAMES: Record<string, string> = { _gitignore: '.gitignore' };

/**
 * Renders a blueprint folder into the tree, laid out exactly as in the blueprint. Files ending
 * in `.hbs` are rendered with handlebars (the suffix is dropped); other files are copied byte for
 * byte. Path segments containing `{{` are rendered too (`app_configs/{{name}}.ini.hbs`). The
 * executable bit of a blueprint file carries over. Returns the project paths written.
 */
export async function renderBlueprint(options: RenderBlueprintOptions): Promise<string[]> {
  const { source, data, tree, generator, render } = options;
  const files = (await readdir(source, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(source, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
  const written: string[] = [];
  for (const file of files) {
    const absolute = path.join(source, ...file.split('/'));
    const templated = file.endsWith('.hbs');
    const segments = (templated ? file.slice(0, -'.hbs'.length) : file)
      .split('/')
      .map((segment) => RENAMES[segment] ?? (segment.includes('{{') ? render(segment, data) : segment));
    const target = options.destination ? [options.destination, ...segments].join('/') : segments.join('/');
    const bytes = await readFile(absolute);
    const content = templated ? render(bytes.toString('utf8'), data) : bytes;
    const mode = ((await stat(absolute)).mode & 0o111) !== 0 ? EXECUTABLE_MODE : FILE_MODE;
    tree.write(target, content, { generator, mode, format: templated });
    written.push(target);
  }
  return written;
}
