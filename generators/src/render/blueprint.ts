import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import Handlebars from 'handlebars';
import { EXECUTABLE_MODE, FILE_MODE, type FileTree } from '../engine/file-tree.js';
import { blueprintDir } from '../package-info.js';

/** One blueprint file, compiled once per process. */
interface CompiledFile {
  /** Target path segments; a segment holding `{{` is a template. */
  segments: Array<string | HandlebarsTemplateDelegate>;
  /** A template (`.hbs`) or bytes copied as they are. */
  content: HandlebarsTemplateDelegate | Buffer;
  mode: number;
}

/** A blueprint folder, read and compiled: render it any number of times without touching disk. */
export interface CompiledBlueprint {
  kind: string;
  files: CompiledFile[];
}

/** The handlebars instance of blueprints: the `json` helper (`{{{json value}}}`), HTML escaping as in node-plop. */
const hbs = Handlebars.create();
hbs.registerHelper('json', (value: unknown) => JSON.stringify(value));

/** Blueprint file names npm would not ship as is. */
const RENAMES: Record<string, string> = { _gitignore: '.gitignore' };

const cache = new Map<string, Promise<CompiledBlueprint>>();

async function compile(kind: string, source: string): Promise<CompiledBlueprint> {
  const entries = await readdir(source, { recursive: true, withFileTypes: true });
  const paths = entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(source, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
  const files = await Promise.all(
    paths.map(async (file): Promise<CompiledFile> => {
      const absolute = path.join(source, ...file.split('/'));
      const templated = file.endsWith('.hbs');
      const segments = (templated ? file.slice(0, -'.hbs'.length) : file)
        .split('/')
        .map((s) => RENAMES[s] ?? (s.includes('{{') ? hbs.compile(s, { strict: true }) : s));
      const [bytes, stats] = await Promise.all([readFile(absolute), stat(absolute)]);
      return {
        segments,
        content: templated ? hbs.compile(bytes.toString('utf8'), { strict: true }) : bytes,
        mode: (stats.mode & 0o111) !== 0 ? EXECUTABLE_MODE : FILE_MODE,
      };
    }),
  );
  return { kind, files };
}

/** `blueprints/<kind>` compiled (cached for the process). `source` overrides the folder (tests). */
export function loadBlueprint(kind: string, source = blueprintDir(kind)): Promise<CompiledBlueprint> {
  const key = `${kind}\0${source}`;
  let compiled = cache.get(key);
  if (!compiled) {
    compiled = compile(kind, source);
    cache.set(key, compiled);
  }
  return compiled;
}

/**
 * Renders a compiled blueprint into `tree` under `destination` (default: the project root), every
 * file recorded with `generator`. `.hbs` files are rendered (and prettier-formatted by the engine),
 * other files are copied byte for byte; `_gitignore` becomes `.gitignore`. Returns the paths written.
 */
export function renderCompiled(
  blueprint: CompiledBlueprint,
  data: Record<string, unknown>,
  tree: FileTree,
  generator: string,
  destination?: string,
): string[] {
  const written: string[] = [];
  for (const file of blueprint.files) {
    const rel = file.segments.map((s) => (typeof s === 'string' ? s : s(data))).join('/');
    const target = destination ? `${destination}/${rel}` : rel;
    const templated = !Buffer.isBuffer(file.content);
    const content = Buffer.isBuffer(file.content) ? file.content : file.content(data);
    tree.write(target, content, { generator, mode: file.mode, format: templated });
    written.push(target);
  }
  return written;
}
