/**
 * Node and npm for the frontend: the reference's `load_node`, `node_cmd`, `node_proc` and the
 * `fw node` passthrough.
 *
 * fw runs on Node, so `loadNode()` answers the running Node (`process.execPath`) and the npm
 * that ships with it; nothing is downloaded. To use a different Node, set `FW_NODE` to its
 * binary: its folder then leads `PATH` for every command, so `npm`, `npx` and `node` resolve to it.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname } from 'node:path';
import { NodeError } from './errors.js';

/** The Node runtime fw runs frontend commands with. */
export interface NodeRuntime {
  /** The `node` binary. */
  node: string;
  /** The folder put first on `PATH` (holds `node`, and `npm`/`npx` in a standard install). */
  binDir: string;
}

/** The running Node, or the binary named by `FW_NODE` (which must exist). */
export function loadNode(env: Readonly<Record<string, string | undefined>> = process.env): NodeRuntime {
  const chosen = env.FW_NODE;
  if (chosen) {
    if (!existsSync(chosen)) throw new NodeError(`FW_NODE names ${chosen}, which does not exist`, { command: [chosen], exitCode: null, output: '' });
    return { node: chosen, binDir: dirname(chosen) };
  }
  return { node: process.execPath, binDir: dirname(process.execPath) };
}

/** The environment frontend commands run with: the chosen Node's folder first on `PATH`. */
export function nodeEnv(runtime: NodeRuntime = loadNode(), base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...base, PATH: [runtime.binDir, base.PATH ?? ''].filter(Boolean).join(delimiter) };
}

/** Options of `nodeCmd`. */
export interface NodeCmdOptions {
  /** Extra environment variables. */
  env?: Readonly<Record<string, string>>;
  /** Echo the output to this process's stdout/stderr as well as capturing it. Default false. */
  echo?: boolean;
}

/**
 * Runs a Node/npm command (e.g. `['npm', 'run', 'build', '--workspaces']`) in `cwd` and waits.
 * Answers its output; throws `NodeError` (with the command's own output) on a non-zero exit.
 */
export function nodeCmd(cmd: readonly string[], cwd: string, options: NodeCmdOptions = {}): Promise<string> {
  if (cmd.length === 0) return Promise.reject(new NodeError('nodeCmd(): the command is empty', { command: [], exitCode: null, output: '' }));
  return new Promise((resolvePromise, reject) => {
    const child = nodeProc(cmd, cwd, { env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    const collect = (stream: NodeJS.WritableStream) => (chunk: Buffer) => {
      chunks.push(chunk);
      if (options.echo) stream.write(chunk);
    };
    child.stdout?.on('data', collect(process.stdout));
    child.stderr?.on('data', collect(process.stderr));
    child.once('error', (err) =>
      reject(new NodeError(`Cannot run '${cmd.join(' ')}' in ${cwd}: ${err.message}`, { command: cmd, exitCode: null, output: '', cause: err })),
    );
    child.once('close', (code) => {
      const output = Buffer.concat(chunks).toString('utf8');
      if (code === 0) return resolvePromise(output);
      const tail = output.trim().split('\n').slice(-40).join('\n');
      reject(new NodeError(`'${cmd.join(' ')}' failed in ${cwd} (exit ${code ?? 'signal'}):\n${tail}`, { command: cmd, exitCode: code, output }));
    });
  });
}

/** Options of `nodeProc`: spawn options, with `env` merged over the Node environment. */
export interface NodeProcOptions extends Omit<SpawnOptions, 'env' | 'cwd'> {
  /** Variables set over the process's own environment. */
  env?: Readonly<Record<string, string>> | undefined;
}

/** Spawns a long-lived Node/npm process in `cwd` with the chosen Node first on `PATH`. */
export function nodeProc(cmd: readonly string[], cwd: string, options: NodeProcOptions = {}): ChildProcess {
  const [file, ...args] = cmd;
  if (!file) throw new NodeError('nodeProc(): the command is empty', { command: [], exitCode: null, output: '' });
  const runtime = loadNode();
  const bin = file === 'node' ? runtime.node : file;
  return spawn(bin, args, { stdio: 'inherit', ...options, cwd, env: { ...nodeEnv(runtime), ...options.env } });
}

/**
 * The `fw node <cmd...>` passthrough: runs the command with the terminal attached and answers
 * its exit code. `fw node npm install`, `fw node node --version`.
 */
export function nodeCli(args: readonly string[], cwd: string = process.cwd()): Promise<number> {
  if (args.length === 0) return Promise.reject(new NodeError('fw node: name a command, e.g. fw node npm install', { command: [], exitCode: null, output: '' }));
  return new Promise((resolvePromise, reject) => {
    const child = nodeProc(args, cwd, { stdio: 'inherit' });
    child.once('error', (err) =>
      reject(new NodeError(`fw node: cannot run '${args.join(' ')}': ${err.message}`, { command: args, exitCode: null, output: '', cause: err })),
    );
    child.once('close', (code) => resolvePromise(code ?? 1));
  });
}
