import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseCommandArgs } from '../cli/args.js';
import { CliError } from '../cli/errors.js';
import type { CommandIO } from '../cli/io.js';
import { failureReport } from '../cli/main.js';
import { devParentPid, tellDev, underDev, type DevAddress } from '../dev/messages.js';
import { ensureClients } from '../migrate/client.js';
import { findProjectRoot } from '../project.js';

/** Usage text of `fw run`. */
export const help = `Usage: fw run [options]

Serves the app: loads fluid/app.ts (TypeScript, through tsx), takes its default export (a Fluid)
and serves it with the kernel installed in the project's own node_modules. SIGINT / SIGTERM
shut it down gracefully (shutdown hooks run).

Options:
  --port <n>    port to listen on (default: PORT from the environment or config, else 8000; 0 = any free port)
  --host <h>    interface to listen on (default: HOST from config, else 127.0.0.1)
  --watch       the dev loop (same as fw dev): FW_ENV=development (DEBUG on unless set),
                server code changes restart the app, template and static changes reload the
                browser, frontend changes go to Vite's HMR (npx fw docs dev)
  -h, --help    show this help

Examples:
  npx fw run
  npx fw run --port 3000 --watch`;

/** Usage text of \`fw dev\`. */
export const devHelp = `Usage: fw dev [options]

The dev loop (what "npm run dev" runs; the same as fw run --watch). Runs the app with
FW_ENV=development, so DEBUG is on unless fw.json, the ini or the environment set it, and:
  - server code (fluid/**/*.ts, additives/*/**/*.ts, manifest.json), fw.json, app_configs/*.ini
    and .env changes restart the app;
  - template and static changes reload the browser without a restart (Tailwind recompiles
    first when FW_TAILWIND is on);
  - frontend workspace changes (fluid/frontend/**, additives/*/frontend/**) go to Vite's HMR;
  - compiled output, .fw/, temp files and node_modules are ignored;
  - while the app cannot start (or has exited), its address answers 503 with the error the
    terminal shows: a page for a browser, which reloads once the app is back.

Options:
  --port <n>    port to listen on (default: PORT from the environment or config, else 8000)
  --host <h>    interface to listen on (default: HOST from config, else 127.0.0.1)
  -h, --help    show this help`;

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

/**
 * Loads `fluid/app.ts` with tsx and serves its default export with the project's kernel `serve`;
 * resolves to the URL it serves at, when the kernel says.
 */
export async function serveProject(root: string, options: ServeOptions): Promise<string | undefined> {
  const entry = path.join(root, APP_ENTRY);
  if (!existsSync(entry)) throw new CliError(`${APP_ENTRY} not found in ${root}: it creates the app (export default fluid).`);
  const kernelPath = resolveKernel(root);
  const { register } = await import('tsx/esm/api');
  register();
  const kernel: unknown = await import(pathToFileURL(kernelPath).href);
  if (!isKernelModule(kernel)) throw new CliError(`${kernelPath} does not export Fluid and serve: is @fw/kernel up to date?`);
  let app: { default?: unknown };
  try {
    app = (await import(pathToFileURL(entry).href)) as { default?: unknown };
  } catch (error) {
    // A merge left conflict markers in a source file: name the file and line, not a parse error.
    const marker = await findSourceConflict(root);
    if (marker) throw new CliError(`${marker}: unresolved merge conflict marker; resolve the conflict and save the file (the app cannot load until then).`);
    throw error;
  }
  if (!(app.default instanceof kernel.Fluid)) {
    throw new CliError(`${APP_ENTRY} must "export default" a Fluid created with @fw/kernel (got ${describe(app.default)}).`);
  }
  // serve() handles SIGINT / SIGTERM itself: graceful close, shutdown hooks, exit 0.
  const serveOptions: { port?: number; host?: string } = {};
  if (options.port !== undefined) serveOptions.port = options.port;
  if (options.host !== undefined) serveOptions.host = options.host;
  const fluid = app.default;
  let served: unknown;
  try {
    served = await kernel.serve(fluid, serveOptions);
  } catch (error) {
    // The app had started (its plugins; under fw dev the live reload's IPC listener) when listen
    // failed: close it, or this process would wait forever instead of exiting.
    if (hasClose(fluid)) await fluid.close().catch(() => undefined);
    const code = error instanceof Error ? (error.cause as { code?: unknown } | undefined)?.code : undefined;
    if (code === 'EADDRINUSE' && error instanceof Error) {
      throw new CliError(`${error.message}: another process (another "npm run dev"?) listens there. Stop it, or choose another port with --port <n> or PORT=<n>.`);
    }
    throw error;
  }
  // Under fw dev: if fw dev dies without stopping the app (killed), the IPC channel closes; stop
  // then too, or the app would go on serving with nothing watching it. Killed while the app
  // loaded, the channel is closed already. Another parent's channel (a process manager's fork(),
  // a test runner) is none of fw's business.
  const dev = devParentPid();
  if (dev !== undefined) {
    const stop = (): void => {
      process.stderr.write(`fw run: fw dev (pid ${dev}), which ran this app, has exited; stopping the app\n`);
      process.kill(process.pid, 'SIGTERM');
    };
    if (process.connected) process.once('disconnect', stop);
    else stop();
  }
  const url = (served as { url?: unknown } | undefined)?.url;
  return typeof url === 'string' ? url : undefined;
}

/**
 * {@link serveProject}, telling `fw dev` (when it runs this process) where the app serves, or,
 * when it cannot start, what the terminal says about it and where it would have listened: `fw dev`
 * then answers there with that error until the app starts again (docs/dev.md).
 */
async function serveUnderDev(root: string, options: ServeOptions, io: CommandIO): Promise<void> {
  let url: string | undefined;
  try {
    url = await serveProject(root, options);
  } catch (error) {
    if (underDev()) await tellDev({ type: 'fw:failed', report: failureReport(error, io.cwd), address: await intendedAddress(root, options, io.env) });
    throw error;
  }
  if (url !== undefined) await tellDev({ type: 'fw:serving', url });
}

/**
 * Where the app would listen: `--port`/`--host`, else its config's `PORT`/`HOST`; when the config
 * cannot be read (it may be what failed), the environment's `PORT`/`HOST`, else fw's defaults.
 */
async function intendedAddress(root: string, options: ServeOptions, env: NodeJS.ProcessEnv): Promise<DevAddress> {
  try {
    const kernel = (await import(pathToFileURL(resolveKernel(root)).href)) as { loadConfig?: unknown };
    if (typeof kernel.loadConfig === 'function') {
      const config = (kernel.loadConfig as (options: { root: string; requireSecretKey: boolean }) => { PORT?: unknown; HOST?: unknown })({ root, requireSecretKey: false });
      if (typeof config.PORT === 'number' && typeof config.HOST === 'string') {
        return { host: options.host ?? config.HOST, port: options.port ?? config.PORT, from: 'config' };
      }
    }
  } catch {
    // The config is invalid or unreadable: the environment and the defaults below.
  }
  const { configDefaults } = await import('@fw/schemas');
  const defaults = configDefaults();
  const envPort = env.PORT !== undefined && /^\d+$/.test(env.PORT) && Number(env.PORT) <= 65535 ? Number(env.PORT) : undefined;
  return {
    host: options.host ?? (env.HOST?.trim() || String(defaults.HOST)),
    port: options.port ?? envPort ?? Number(defaults.PORT),
    from: options.port !== undefined && options.host !== undefined ? 'config' : 'default',
  };
}

function hasClose(value: object): value is { close(): Promise<void> } {
  return typeof (value as { close?: unknown }).close === 'function';
}

const SOURCE = /\.(?:[cm]?[jt]s|tsx|jsx)$/;
const SKIPPED = new Set(['node_modules', 'frontend', 'dist', 'static', 'templates']);

/** `<file>:<line>` of the first conflict marker in the server sources (fluid/, additives/), if any. */
async function findSourceConflict(root: string): Promise<string | undefined> {
  const walk = async (rel: string): Promise<string | undefined> => {
    let entries;
    try {
      entries = await readdir(path.join(root, rel), { withFileTypes: true });
    } catch {
      return undefined;
    }
    for (const entry of entries) {
      const child = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) {
        if (SKIPPED.has(entry.name) || entry.name.startsWith('.')) continue;
        const found = await walk(child);
        if (found) return found;
      } else if (entry.isFile() && SOURCE.test(entry.name)) {
        const lines = (await readFile(path.join(root, child), 'utf8')).split(/\r?\n/);
        const line = lines.findIndex((l) => /^(?:<{7}|>{7}|\|{7})(?: |$)/.test(l));
        if (line >= 0) return `${child}:${line + 1}`;
      }
    }
    return undefined;
  };
  return (await walk('fluid')) ?? (await walk('additives'));
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

/** `fw run`. Returns the exit code (the process keeps running while the server is up). */
export function run(argv: string[], io: CommandIO): Promise<number> {
  return runCommand('fw run', argv, io);
}

/** `fw dev`: `fw run --watch`. */
export function runDev(argv: string[], io: CommandIO): Promise<number> {
  return runCommand('fw dev', argv, io);
}

async function runCommand(name: 'fw run' | 'fw dev', argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(name, argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    ...(name === 'fw run' ? { watch: { type: 'boolean' as const } } : {}),
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(`${name === 'fw run' ? help : devHelp}\n`);
    return 0;
  }
  if (positionals.length > 0) throw new CliError(`${name}: unexpected argument ${positionals.join(' ')}. Run "${name} --help" for usage.`);
  const port = parsePort(values.port);
  if (values.host !== undefined && values.host.trim() === '') throw new CliError('--host: got an empty string; expected a host name or IP address');
  const root = await findProjectRoot(io.cwd);
  // The app imports the git-ignored generated/prisma/<bind>/: a fresh clone has none yet. The
  // dev loop does it once before its first start, not each app process it restarts.
  const watch = name === 'fw dev' || values.watch === true;
  // Not in the app fw dev runs (fw dev did it), nor in a worker of --workers (its primary did).
  // underDev() is asked here, before the app loads, so nothing the app starts inherits its marker.
  if (watch || (!underDev() && !cluster.isWorker)) await ensureClients(root, io, watch ? 'fw dev' : name);
  if (watch) {
    const childArgs = [...(values.port === undefined ? [] : ['--port', values.port]), ...(values.host === undefined ? [] : ['--host', values.host])];
    const { devProject } = await import('../dev/runner.js'); // chokidar loads only for the dev loop
    return devProject(root, io, { childArgs });
  }
  const options: ServeOptions = {};
  if (port !== undefined) options.port = port;
  if (values.host !== undefined) options.host = values.host;
  await serveUnderDev(root, options, io);
  return 0;
}
