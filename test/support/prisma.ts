/**
 * Test support for the Prisma CLI in this environment. Prisma's CLI downloads a native schema
 * engine that cannot be fetched here; `../shared/tools/prisma-offline` holds a stand-in built on
 * Prisma's WASM engine (see its README). This helper makes it usable (idempotently, across
 * parallel test workers) and points `PRISMA_SCHEMA_ENGINE_BINARY` at it. Generated projects never
 * depend on the stand-in.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The fw checkout. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The stand-in as shipped in shared/ (read-only). `FW_PRISMA_OFFLINE_DIR` overrides it. */
export const STANDIN_SOURCE = process.env.FW_PRISMA_OFFLINE_DIR ?? path.resolve(REPO_ROOT, '..', 'shared', 'tools', 'prisma-offline');
/** Where a writable, installed copy is kept when the shared folder has no `node_modules`. */
export const STANDIN_COPY = path.join(REPO_ROOT, '.tmp', 'prisma-offline');
/** The repository's own Prisma CLI (root devDependency `prisma`). */
export const PRISMA_BIN = path.join(REPO_ROOT, 'node_modules', '.bin', 'prisma');

const INSTALLED = path.join('node_modules', '@prisma', 'schema-engine-wasm');

// Runs under flock so parallel workers install once; re-copies when the shipped stand-in changed.
const INSTALL_SCRIPT = `set -e
src="$1"; dst="$2"
if [ -d "$dst/${INSTALLED}" ] && cmp -s "$src/package-lock.json" "$dst/package-lock.json" && cmp -s "$src/schema-engine.mjs" "$dst/schema-engine.mjs"; then exit 0; fi
rm -rf "$dst"; mkdir -p "$dst"
cp -R "$src"/. "$dst"/
chmod -R u+w "$dst"; chmod 755 "$dst/schema-engine.mjs"
npm ci --prefix "$dst" --no-audit --no-fund --loglevel=error
`;

let engine: string | undefined;

/**
 * The stand-in's `schema-engine.mjs`, installed: used in place when the shared folder already has
 * its `node_modules` (e.g. `npm ci --prefix` was run there), otherwise from a copy in
 * `.tmp/prisma-offline` installed with `npm ci` (never writing into shared/). Throws with what is
 * missing, so a test that needs Prisma fails clearly instead of skipping.
 */
export function ensurePrismaOffline(): string {
  if (engine) return engine;
  if (!existsSync(PRISMA_BIN)) throw new Error(`Prisma CLI missing: ${PRISMA_BIN} (run npm ci in ${REPO_ROOT})`);
  if (!existsSync(path.join(STANDIN_SOURCE, 'schema-engine.mjs'))) {
    throw new Error(
      `Prisma schema-engine stand-in missing: ${STANDIN_SOURCE}/schema-engine.mjs ` +
        '(expected shared/tools/prisma-offline beside the checkout, or set FW_PRISMA_OFFLINE_DIR)',
    );
  }
  if (existsSync(path.join(STANDIN_SOURCE, INSTALLED))) {
    engine = path.join(STANDIN_SOURCE, 'schema-engine.mjs');
    return engine;
  }
  const run = spawnSync('flock', ['/tmp/fw-prisma-offline.lock', 'sh', '-c', INSTALL_SCRIPT, 'sh', STANDIN_SOURCE, STANDIN_COPY], {
    encoding: 'utf8',
  });
  if (run.error || run.status !== 0) {
    throw new Error(`could not install the Prisma stand-in into ${STANDIN_COPY}: ${run.error?.message ?? run.stderr}`);
  }
  engine = path.join(STANDIN_COPY, 'schema-engine.mjs');
  return engine;
}

/**
 * Sets the process environment so every Prisma CLI run (also through `runPrisma`) uses the
 * stand-in and makes no telemetry call. Returns the engine path.
 */
export function usePrismaOffline(): string {
  const file = ensurePrismaOffline();
  process.env.PRISMA_SCHEMA_ENGINE_BINARY = file;
  process.env.CHECKPOINT_DISABLE = '1';
  process.env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
  return file;
}

/**
 * A fresh project folder under `.tmp/db-tests/` (inside the checkout, so `prisma/config` and
 * `@prisma/client` resolve from the repository's node_modules), removed by `cleanup()`.
 */
export async function tempProject(prefix: string): Promise<{ root: string; cleanup(): Promise<void> }> {
  const parent = path.join(REPO_ROOT, '.tmp', 'db-tests');
  await mkdir(parent, { recursive: true });
  const root = await mkdtemp(path.join(parent, `${prefix}-`));
  await writeFile(path.join(root, 'package.json'), JSON.stringify({ name: prefix, private: true, type: 'module' }));
  return { root, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** Writes a rendered file map (`renderMigrateEnvironment`) into a folder. */
export async function writeFiles(root: string, files: ReadonlyMap<string, string>): Promise<void> {
  for (const [file, content] of files) {
    const target = path.join(root, file);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, content);
  }
}

/** Runs the repository's Prisma CLI synchronously; returns its exit status and combined output. */
export function prismaCli(args: readonly string[], options: { cwd: string; env?: Record<string, string> }): { status: number; output: string } {
  usePrismaOffline();
  const run = spawnSync(PRISMA_BIN, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, encoding: 'utf8' });
  if (run.error) throw run.error;
  return { status: run.status ?? -1, output: `${run.stdout}${run.stderr}` };
}

/** Like {@link prismaCli}, without blocking, so independent runs can go in parallel. */
export function prismaCliAsync(args: readonly string[], options: { cwd: string; env?: Record<string, string> }): Promise<{ status: number; output: string }> {
  usePrismaOffline();
  return new Promise((resolve) => {
    execFile(PRISMA_BIN, args, { cwd: options.cwd, env: { ...process.env, ...options.env } }, (error, stdout, stderr) => {
      const status = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ status, output: `${stdout}${stderr}${error && typeof error.code !== 'number' ? error.message : ''}` });
    });
  });
}
