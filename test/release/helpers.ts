/**
 * A user of the local registry (test/support/registry-setup.ts): runs npm and the app the way the
 * README's quick start says, in a folder outside this checkout.
 */
import { spawn, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { freePort, sh } from '../support/process.js';
import type { ProvidedRegistry } from '../support/registry-setup.js';

/** The run's registry, with every fw package published at the checkout's version. */
export function registry(): ProvidedRegistry {
  return inject('fwRegistry');
}

/** The version every fw package was published at. */
export function fwVersion(): string {
  const cli = registry().published.find((p) => p.name === '@fw/cli');
  if (!cli) throw new Error('@fw/cli was not published');
  return cli.version;
}

/** A user's shell: the registry's npm settings, and optionally another Node first on PATH. */
export interface User {
  env: NodeJS.ProcessEnv;
  /** Runs a command to completion in `cwd`; throws with its output when it fails. */
  run: (command: string, args: string[], cwd: string, ok?: number[]) => SpawnSyncReturns<string>;
}

/** A user of the registry; `nodeBin` (a node binary) goes first on PATH, so npm and the app run on it. */
export function user(nodeBin?: string): User {
  const env: NodeJS.ProcessEnv = { ...registry().env };
  if (nodeBin !== undefined) env.PATH = `${path.dirname(nodeBin)}${path.delimiter}${env.PATH ?? ''}`;
  return { env, run: (command, args, cwd, ok = [0]) => sh(command, args, cwd, 600_000, ok, env) };
}

/** A new folder outside the checkout. */
export function workDir(label: string): Promise<string> {
  return mkdtemp(path.join(tmpdir(), `fw-release-${label}-`));
}

/** Total bytes of the files under `dir` (what `du --apparent-size` counts). */
export function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/** The package names installed under `node_modules` (scoped ones as `@scope/name`). */
export function installedPackages(root: string): string[] {
  const lock = JSON.parse(readFileSync(path.join(root, 'node_modules/.package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
  return Object.keys(lock.packages)
    .filter((key) => key.startsWith('node_modules/'))
    .map((key) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length));
}

/** A server started by {@link startServer}. */
export interface RunningServer {
  base: string;
  output: () => string;
  /** Waits until the output matches `line` (e.g. a request log line, which comes after the response); throws with the output after 30 s. */
  waitForOutput: (line: RegExp) => Promise<void>;
  /** SIGTERM to the whole process group (npm and the node it started); resolves with the exit code. */
  stop: () => Promise<number | null>;
}

/**
 * Starts `command` (e.g. `npm start`) in its own process group with `PORT` set to a free port and
 * waits until GET `path` answers (any status). Throws with the output if it exits or does not
 * answer within two minutes.
 */
export async function startServer(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, probe = '/'): Promise<RunningServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(command, args, { cwd, env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    return exited;
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited (${child.exitCode}) before serving:\n${output}`);
    try {
      await fetch(`${base}${probe}`);
      const waitForOutput = async (line: RegExp): Promise<void> => {
        for (const until = Date.now() + 30_000; !line.test(output); await new Promise((resolve) => setTimeout(resolve, 100))) {
          if (Date.now() > until) throw new Error(`${command} ${args.join(' ')} never printed ${line}:\n${output}`);
        }
      };
      return { base, output: () => output, waitForOutput, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${command} ${args.join(' ')} did not answer ${base}${probe} within 120 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
