/**
 * A server under test, in its own process: started from a script, ready once it prints its port,
 * stopped with SIGTERM. The load generator and the measuring script are other processes, so the
 * server's CPU (read from /proc) is its own.
 *
 * Protocol of the scripts in bench/servers/: listen on 127.0.0.1 (port 0 unless told), then print
 * `listening <port>` on stdout (see `announce`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { pinned } from './cpu.ts';
import { nodeScript } from './node.ts';

/** A started server process. */
export interface RunningServer {
  /** Label used in errors. */
  readonly name: string;
  readonly pid: number;
  readonly port: number;
  readonly child: ChildProcess;
  /** `http://127.0.0.1:<port><path>` */
  url(path: string): string;
  /** Writes one line to the server's stdin (scripts that take commands). */
  send(line: string): void;
  /** The next stdout line that matches, within `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** SIGTERM, then SIGKILL after 5 s; resolves once the process has exited. */
  stop(): Promise<void>;
}

// A benchmark that fails half-way must not leave servers behind: kill what is still running at exit.
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Options of {@link startProcess}. */
export interface StartOptions {
  name: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** The stdout line that says the process is ready; group 1 is the port, if any. Default `listening <port>`. */
  ready?: RegExp;
  /** How long to wait for it (default 120 s). */
  timeoutMs?: number;
  /**
   * Where it runs when pinning is on (see cpu.ts): `'server'` (the default) on the servers' core,
   * `'load'` on the load generator's (a process that drives a server, such as websocket clients),
   * `false` on any core.
   */
  pin?: 'server' | 'load' | false;
}

/** Starts a bench/servers script with `node` and waits for its port. */
export function startServer(script: string, args: readonly string[], options: StartOptions): Promise<RunningServer> {
  const [command, argv] = nodeScript(script, args);
  return startProcess(command, argv, options);
}

/** Starts any command that serves HTTP and waits for the line naming its port. */
export async function startProcess(command: string, args: readonly string[], options: StartOptions): Promise<RunningServer> {
  // taskset execs the command, so the child's pid (whose CPU time is read from /proc) is the server's.
  const [file, argv] = options.pin === false ? [command, [...args]] : pinned(command, args, options.pin ?? 'server');
  const child = spawn(file, argv, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const waiters = new Set<(line: string) => void>();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    for (const w of waiters) w(line);
  });
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', () => running.delete(child));
  const waitFor = (pattern: RegExp, timeoutMs = 120_000): Promise<RegExpExecArray> =>
    new Promise((resolve, reject) => {
      const done = (error?: Error, match?: RegExpExecArray): void => {
        clearTimeout(timer);
        waiters.delete(onLine);
        child.off('exit', onExit);
        if (error) reject(error);
        else resolve(match!);
      };
      const onLine = (line: string): void => {
        const match = pattern.exec(line);
        if (match) done(undefined, match);
      };
      const onExit = (code: number | null, signal: string | null): void =>
        done(new Error(`${options.name} exited (${signal ?? `code ${code}`}) before printing ${pattern}:\n${stderr}`));
      const timer = setTimeout(() => done(new Error(`${options.name}: no line matching ${pattern} within ${timeoutMs} ms:\n${stderr}`)), timeoutMs);
      waiters.add(onLine);
      child.once('exit', onExit);
    });
  const match = await waitFor(options.ready ?? /^listening (\d+)$/, options.timeoutMs);
  const port = Number(match[1] ?? 0);
  return {
    name: options.name,
    pid: child.pid!,
    port,
    child,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    send: (line) => void child.stdin!.write(`${line}\n`),
    waitFor,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(kill);
    },
  };
}

/** Stops every server, even when some fail to stop. */
export async function stopAll(servers: readonly (RunningServer | undefined)[]): Promise<void> {
  await Promise.allSettled(servers.map((s) => s?.stop()));
}

/** For server scripts: prints the line {@link startServer} waits for. */
export function announce(server: Server): void {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
}
