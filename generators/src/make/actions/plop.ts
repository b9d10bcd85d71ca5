/**
 * plop's built-in actions (`add`, `addMany`, `modify`, `append`) with plop's semantics, writing
 * into the run's tree instead of the disk: an added file is a render (planned three ways, recorded
 * as `make:<generator>`, merged with your edits when the generator runs again), a modified or
 * appended file is an explicit write of its new text.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { EXECUTABLE_MODE, FILE_MODE } from '../../pipeline/plan.js';
import type { Answers } from '../api.js';
import { checkRenderable, projectPath, type MakeRun } from '../context.js';
import { MakeError } from '../errors.js';
import { optionalText, rendered, transformed, type ActionConfig, type PlopRenderer } from './config.js';

/** How {@link addFile} adds. */
export interface AddOptions {
  /** An existing file the generator did not write is left alone (plop's `skipIfExists`). */
  skipIfExists?: boolean;
  /** Render over an existing file the generator did not write: merged with it, or next to it as `.fw-new`. */
  force?: boolean;
  mode?: number;
  /** Format the file with the project's prettier (default true; binaries and unknown types never). */
  format?: boolean;
}

/**
 * plop's `add` on the tree: the file becomes a render of the run's generator. A file it wrote
 * before is rendered again (merged three ways with your edits); any other existing file is an
 * error, as in plop, unless `skipIfExists` or `force`. Returns what plop prints: the path, or
 * `[SKIPPED] <path> (exists)`.
 */
export async function addFile(run: MakeRun, file: string, content: string | Buffer, options: AddOptions): Promise<string> {
  await checkRenderable(run, file);
  const entry = (await run.tree.record())[file];
  if (entry?.generator !== run.id && (await run.tree.exists(file))) {
    if (options.skipIfExists) return `[SKIPPED] ${file} (exists)`;
    if (!options.force) {
      throw new MakeError(
        `${file} already exists and fw make ${run.generator} did not write it: choose another name, or pass --force to merge the generator's file with it (a file fw never wrote keeps your version and gets the new one next to it as ${file}.fw-new)`,
      );
    }
  }
  run.tree.render(file, content, { generator: run.id, ...(options.mode === undefined ? {} : { mode: options.mode }), format: options.format ?? true });
  return file;
}

/** A buffer with a NUL byte in its first 8000 bytes is binary (copied as is, as plop does). */
const isBinary = (bytes: Buffer): boolean => bytes.subarray(0, 8000).includes(0);

/** The template of an action: `template`, or `templateFile` (relative to the plopfile), rendered with the answers. */
async function template(plop: PlopRenderer, config: ActionConfig, data: Answers): Promise<{ content: string | Buffer; mode: number }> {
  const templateFile = optionalText(config, 'templateFile');
  if (templateFile === undefined) return { content: plop.renderString(optionalText(config, 'template') ?? '', data), mode: FILE_MODE };
  const absolute = path.resolve(plop.getPlopfilePath(), plop.renderString(templateFile, data));
  const [bytes, stats] = await Promise.all([readFile(absolute), stat(absolute)]).catch((error: unknown) => {
    throw new MakeError(`action "${config.type}": cannot read templateFile ${absolute}: ${error instanceof Error ? error.message : String(error)}`);
  });
  const mode = (stats.mode & 0o111) !== 0 ? EXECUTABLE_MODE : FILE_MODE;
  if (isBinary(bytes)) return { content: bytes, mode };
  return { content: plop.renderString(bytes.toString('utf8'), data), mode };
}

const flag = (config: ActionConfig, key: string): boolean => config[key] === true;

/** plop's `add`. */
export async function add(run: MakeRun, data: Answers, config: ActionConfig, plop: PlopRenderer): Promise<string> {
  const file = projectPath(run, rendered(plop, config, 'path', data));
  const { content, mode } = await template(plop, config, data);
  const body = typeof content === 'string' ? await transformed(config, content, data) : content;
  return addFile(run, file, body, { skipIfExists: flag(config, 'skipIfExists'), force: flag(config, 'force'), mode, format: config.format !== false });
}

/** plop's `addMany`: every file the `templateFiles` globs match (under `base`), added under `destination`. */
export async function addMany(run: MakeRun, data: Answers, config: ActionConfig, plop: PlopRenderer): Promise<string> {
  const destination = rendered(plop, config, 'destination', data);
  const base = config.base === undefined ? '' : rendered(plop, config, 'base', data);
  const patterns = ([] as unknown[]).concat(typeof config.templateFiles === 'function' ? (config.templateFiles as () => unknown)() : config.templateFiles);
  if (patterns.length === 0 || patterns.some((p) => typeof p !== 'string')) throw new MakeError('action "addMany": "templateFiles" must be a glob or a list of globs');
  const strip = Array.isArray(config.stripExtensions) ? (config.stripExtensions as unknown[]).map(String) : ['hbs'];
  const plopfileDir = path.resolve(plop.getPlopfilePath());
  const absoluteBase = path.resolve(plopfileDir, base);
  const { glob } = await import('tinyglobby');
  const globOptions = typeof config.globOptions === 'object' && config.globOptions !== null ? config.globOptions : {};
  const found = await glob((patterns as string[]).map((p) => plop.renderString(p, data)), {
    cwd: plopfileDir, braceExpansion: false, expandDirectories: true, absolute: true, onlyFiles: true, ...globOptions,
  });
  const added: string[] = [];
  for (const templateFile of found.filter((f) => f.startsWith(absoluteBase)).sort()) {
    // As plop: the path below `base` (or below its first folder), its `.hbs` dropped.
    const below = base ? path.relative(absoluteBase, templateFile) : path.relative(plopfileDir, templateFile).split(path.sep).slice(1).join(path.sep);
    const parsed = path.parse(path.join(destination, below));
    const stripped = strip.includes(parsed.ext.slice(1)) && (path.extname(parsed.name) !== '' || parsed.name.startsWith('.')) ? path.join(parsed.dir, parsed.name) : path.join(parsed.dir, parsed.base);
    const file = { ...config, type: 'add', path: stripped.split(path.sep).join('/'), templateFile, template: undefined };
    added.push(await add(run, data, file, plop));
  }
  return config.verbose === false ? `${added.length} files added` : [`${added.length} files added`, ...added.map((f) => ` -> ${f}`)].join('\n');
}

/** The existing file an action edits (pending changes included), or plop's error. */
async function existing(run: MakeRun, file: string, type: string): Promise<string> {
  const current = await run.tree.readText(file);
  if (current === undefined) throw new MakeError(`action "${type}": ${file} does not exist`);
  return current;
}

/** plop's `modify`: replaces `pattern` with the template, then `transform`. */
export async function modify(run: MakeRun, data: Answers, config: ActionConfig, plop: PlopRenderer): Promise<string> {
  if (!('pattern' in config) && !('transform' in config)) throw new MakeError('action "modify": give a "pattern" or a "transform"');
  const file = projectPath(run, rendered(plop, config, 'path', data));
  let content = await existing(run, file, 'modify');
  const pattern = config.pattern;
  if (typeof pattern === 'string' || pattern instanceof RegExp) {
    const { content: replacement } = await template(plop, config, data);
    content = content.replace(pattern, replacement.toString());
  }
  run.tree.write(file, await transformed(config, content, data), { reason: `modified by fw make ${run.generator}` });
  return file;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** plop's `append`: adds the template after `pattern` (or at the end), once unless `unique: false`. */
export async function append(run: MakeRun, data: Answers, config: ActionConfig, plop: PlopRenderer): Promise<string> {
  const file = projectPath(run, rendered(plop, config, 'path', data));
  let content = await existing(run, file, 'append');
  const addition = (await template(plop, config, data)).content.toString();
  const separator = optionalText(config, 'separator') ?? '\n';
  const pattern = config.pattern;
  const usable = typeof pattern === 'string' || pattern instanceof RegExp ? pattern : undefined;
  if (config.unique !== false) {
    // As plop: drop earlier copies after the pattern, so running the generator twice appends once.
    const parts = usable === undefined ? [content] : content.split(usable);
    const tail = parts[parts.length - 1] ?? '';
    content = content.replace(tail, tail.replace(new RegExp(escapeRegExp(separator + addition), 'g'), ''));
  }
  if (usable === undefined) content = `${content}${content.length > 0 ? separator : ''}${addition}`;
  else content = content.replace(usable, `$&${separator}${addition}`);
  run.tree.write(file, content, { reason: `appended to by fw make ${run.generator}` });
  return file;
}
