import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Tree } from '../pipeline/tree.js';
import { I18N_GENERATOR_ID } from './generators.js';

/** Source files whose imports are read. */
const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
/** `import ... from 'x'`, `export ... from 'x'`, `import 'x'`, `import('x')`, `require('x')`. */
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"\n]+)['"]/g;

/** What to do with a kept file once what it imports has gone, by the generator that wrote it. */
const REMEDY: Readonly<Record<string, string>> = {
  [I18N_GENERATOR_ID]: 'delete it if you no longer need it (git history keeps your edit), or set I18N_SUPPORTED_LOCALES in fw.json again',
};

/** The npm package a bare import specifier names (`@scope/pkg/sub` → `@scope/pkg`); `undefined` for a relative one or a Node built-in. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The files a relative specifier may name (TypeScript's `.js` → `.ts` mapping, an omitted extension, a folder's index). */
function candidates(from: string, specifier: string): string[] {
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const stem = target.replace(/\.[cm]?jsx?$/, '');
  return [target, ...['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'].map((ext) => stem + ext), `${target}/index.ts`, `${target}/index.js`];
}

/** Every dependency name of a `package.json` text (all dependency kinds). */
function dependencyNames(text: string | undefined): Set<string> {
  if (text === undefined) return new Set();
  try {
    const pkg = JSON.parse(text) as Record<string, unknown>;
    const names = new Set<string>();
    for (const key of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
      const block = pkg[key];
      if (block && typeof block === 'object') for (const name of Object.keys(block)) names.add(name);
    }
    return names;
  } catch {
    return new Set();
  }
}

/**
 * Notes on the files a run keeps because the user edited them although nothing generates them any
 * more (`keep-edited`), when such a file imports a file the same run deletes or a package it
 * removes from `package.json`: the kept file no longer compiles, so the note names it, what it
 * imports that goes, and what to do. Called once every render and write of the run is in `tree`.
 */
export async function strandedImportNotes(tree: Tree): Promise<string[]> {
  const kept: { file: string; text: string; generator: string }[] = [];
  const deleted = new Set<string>();
  // Only a path nothing renders any more can be kept-edited or deleted (and planning it formats nothing).
  for (const file of Object.keys(await tree.record()).filter((f) => tree.rendered(f) === undefined)) {
    const item = await tree.item(file);
    if (!item) continue;
    if (item.remove) deleted.add(file);
    else if (item.action === 'keep-edited' && item.disk && SOURCE.test(file)) kept.push({ file, text: item.disk.toString('utf8'), generator: item.generator });
  }
  if (kept.length === 0) return [];
  const before = dependencyNames(await readFile(path.join(tree.root, 'package.json'), 'utf8').catch(() => undefined));
  const after = dependencyNames(await tree.readText('package.json'));
  const notes: string[] = [];
  for (const { file, text, generator } of kept) {
    const gone = new Set<string>();
    for (const [, specifier] of text.matchAll(IMPORT)) {
      if (specifier === undefined) continue;
      const pkg = packageOf(specifier);
      if (pkg === undefined) {
        if (specifier.startsWith('.') && candidates(file, specifier).some((c) => deleted.has(c))) gone.add(`${specifier} (deleted by this run)`);
      } else if (before.has(pkg) && !after.has(pkg)) {
        gone.add(`${pkg} (removed from package.json by this run)`);
      }
    }
    if (gone.size === 0) continue;
    const remedy = REMEDY[generator] ?? 'delete it, or remove those imports from it';
    const list = [...gone];
    const named = list.length === 1 ? list[0] : `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`;
    notes.push(`${file} is kept because you edited it, but it imports ${named}, so tsc fails on it: ${remedy}`);
  }
  return notes;
}
