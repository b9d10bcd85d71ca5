import { access } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MakeError } from './errors.js';

/** Where a project keeps its own generators: the first of these that exists. */
export const PLOPFILES = ['generators/plopfile.ts', 'generators/plopfile.mts', 'generators/plopfile.js', 'generators/plopfile.mjs'] as const;

/** The project's plopfile (project-relative), or `undefined`; two of them is an error naming both. */
export async function findPlopfile(root: string): Promise<string | undefined> {
  const found: string[] = [];
  for (const file of PLOPFILES) if (await access(path.join(root, file)).then(() => true, () => false)) found.push(file);
  if (found.length > 1) throw new MakeError(`${found.join(' and ')} both exist: keep one plopfile`);
  return found[0];
}

/**
 * `file:line:column` of the first place in `folder` (the plopfile's) that `error` points at: a
 * stack frame of the plopfile or a module next to it, or the location esbuild names in a syntax
 * error; project-relative.
 */
function location(error: unknown, folder: string, root: string): string | undefined {
  const text = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error);
  for (const match of text.matchAll(/((?:file:\/\/)?\/[^\s()'"]+?\.[cm]?[jt]s)(?:\?[^\s:()]*)?:(\d+):(\d+)/g)) {
    const file = match[1]!.startsWith('file:') ? fileURLToPath(match[1]!) : match[1]!;
    if (file.startsWith(`${folder}${path.sep}`)) return `${path.relative(root, file).split(path.sep).join('/')}:${match[2]}:${match[3]}`;
  }
  return undefined;
}

/**
 * An error thrown by the project's generator code (loading the plopfile, a question's `validate`,
 * an action function), as a {@link MakeError} naming the file and line it came from.
 */
export function plopfileError(error: unknown, plopfile: string, root: string, doing?: string): MakeError {
  if (error instanceof MakeError) return error;
  const folder = path.dirname(path.join(root, plopfile));
  const where = location(error, folder, root) ?? plopfile;
  // esbuild's syntax errors (through tsx) name the place themselves: say it once.
  const message = (error instanceof Error ? error.message : String(error))
    .split(`${root}${path.sep}`)
    .join('')
    .replace(/^Transform failed with \d+ errors?:\n/, '')
    .replace(`${where}: `, '');
  return new MakeError(`${where}: ${message}${doing ? ` (${doing})` : ''}`);
}

/** What a plopfile exports: `export default function (plop) { ... }`. */
export type PlopfileFunction = (plop: unknown, config: { destBasePath: string; force: boolean }) => unknown;

/**
 * Imports the plopfile with tsx (a dependency of the CLI), so a TypeScript plopfile loads the same
 * way on every Node fw supports: Node 22.12–22.17 strip types only behind a flag, and Node's type
 * stripping never maps `./x.js` imports to `./x.ts` files, which is how fw projects import. tsx
 * registers its loader for this import only. Returns the plopfile's function.
 */
export async function importPlopfile(root: string, plopfile: string): Promise<PlopfileFunction> {
  const absolute = path.join(root, plopfile);
  const { tsImport } = await import('tsx/esm/api');
  let module: { default?: unknown };
  try {
    module = (await tsImport(pathToFileURL(absolute).href, import.meta.url)) as { default?: unknown };
  } catch (error) {
    throw plopfileError(error, plopfile, root, 'loading the plopfile');
  }
  const fn = typeof module === 'function' ? module : module.default;
  if (typeof fn !== 'function') throw new MakeError(`${plopfile} must export a function: export default function (plop) { plop.setGenerator(...) }`);
  return fn as PlopfileFunction;
}
