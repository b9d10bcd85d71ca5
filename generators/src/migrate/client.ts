/**
 * The generated Prisma clients of a project (`generated/prisma/<bind>/`, git-ignored output of
 * `prisma/<bind>/schema.prisma`): which binds have one to generate, which are missing or older
 * than their schema, and generating them with the project's own Prisma CLI. `fw build` generates
 * every one; `fw dev`, `fw test` and `fw typecheck` only the missing or stale ones, so a fresh
 * clone runs its scripts without an earlier `fw migrate dev`.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { CliError } from '../cli/errors.js';
import type { CommandIO } from '../cli/io.js';

/** The binds with a migration environment (`prisma/<bind>/prisma.config.ts`), sorted. */
export async function prismaBinds(root: string): Promise<string[]> {
  const entries = await readdir(path.join(root, 'prisma'), { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isDirectory() && existsSync(path.join(root, 'prisma', entry.name, 'prisma.config.ts')))
    .map((entry) => entry.name)
    .sort();
}

/** A bind whose client must be generated, and why (for the message line). */
export interface StaleClient {
  bind: string;
  /** E.g. `generated/prisma/main was missing`, `generated/prisma/main was older than prisma/main/schema.prisma`. */
  reason: string;
}

/**
 * The project-relative (posix) output folder of the schema's `prisma-client` generator, if it has
 * one: its `output`, resolved from the schema's folder as Prisma does, wherever it points. Other
 * generators (an ERD, `prisma-client-js`) write no `client.ts` to compare, so they are not it.
 */
function clientDir(root: string, bind: string, schema: string): string | undefined {
  for (const block of schema.matchAll(/^\s*generator\s+\w+\s*\{([^}]*)\}/gm)) {
    if (/^\s*provider\s*=\s*"([^"]+)"/m.exec(block[1]!)?.[1] !== 'prisma-client') continue;
    const output = /^\s*output\s*=\s*"([^"]+)"/m.exec(block[1]!)?.[1];
    if (output) return path.relative(root, path.resolve(root, 'prisma', bind, output)).split(path.sep).join('/');
  }
  return undefined;
}

/**
 * The binds whose client is missing or older than its schema: the client's entry
 * (`<output>/client.ts`, which `prisma generate` rewrites each time) is compared by modification
 * time with `prisma/<bind>/schema.prisma` (a `git pull` or an edit of the schema touches it). Two
 * `stat`s per bind, so the normal path (every client current) costs nothing noticeable.
 */
export async function staleClients(root: string): Promise<StaleClient[]> {
  const stale: StaleClient[] = [];
  for (const bind of await prismaBinds(root)) {
    const schemaFile = path.join(root, 'prisma', bind, 'schema.prisma');
    const schema = await readFile(schemaFile, 'utf8').catch(() => undefined);
    if (schema === undefined) continue;
    const dir = clientDir(root, bind, schema);
    if (dir === undefined || dir.startsWith('..')) continue;
    const client = await stat(path.join(root, dir, 'client.ts')).catch(() => undefined);
    if (!client) stale.push({ bind, reason: `${dir} was missing` });
    else if (client.mtimeMs < (await stat(schemaFile)).mtimeMs) stale.push({ bind, reason: `${dir} was older than prisma/${bind}/schema.prisma` });
  }
  return stale;
}

/** Runs a command in `cwd` with its output passed to `io`; rejects naming it (as `label`) on failure. */
export function runStep(command: string, args: string[], cwd: string, io: CommandIO, name: string, label = [command, ...args].join(' ')): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: io.env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => io.stdout.write(chunk));
    child.stderr.on('data', (chunk: Buffer) => io.stderr.write(chunk));
    child.on('error', (error) => reject(new CliError(`${name}: cannot run ${command}: ${error.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new CliError(`${name}: "${label}" failed (${signal ?? `exit ${code}`}) in ${cwd}.`));
    });
  });
}

/**
 * Generates the Prisma client of each of `binds` (`prisma generate --config
 * prisma/<bind>/prisma.config.ts`) with the project's Prisma CLI. `name` is the command the errors
 * name (`fw build`); a missing CLI is a {@link CliError} with the install command.
 */
export async function generateClients(root: string, binds: readonly string[], io: CommandIO, name: string): Promise<void> {
  if (binds.length === 0) return;
  const { findPrismaBinary } = await import('./run.js');
  let binary: string;
  try {
    binary = findPrismaBinary(root);
  } catch (error) {
    const why = name === 'fw build' ? 'the build generates' : `${name} generates`;
    throw new CliError(`${name}: ${error instanceof Error ? error.message : String(error)} (${why} the Prisma client of ${binds.map((b) => `prisma/${b}`).join(', ')})`);
  }
  for (const bind of binds) {
    const config = `prisma/${bind}/prisma.config.ts`;
    await runStep(binary, ['generate', '--config', config], root, io, name, `prisma generate --config ${config}`);
  }
}

/**
 * Generates the clients {@link staleClients} finds, writing a line per client to `io.stderr`
 * (`fw dev: generated the Prisma client of prisma/main (generated/prisma/main was missing)`);
 * Prisma's own output goes there too. Returns the binds generated.
 *
 * Without the Prisma CLI it generates nothing and says so in a `warning:` line with the install
 * command, then lets the command go on: an app whose code does not import the client yet (a
 * schema rendered by `fw migrate init` or `fw make model`, no route using it) still runs and tests,
 * and one that does fails on the import right after the warning that explains it.
 */
export async function ensureClients(root: string, io: CommandIO, name: string): Promise<string[]> {
  const stale = await staleClients(root);
  if (stale.length === 0) return [];
  // Loaded only now: the usual run (every client current) stays as light as `fw run --help`.
  const { findPrismaBinary } = await import('./run.js');
  try {
    findPrismaBinary(root);
  } catch (error) {
    const why = stale.map(({ bind, reason }) => `prisma/${bind}: ${reason}`).join('; ');
    io.stderr.write(`warning: ${name}: ${error instanceof Error ? error.message : String(error)} (so the Prisma client is not generated: ${why})\n`);
    return [];
  }
  const quiet: CommandIO = { ...io, stdout: io.stderr };
  await generateClients(
    root,
    stale.map((s) => s.bind),
    quiet,
    name,
  );
  for (const { bind, reason } of stale) io.stderr.write(`${name}: generated the Prisma client of prisma/${bind} (${reason})\n`);
  return stale.map((s) => s.bind);
}
