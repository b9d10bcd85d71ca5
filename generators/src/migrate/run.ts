import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { missingMigrations } from './applied.js';
import { MigrateError } from './errors.js';
import type { PrismaInvocation } from './plan.js';
import { snapshotSqlite } from './snapshot.js';
import { trialRunPostgres } from './trial.js';

/** What a finished Prisma run printed (empty when it ran on the terminal). */
export interface PrismaResult {
  /** The bind it ran for. */
  bind: string;
  /** Standard output (captured in non-interactive runs). */
  stdout: string;
  /** Standard error (captured in non-interactive runs). */
  stderr: string;
  /**
   * `status` only: the migrations the database has applied that `prisma/<bind>/migrations` has no
   * folder for (Prisma's status calls that "up to date"); empty when there are none.
   */
  missing?: string[];
}

/**
 * The project's Prisma CLI: `node_modules/.bin/prisma` in `cwd` or the nearest folder above it
 * (as npm's own bin lookup does). Throws naming the install command when there is none.
 */
export function findPrismaBinary(cwd: string): string {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', '.bin', 'prisma');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) break;
  }
  throw new MigrateError(`prisma CLI not found in node_modules/.bin of ${cwd} or above; install it: npm install --save-dev --save-exact prisma@7`);
}

/**
 * Runs one Prisma CLI invocation from {@link migrateCommandPlan} with the project's own
 * `prisma` binary. Interactive runs share the terminal (Prisma's prompts work); others capture
 * the output. With `invocation.snapshot` the SQLite file is copied aside first and restored when
 * Prisma fails; with `invocation.trial` the pending PostgreSQL migrations are trial-run in a
 * rolled-back transaction first. Either way a failed migration leaves the database untouched.
 * A non-zero exit throws a {@link MigrateError} naming the bind, the command and Prisma's own
 * error message; so does a bind without `prisma/<bind>/prisma.config.ts` (no `fw migrate init` yet),
 * before Prisma runs.
 */
export async function runPrisma(invocation: PrismaInvocation, options: { binary?: string } = {}): Promise<PrismaResult> {
  let binary: string;
  try {
    binary = options.binary ?? findPrismaBinary(invocation.cwd);
  } catch (error) {
    throw new MigrateError(`bind "${invocation.bind}": ${(error as Error).message}`, { bind: invocation.bind, cause: error });
  }
  const config = path.posix.join('prisma', invocation.bind, 'prisma.config.ts');
  if (!existsSync(path.join(invocation.cwd, config))) {
    throw new MigrateError(
      `bind "${invocation.bind}": ${config} not found, so this bind has no migration environment yet. ` +
        'Run "npx fw migrate init" to write it (a bind added to DATABASE_BINDS in fw.json later gets its own with ' +
        '"npx fw generate"; environments are written for the binds of fw.json, so name a bind there too, even when ' +
        'an ini file or the environment gives its URL)',
      { bind: invocation.bind },
    );
  }
  if (invocation.trial) await trialRunPostgres(invocation.bind, invocation.cwd, invocation.trial);
  const snapshot = invocation.snapshot ? await snapshotSqlite(invocation.snapshot) : undefined;
  try {
    const result = await spawnPrisma(binary, invocation);
    await snapshot?.discard();
    if (invocation.applied !== undefined) result.missing = await missingMigrations(invocation.bind, invocation.cwd, invocation.applied);
    return result;
  } catch (error) {
    await snapshot?.restore();
    throw error;
  }
}

function spawnPrisma(binary: string, invocation: PrismaInvocation): Promise<PrismaResult> {
  const command = `prisma ${invocation.argv.join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn(binary, invocation.argv, {
      cwd: invocation.cwd,
      env: { ...process.env, ...invocation.env },
      stdio: invocation.interactive ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) => {
      reject(new MigrateError(`bind "${invocation.bind}": could not start ${command}: ${error.message}`, { bind: invocation.bind, cause: error }));
    });
    child.on('close', (code, signal) => {
      if (code === 0) {
        resolve({ bind: invocation.bind, stdout, stderr });
        return;
      }
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const detail = invocation.interactive ? 'see Prisma\'s output above' : prismaMessage(stdout, stderr);
      reject(new MigrateError(`bind "${invocation.bind}": ${command} ${how}: ${detail}`, { bind: invocation.bind }));
    });
  });
}

/**
 * Runs invocations one after another (binds never migrate concurrently) and stops at the first
 * failure, whose error names its bind; binds before it stay migrated.
 */
export async function runPrismaAll(invocations: readonly PrismaInvocation[], options: { binary?: string } = {}): Promise<PrismaResult[]> {
  const results: PrismaResult[] = [];
  for (const invocation of invocations) results.push(await runPrisma(invocation, options));
  return results;
}

/** Prisma's own explanation: from its `Error:` line on (stderr first), else the last lines it printed. */
function prismaMessage(stdout: string, stderr: string): string {
  const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');
  for (const text of [plain(stderr), plain(stdout)]) {
    const at = text.search(/^Error:/m);
    if (at !== -1) return text.slice(at).trim();
  }
  const tail = plain(`${stdout}\n${stderr}`).trim().split('\n').slice(-8).join('\n');
  return tail || '(Prisma printed nothing)';
}
