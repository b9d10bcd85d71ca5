import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseCommandArgs } from '../cli/args.js';
import { CliError } from '../cli/errors.js';
import type { CommandIO } from '../cli/io.js';
import { findProjectRoot } from '../project.js';

/** Usage text of `fw run`. */
export const help = `Usage: fw run [options]

Serves the app: loads fluid/app.ts (TypeScript, through tsx), takes its default export (a Fluid)
and serves it with the kernel installed in the project's own node_modules. SIGINT / SIGTERM
shut it down gracefully (shutdown hooks run).

Options:
  --port <n>    port to listen on (default: PORT from the environment or config, else 8000; 0 = any free port)
  --host <h>    interface to listen on (default: HOST from config, else 127.0.0.1)
  --watch       restart when fluid/, additives/, app_configs/ or fw.json change
  -h, --help    show this help

Examples:
  npx fw run
  npx fw run --port 3000 --watch`;

/** The app entry, relative to the project root. */
export const APP_ENTRY = 'fluid/app.ts';

/** What the CLI needs from `@fw/kernel` (the kernel's own types are not imported: see docs/architecture.md). */
interface KernelModule {
  Fluid: abstract new (...args: never[]) => object;
  serve: (fluid: object, options: { port?: number; host?: string }) => Promise<unknown>;
}

function isKernelModule(value: unknown): value is KernelModule {
  const module = value as Partial<Record<string, unknown>> | null;
  return typeof module?.Fluid === 'function' && typeof module.serve === 'function';
}

/** Options of {@link serveProject}. */
export interface ServeOptions {
  port?: number;
  host?: string;
}

/**
 * Resolves `@fw/kernel` from the PROJECT (its node_modules), never from the CLI, so the app and
 * `fw run` always use the same kernel. Throws a {@link CliError} when it is not installed.
 */
export function resolveKernel(root: string): string {
  try {
    return createRequire(path.join(root, 'package.json')).resolve('@fw/kernel');
  } catch {
    throw new CliError(`@fw/kernel is not installed in ${root}: run "npm install" there first.`);
  }
}

/** Loads `fluid/app.ts` with tsx and serves its default export with the project's kernel `serve`. */
export async function serveProject(root: string, options: ServeOptions): Promise<void> {
  const entry = path.join(root, APP_ENTRY);
  if (!existsSync(entry)) throw new CliError(`${APP_ENTRY} not found in ${root}: it creates the app (export default fluid).`);
  const kernelPath = resolveKernel(root);
  const { register } = await import('tsx/esm/api');
  register();
  const kernel: unknown = await import(pathToFileURL(kernelPath).href);
  if (!isKernelModule(kernel)) throw new CliError(`${kernelPath} does not export Fluid and serve: is @fw/kernel up to date?`);
  const app = (await import(pathToFileURL(entry).href)) as { default?: unknown };
  if (!(app.default instanceof kernel.Fluid)) {
    throw new CliError(`${APP_ENTRY} must "export default" a Fluid created with @fw/kernel (got ${describe(app.default)}).`);
  }
  // serve() handles SIGINT / SIGTERM itself: graceful close, shutdown hooks, exit 0.
  const serveOptions: { port?: number; host?: string } = {};
  if (options.port !== undefined) serveOptions.port = options.port;
  if (options.host !== undefined) serveOptions.host = options.host;
  await kernel.serve(app.default, serveOptions);
}

function describe(value: unknown): string {
  if (value === undefined) return 'no default export';
  if (typeof value === 'object' && value !== null) return `an instance of ${value.constructor.name}`;
  return typeof value;
}

function parsePort(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535) throw new CliError(`--port: got ${JSON.stringify(raw)}; expected an integer from 0 to 65535`);
  return port;
}

/** Top-level entries of the project whose changes restart the app under --watch. */
export const WATCHED = ['fluid', 'additives', 'app_configs', 'fw.json'] as const;

/**
 * Watch mode: runs `fw run` (without --watch) as a child and restarts it, after a short debounce,
 * whenever something under {@link WATCHED} changes. SIGINT / SIGTERM stop the child gracefully,
 * then the watcher.
 */
export async function watchProject(root: string, childArgs: string[], io: CommandIO): Promise<number> {
  const fwBin = fileURLToPath(new URL('../bin/fw.js', import.meta.url));
  let child: ChildProcess | undefined;
  let stopping = false;
  let restarting = false;
  const start = (): void => {
    // Its own process group: a terminal Ctrl-C reaches only this watcher, which then stops the
    // app with exactly one signal (a second signal makes serve() exit at once, skipping hooks).
    child = spawn(process.execPath, [fwBin, 'run', ...childArgs], { cwd: root, stdio: 'inherit', env: io.env, detached: true });
    const current = child;
    current.on('exit', (code, signal) => {
      if (current === child && !stopping && !restarting) {
        io.stderr.write(`fw run: the app exited (${signal ?? `code ${code}`}); waiting for changes to restart it.\n`);
      }
    });
  };
  const stopChild = async (): Promise<void> => {
    const current = child;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      current.once('exit', () => resolve());
      // One signal only: a second one makes serve() exit at once, skipping the shutdown hooks.
      if (!current.killed) current.kill('SIGTERM');
    });
  };
  let timer: NodeJS.Timeout | undefined;
  // Restarts run one after another, so two changes in a row never start two apps.
  let cycle: Promise<void> = Promise.resolve();
  const restart = (changed: string): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      cycle = cycle.then(async () => {
        if (stopping) return;
        restarting = true;
        io.stdout.write(`fw run: ${changed} changed, restarting\n`);
        await stopChild();
        restarting = false;
        if (!stopping) start();
      });
    }, 150);
  };

  const watchers = new Map<string, FSWatcher>();
  const attach = (name: string): void => {
    const target = path.join(root, name);
    if (name === 'fw.json' || watchers.has(name) || !existsSync(target)) return;
    const watcher = watch(target, { recursive: true }, (_event, file) => restart(path.posix.join(name, String(file ?? ''))));
    watcher.on('error', () => {
      watcher.close();
      watchers.delete(name);
    });
    watchers.set(name, watcher);
  };
  for (const name of WATCHED) attach(name);
  // The root itself, shallowly: fw.json, and watched folders that appear later.
  const rootWatcher = watch(root, (_event, file) => {
    const name = String(file ?? '');
    if (name === 'fw.json') restart(name);
    else if ((WATCHED as readonly string[]).includes(name)) {
      attach(name);
      restart(name);
    }
  });

  start();
  process.once('exit', () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });
  return new Promise<number>((resolve) => {
    const shutdown = (): void => {
      if (stopping) return;
      stopping = true;
      clearTimeout(timer);
      rootWatcher.close();
      for (const watcher of watchers.values()) watcher.close();
      void stopChild().then(() => resolve(0));
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  });
}

/** `fw run`. Returns the exit code (the process keeps running while the server is up). */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('fw run', argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    watch: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(`${help}\n`);
    return 0;
  }
  if (positionals.length > 0) throw new CliError(`fw run: unexpected argument ${positionals.join(' ')}. Run "fw run --help" for usage.`);
  const port = parsePort(values.port);
  if (values.host !== undefined && values.host.trim() === '') throw new CliError('--host: got an empty string; expected a host name or IP address');
  const root = await findProjectRoot(io.cwd);
  if (values.watch) {
    const childArgs = [...(values.port === undefined ? [] : ['--port', values.port]), ...(values.host === undefined ? [] : ['--host', values.host])];
    return watchProject(root, childArgs, io);
  }
  const options: ServeOptions = {};
  if (port !== undefined) options.port = port;
  if (values.host !== undefined) options.host = values.host;
  await serveProject(root, options);
  return 0;
}
