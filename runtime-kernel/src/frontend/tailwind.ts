/**
 * Tailwind v4, compiled in-process with `@tailwindcss/node` (the compiler) and
 * `@tailwindcss/oxide` (the class scanner): no CLI process on the boot path. Both are imported
 * on first use only, so an app without `FW_TAILWIND` never loads them.
 *
 * Each surface keeps a raw stylesheet in its `static/` folder — `tailwind_raw.css` when
 * `FW_THEMES` is on, `tailwind_no_themes.css` when it is off — and the compiled `tailwind.css`
 * next to it (regenerated at boot, never edited, listed in `.gitignore`).
 */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { assertInstalled, importOptional, resolveOptional, type OptionalUse } from '../core/optional.js';
import { TailwindError } from './errors.js';

/** The compiled stylesheet's file name. */
export const TAILWIND_OUTPUT = 'tailwind.css';

/** The raw stylesheet's file name for a `FW_THEMES` setting. */
export function rawStylesheetName(themes: boolean): string {
  return themes ? 'tailwind_raw.css' : 'tailwind_no_themes.css';
}

/** Options of `compileTailwind`. */
export interface CompileTailwindOptions {
  /** Folder the class scan starts from when the stylesheet names no `source()` (default: the input's folder). */
  base?: string;
  /** Minify the output. Default false. */
  minify?: boolean;
  /** Where the Tailwind packages are resolved from (a folder of the project); default the input's folder. */
  root?: string;
}

const TAILWIND_FEATURE = 'Tailwind (FW_TAILWIND, fw tailwind)';

/** Compiles Tailwind CSS text (the `@import "tailwindcss"` entry) to plain CSS. */
export async function compileTailwind(css: string, from: string, options: CompileTailwindOptions = {}): Promise<string> {
  const base = options.base ?? dirname(from);
  const use: OptionalUse = { root: options.root ?? dirname(from), feature: TAILWIND_FEATURE };
  // Missing packages fail all at once, with the one command that adds them.
  assertInstalled(['@tailwindcss/node', '@tailwindcss/oxide', 'tailwindcss'], use);
  const [{ compile, optimize }, { Scanner }] = await Promise.all([
    importOptional<typeof import('@tailwindcss/node')>('@tailwindcss/node', use),
    importOptional<typeof import('@tailwindcss/oxide')>('@tailwindcss/oxide', use),
  ]);
  try {
    const compiler = await compile(css, { base: dirname(from), from, onDependency: () => undefined, customCssResolver: (id) => resolveTailwindCss(id, use) });
    const sources =
      compiler.root === 'none'
        ? []
        : compiler.root === null
          ? [{ base, pattern: '**/*', negated: false }]
          : [{ ...compiler.root, negated: false }];
    const scanner = new Scanner({ sources: [...sources, ...compiler.sources] });
    const out = compiler.build(scanner.scan());
    return options.minify ? optimize(out, { minify: true }).code : out;
  } catch (err) {
    throw new TailwindError(`Tailwind could not compile ${from}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

/**
 * `@import "tailwindcss"` (and `tailwindcss/*.css`) resolve to the installed `tailwindcss` (the
 * app's, installed with the compiler; else the one next to the kernel).
 */
async function resolveTailwindCss(id: string, use: OptionalUse): Promise<string | undefined> {
  if (id !== 'tailwindcss' && !id.startsWith('tailwindcss/')) return undefined;
  assertInstalled('tailwindcss', use);
  try {
    return resolveOptional(id === 'tailwindcss' ? 'tailwindcss/index.css' : id, use);
  } catch {
    return undefined; // no such stylesheet in the package: Tailwind reports the import
  }
}

/** Options of `generateTailwindAsset`. */
export interface GenerateTailwindAssetOptions {
  /** The project root: where the Tailwind packages are resolved from and where a missing one is installed (default: `cwd`). */
  root?: string;
}

/** Errors of a write the file system refused (read-only mount, no permission). */
const UNWRITABLE = new Set(['EROFS', 'EACCES', 'EPERM']);

/**
 * Compiles one file (the reference's `generate_tailwind_asset`); creates the output folder. An
 * output whose content is already the compiled one is left untouched (not even opened for
 * writing), so a read-only deployment whose stylesheets `npm run build` compiled boots. A needed
 * write the file system refuses throws `TailwindError` naming the file and the way out. Answers
 * whether it wrote the output (false: it was up to date).
 */
export async function generateTailwindAsset(input: string, output: string, cwd: string = dirname(input), options: GenerateTailwindAssetOptions = {}): Promise<boolean> {
  const from = resolve(cwd, input);
  let css: string;
  try {
    css = await readFile(from, 'utf8');
  } catch (err) {
    throw new TailwindError(`Tailwind input ${from} cannot be read`, { cause: err });
  }
  const compiled = await compileTailwind(css, from, { base: cwd, root: options.root ?? cwd });
  const to = resolve(cwd, output);
  // An unchanged stylesheet is not rewritten: watchers (Vite's, an editor's) see no change, and a
  // read-only file system is never written to.
  if ((await readFile(to, 'utf8').catch(() => undefined)) === compiled) return false;
  try {
    await mkdir(dirname(to), { recursive: true });
    await writeFile(to, compiled);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === undefined || !UNWRITABLE.has(code)) throw err;
    throw new TailwindError(
      `FW_TAILWIND: ${to} is out of date and cannot be written (${code}). Compile the stylesheets while the files are still writable: ` +
        '`npm run build` (fw build) does it; then deploy the compiled file with the rest of the app, or turn FW_TAILWIND off where the files are read-only.',
      { cause: err },
    );
  }
  return true;
}

/** The Tailwind CLI script: the project's own `@tailwindcss/cli`, else one next to the kernel. */
export function tailwindCliPath(cwd: string): string {
  for (const from of [join(cwd, 'package.json'), import.meta.url]) {
    try {
      const pkg = createRequire(from).resolve('@tailwindcss/cli/package.json');
      const script = join(dirname(pkg), 'dist', 'index.mjs');
      if (existsSync(script)) return script;
    } catch {
      // try the next place
    }
  }
  throw new TailwindError('The Tailwind CLI is not installed: run `npm install -D @tailwindcss/cli` in the project');
}

/**
 * Raw passthrough to the Tailwind CLI (`fw tailwind -- <args>`): runs it with the terminal
 * attached. Throws `TailwindError` when it cannot start or exits non-zero.
 */
export function tailwindCmd(args: readonly string[], cwd: string = process.cwd()): Promise<void> {
  const script = tailwindCliPath(cwd);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd, stdio: 'inherit' });
    child.once('error', (err) => reject(new TailwindError(`tailwindcss could not start: ${err.message}`, { cause: err })));
    child.once('close', (code) =>
      code === 0 ? resolvePromise() : reject(new TailwindError(`tailwindcss ${args.join(' ')} failed (exit ${code ?? 'signal'})`)),
    );
  });
}

/**
 * The `fw tailwind` command: its argv must start with `--` (everything after it goes to the
 * Tailwind CLI untouched), e.g. `fw tailwind -- --help`.
 */
export function tailwindCli(argv: readonly string[], cwd: string = process.cwd()): Promise<void> {
  if (argv[0] !== '--') {
    return Promise.reject(new TailwindError(`fw tailwind: put '--' before the Tailwind arguments, e.g. fw tailwind -- --help (got: ${argv.join(' ') || 'nothing'})`));
  }
  return tailwindCmd(argv.slice(1), cwd);
}
