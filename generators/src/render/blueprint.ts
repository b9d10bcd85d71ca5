import { readFileSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { blueprintDir } from '../package-info.js';
import { EXECUTABLE_MODE, FILE_MODE } from '../pipeline/plan.js';
import type { Tree } from '../pipeline/tree.js';
import { compileTemplate, loadCompiler, needsCompiler, type Template } from './handlebars.js';

/** One blueprint file, compiled once per process. */
interface CompiledFile {
  /** Target path segments; a segment holding `{{` is a template. */
  segments: Array<string | Template>;
  /** A template (`.hbs`) or bytes copied as they are. */
  content: Template | Buffer;
  mode: number;
}

/** A blueprint folder, read and compiled: render it any number of times without touching disk. */
export interface CompiledBlueprint {
  kind: string;
  files: CompiledFile[];
}

/** Blueprint file names npm would not ship as is. */
const RENAMES: Record<string, string> = { _gitignore: '.gitignore' };

const folders = new Map<string, Promise<CompiledBlueprint>>();

async function compile(kind: string, source: string): Promise<CompiledBlueprint> {
  const entries = await readdir(source, { recursive: true, withFileTypes: true });
  const paths = entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(source, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
  const read = await Promise.all(
    paths.map(async (file) => {
      const absolute = path.join(source, ...file.split('/'));
      const [bytes, stats] = await Promise.all([readFile(absolute), stat(absolute)]);
      return { file, bytes, mode: (stats.mode & 0o111) !== 0 ? EXECUTABLE_MODE : FILE_MODE };
    }),
  );
  const templates = read.filter((r) => r.file.endsWith('.hbs'));
  if (templates.some((r) => needsCompiler(r.bytes.toString('utf8'), r.file.slice(0, -'.hbs'.length)))) await loadCompiler();
  const files = read.map(({ file, bytes, mode }): CompiledFile => {
    const templated = file.endsWith('.hbs');
    const target = templated ? file.slice(0, -'.hbs'.length) : file;
    const segments = target.split('/').map((s) => RENAMES[s] ?? (s.includes('{{') ? compileTemplate(s, 'path') : s));
    return { segments, content: templated ? compileTemplate(bytes.toString('utf8'), target) : bytes, mode };
  });
  return { kind, files };
}

/** `blueprints/<kind>` compiled (cached for the process). `source` overrides the folder (tests). */
export function loadBlueprint(kind: string, source = blueprintDir(kind)): Promise<CompiledBlueprint> {
  const key = `${kind}\0${source}`;
  let compiled = folders.get(key);
  if (!compiled) {
    compiled = compile(kind, source);
    folders.set(key, compiled);
  }
  return compiled;
}

/**
 * Renders a compiled blueprint into `tree` under `destination` (default: the project root), every
 * file recorded with `generator`. `.hbs` files are rendered (and formatted by the pipeline),
 * other files are copied byte for byte (never formatted); `_gitignore` becomes `.gitignore`. The
 * executable bit of a blueprint file carries over. Returns the paths rendered.
 */
export function renderBlueprint(
  blueprint: CompiledBlueprint,
  data: Record<string, unknown>,
  tree: Tree,
  generator: string,
  destination?: string,
): string[] {
  const written: string[] = [];
  for (const file of blueprint.files) {
    const rel = file.segments.map((s) => (typeof s === 'string' ? s : s(data))).join('/');
    const target = destination ? `${destination}/${rel}` : rel;
    const templated = !Buffer.isBuffer(file.content);
    const content = Buffer.isBuffer(file.content) ? file.content : file.content(data);
    tree.render(target, content, { generator, mode: file.mode, format: templated });
    written.push(target);
  }
  return written;
}

const templates = new Map<string, Template>();

/**
 * Makes the templates of `blueprints/<kind>` that {@link blueprintTemplate} will compile ready to
 * compile without blocking: loads the Handlebars compiler when one is not in the template store.
 * The renders call it before their synchronous work (and a bundle then includes the compiler).
 */
export async function prepareBlueprint(kind: string, rels: readonly string[], source = blueprintDir(kind)): Promise<void> {
  for (const rel of rels) {
    if (templates.has(path.join(source, rel))) continue;
    if (needsCompiler(await readFile(path.join(source, rel), 'utf8'), rel.replace(/\.hbs$/, ''))) return loadCompiler();
  }
}

/**
 * One template of `blueprints/<kind>` (`rel` ends in `.hbs`), compiled once per process, for the
 * renders that build their files one by one (migrate, auth, i18n, frontend). `source` overrides the
 * blueprint folder (tests).
 */
export function blueprintTemplate(kind: string, rel: string, source = blueprintDir(kind)): Template {
  const file = path.join(source, rel);
  let template = templates.get(file);
  if (!template) {
    template = compileTemplate(readFileSync(file, 'utf8'), rel.replace(/\.hbs$/, ''));
    templates.set(file, template);
  }
  return template;
}
