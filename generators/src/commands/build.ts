import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseCommandArgs } from '../cli/args.js';
import { CliError } from '../cli/errors.js';
import type { CommandIO } from '../cli/io.js';
import { generateClients, prismaBinds, runStep } from '../migrate/client.js';
import { findProjectRoot } from '../project.js';

/** Usage text of `fw build`. */
export const help = `Usage: fw build

Builds the app for production, so \`npm start\` runs plain JavaScript with production
dependencies only:
  1. generates the Prisma client of every bind with a migration environment
     (prisma generate --config prisma/<bind>/prisma.config.ts): the server code imports it from
     generated/, which git ignores, so a fresh checkout (CI, a container build) builds too;
  2. with FW_TAILWIND on, compiles every raw Tailwind stylesheet (static/tailwind_raw.css) into
     its static/tailwind.css (and a Vite surface's frontend/src/tailwind.css), as the boot does:
     the boot then finds them up to date and writes nothing, so the deployed files may be
     read-only;
  3. compiles the server code (fluid/, additives/) with the project's TypeScript and
     tsconfig.build.json into dist/ (dist/fluid/server.js is the entry);
  4. copies every other file of those folders (templates, static files, manifest.json) next to
     the compiled modules, so each module finds what it reads beside itself;
  5. type-checks and builds every Vite workspace (npm run check / build --workspaces).
dist/ is emptied first, so nothing deleted from the sources survives there.

Options:
  -h, --help    show this help`;

/** The build configuration and output folder, relative to the project root. */
export const BUILD_CONFIG = 'tsconfig.build.json';
export const OUT_DIR = 'dist';
/** The folders of server code `fw build` mirrors into {@link OUT_DIR}. */
export const SOURCE_DIRS = ['fluid', 'additives'] as const;

const COMPILED = /\.(?:ts|tsx|mts|cts)$/;
const TEST = /\.test\.[cm]?[jt]sx?$/;

/** What {@link buildProject} did. */
export interface BuildResult {
  /** Files copied next to the compiled modules (project-relative source paths). */
  copied: string[];
  /** Whether the project has Vite workspaces (their check and build ran). */
  frontend: boolean;
  /** The stylesheets compiled with `FW_TAILWIND` on (project-relative); none with it off. */
  tailwind: string[];
  /** The binds whose Prisma client was generated (those with `prisma/<bind>/prisma.config.ts`). */
  prisma: string[];
}

/** Runs a command in `cwd` with the output passed through; rejects naming it (as `label`) on failure. */
function step(command: string, args: string[], cwd: string, io: CommandIO, label = [command, ...args].join(' ')): Promise<void> {
  return runStep(command, args, cwd, io, 'fw build', label);
}

/**
 * The files under `dir` (project-relative) that are not compiled: everything but TypeScript
 * sources, tests, Vite workspaces (`frontend/` of the app and of each Additive: Vite builds those)
 * and `node_modules`.
 */
async function assets(root: string, dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(path.join(root, rel), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const child = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) {
        const workspace = entry.name === 'frontend' && (rel === 'fluid' || /^additives\/[^/]+$/.test(rel));
        if (!workspace && entry.name !== 'node_modules') await walk(child);
      } else if (entry.isFile() && !COMPILED.test(entry.name) && !TEST.test(entry.name)) {
        found.push(child);
      }
    }
  };
  await walk(dir);
  return found;
}

/** The project's own `tsc` (its `typescript` devDependency), so the build uses the version the app pins. */
export function projectTsc(root: string, name = 'fw build'): string {
  try {
    return createRequire(path.join(root, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    throw new CliError(`${name}: typescript is not installed in ${root}; run "npm install" (${name} needs the devDependencies).`);
  }
}

/** What `fw build` uses of the project's `@fw/kernel/frontend` (the kernel's own types are not imported: see docs/architecture.md). */
interface KernelFrontend {
  checkPublicDirs?: (root: string, workspaces: readonly string[]) => Promise<void>;
  generateProjectTailwind?: (root: string, options: { env?: Readonly<Record<string, string | undefined>> }) => Promise<string[]>;
}

/** The project's `@fw/kernel/frontend`, failing as a {@link CliError}. */
async function kernelFrontend(root: string): Promise<KernelFrontend> {
  try {
    return (await import(pathToFileURL(createRequire(path.join(root, 'package.json')).resolve('@fw/kernel/frontend')).href)) as KernelFrontend;
  } catch {
    throw new CliError(`fw build: @fw/kernel is not installed in ${root}; run "npm install" there first.`);
  }
}

/** A kernel function `fw build` needs, failing as a {@link CliError} when the installed kernel predates it. */
function required<T>(fn: T | undefined): T {
  if (!fn) throw new CliError('fw build: the installed @fw/kernel is older than this fw; update it (npm install @fw/kernel@latest).');
  return fn;
}

/** Runs a kernel step, its failure a {@link CliError} with the kernel's message. */
async function kernelStep<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new CliError(`fw build: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The raw Tailwind stylesheets a surface may hold (`FW_THEMES` on, off). */
const RAW_STYLESHEETS = ['tailwind_raw.css', 'tailwind_no_themes.css'];

/** Whether `fluid/static/` or an `additives/<name>/static/` holds a raw Tailwind stylesheet. */
async function hasRawStylesheet(root: string): Promise<boolean> {
  const additives = await readdir(path.join(root, 'additives')).catch(() => []);
  const surfaces = ['fluid', ...additives.map((name) => path.join('additives', name))];
  return surfaces.some((s) => RAW_STYLESHEETS.some((raw) => existsSync(path.join(root, s, 'static', raw))));
}

/** Builds the project at `root` (see {@link help}). */
export async function buildProject(root: string, io: CommandIO): Promise<BuildResult> {
  if (!existsSync(path.join(root, BUILD_CONFIG))) {
    // A file the record holds was deleted by hand, and fw generate keeps it deleted (skip-deleted).
    const { readRecord } = await import('../pipeline/record.js');
    const deleted = (await readRecord(root).catch(() => undefined))?.files[BUILD_CONFIG] !== undefined;
    const restore = deleted
      ? `you deleted it, and "fw generate" keeps a generated file you deleted deleted: restore it from git, or delete its "${BUILD_CONFIG}" entry from .fw/record.json and run "fw generate"`
      : 'run "fw generate" to restore it';
    throw new CliError(`fw build: ${BUILD_CONFIG} not found in ${root}; it tells TypeScript what to compile into ${OUT_DIR}/ (${restore}).`);
  }
  const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { workspaces?: unknown };
  const workspaces = Array.isArray(pkg.workspaces) ? pkg.workspaces.filter((w): w is string => typeof w === 'string') : [];
  const frontend = workspaces.length > 0;
  // Before anything is built: the kernel's check refuses dotfiles and symlinks in a workspace's
  // public/ (Vite would copy them, or their targets, into dist/).
  if (frontend) {
    const check = required((await kernelFrontend(root)).checkPublicDirs);
    await kernelStep(() => check(root, workspaces));
  }
  // With FW_TAILWIND on, the stylesheets the boot would compile are compiled here, into the
  // sources (before Vite builds the workspaces that import them): a production boot then finds
  // them up to date and writes nothing, so its files may be read-only. The kernel reads the
  // config (fw.json, the ini, the environment) only when there is a raw stylesheet to compile.
  let tailwind: string[] = [];
  if (await hasRawStylesheet(root)) {
    const generate = required((await kernelFrontend(root)).generateProjectTailwind);
    tailwind = await kernelStep(() => generate(root, { env: io.env }));
  }
  // The clients the server code imports (`generated/prisma/<bind>/client.js`) are git-ignored
  // output of the schemas: generated here, so the build never depends on an earlier
  // `fw migrate dev` in this folder and never compiles a client older than its schema.
  const prisma = await prismaBinds(root);
  await generateClients(root, prisma, io, 'fw build');
  const tsc = projectTsc(root);
  await rm(path.join(root, OUT_DIR), { recursive: true, force: true });
  await step(process.execPath, [tsc, '-p', BUILD_CONFIG], root, io, `tsc -p ${BUILD_CONFIG}`);

  const copied = (await Promise.all(SOURCE_DIRS.map((dir) => assets(root, dir)))).flat();
  for (const file of copied) {
    const target = path.join(root, OUT_DIR, file);
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(path.join(root, file), target);
  }

  if (frontend) {
    // What the kernel's production boot would otherwise do: the devDependencies that Vite needs
    // are gone after `npm ci --omit=dev`, so the frontend is built here, once.
    for (const script of ['check', 'build']) await step('npm', ['run', script, '--workspaces', '--if-present'], root, io);
  }
  return { copied, frontend, tailwind, prisma };
}

/** `fw build`. Returns the exit code. */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('fw build', argv, { help: { type: 'boolean', short: 'h' } });
  if (values.help) {
    io.stdout.write(`${help}\n`);
    return 0;
  }
  if (positionals.length > 0) throw new CliError(`fw build: unexpected argument ${positionals.join(' ')}. Run "fw build --help" for usage.`);
  const root = await findProjectRoot(io.cwd);
  const result = await buildProject(root, io);
  io.stdout.write(
    `fw build: ${result.prisma.length > 0 ? `generated the Prisma client${result.prisma.length === 1 ? '' : 's'} (${result.prisma.join(', ')}), ` : ''}compiled ${SOURCE_DIRS.join('/ and ')}/ into ${OUT_DIR}/, copied ${result.copied.length} other file${result.copied.length === 1 ? '' : 's'} beside them` +
      `${result.tailwind.length > 0 ? `, compiled Tailwind (${result.tailwind.join(', ')})` : ''}` +
      `${result.frontend ? ', built the Vite workspaces' : ''}.\nStart it with: npm start (node ${OUT_DIR}/fluid/server.js)\n`,
  );
  return 0;
}
