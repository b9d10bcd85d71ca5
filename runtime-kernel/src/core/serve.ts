/**
 * `serve(fluid)`: what `npm start` (the compiled `fluid/server.ts`), `fw start` and `fw run` call.
 *
 * One process: listen, say which backend each plugin uses, print `fw: <app> serving at <url>`,
 * and on SIGTERM drain (readiness fails first, the servers stop accepting, in-flight requests
 * finish, the shutdown hooks run) and exit 0; SIGINT does the same without the drain; a second
 * signal exits 1 at once.
 *
 * With `workers` > 1 (`--workers N`, `WEB_CONCURRENCY`) the process becomes a node:cluster
 * primary that forks that many workers, each running the same entry script and serving the same
 * port (the primary hands out the connections). The primary restarts a worker that dies, and
 * on SIGTERM / SIGINT tells every worker to shut down as above, waits for all of them, then
 * exits. See `@fw/kernel/docs/deployment.md`.
 */
import cluster, { type Address, type Worker } from 'node:cluster';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportBackends } from './backends.js';
import type { FluidApp } from './context.js';
import { devParentPid } from './dev-parent.js';
import { ConfigError, FrameworkException } from './errors.js';
import { MissingPackageError } from './optional.js';

/** Options of `serve()`. */
export interface ServeOptions {
  /** Port; default the config's `PORT` (0 picks a free port). */
  port?: number;
  /** Interface; default the config's `HOST`. */
  host?: string;
  /** Worker processes on node:cluster; default the config's `WEB_CONCURRENCY` (1: no cluster). */
  workers?: number;
  /** Signals that trigger a graceful shutdown; default SIGINT and SIGTERM. `[]` installs none. */
  signals?: readonly NodeJS.Signals[];
  /** Exit the process after a signal-triggered shutdown (default true). */
  exit?: boolean;
  /** Where the "serving at" and backends lines go; default stdout. */
  print?: (line: string) => void;
}

/** A running server (a cluster primary has no server of its own: `server` is undefined). */
export interface Served {
  /** The listening HTTP server; `undefined` in a cluster's primary process. */
  readonly server: Server | undefined;
  /** `http://host:port` */
  readonly url: string;
  /** Worker processes serving (1 without a cluster). */
  readonly workers: number;
  /** Graceful stop: closes the app (or, in a primary, every worker) and removes the signal handlers. */
  close(): Promise<void>;
}

/** The IPC message a primary sends a worker to shut it down gracefully. */
interface ShutdownMessage {
  fw: 'shutdown';
  signal: NodeJS.Signals;
}

function isShutdownMessage(message: unknown): message is ShutdownMessage {
  return typeof message === 'object' && message !== null && (message as { fw?: unknown }).fw === 'shutdown';
}

/**
 * The `serve()` options given on a command line: `--workers N`, `--port N`, `--host H` (also as
 * `--workers=N`). Anything else is an error naming the argument, so a typo never goes unnoticed.
 *
 * ```ts
 * // fluid/server.ts
 * await serve(fluid, serveArgs(process.argv.slice(2)));
 * ```
 */
export function serveArgs(argv: readonly string[]): ServeOptions {
  // A bad argument is a ConfigError of the command line, so `startupFailed` prints it as one line.
  const bad = (path: string, line: string): ConfigError => new ConfigError(line, [{ source: 'command line', path, line }]);
  const options: ServeOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (name !== '--workers' && name !== '--port' && name !== '--host') {
      throw bad(arg, `unknown argument ${JSON.stringify(arg)}; expected --workers <n>, --port <n> or --host <interface>`);
    }
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || value === '') throw bad(name, `${name} needs a value`);
    if (name === '--host') {
      options.host = value;
      continue;
    }
    const n = Number(value);
    if (!/^\d+$/.test(value) || (name === '--workers' && n < 1) || (name === '--port' && n > 65535)) {
      const expected = name === '--workers' ? 'a whole number of worker processes, at least 1' : 'a port number 0-65535';
      throw bad(name, `${name}: got ${JSON.stringify(value)}; expected ${expected}`);
    }
    if (name === '--workers') options.workers = n;
    else options.port = n;
  }
  return options;
}

/**
 * What the production entry (`fluid/server.ts`) does with an error while the app loads or starts:
 * a mistake in what it was given (a `ConfigError`: a bad config key, a missing `SECRET_KEY`, an
 * unreadable `X_FILE`, a bad command-line argument; a port in use or not allowed; a file the
 * kernel must write on a read-only file system; an optional package the config needs and the
 * install lacks, `MissingPackageError`; a generated Prisma client the build lacks) is one
 * `error: <message>` line on stderr and exit status 1, as under `fw run`, not a stack trace of
 * the kernel's bundle. Anything else is thrown on, so Node prints its stack.
 *
 * In a worker of `--workers N`, such an error goes to the primary instead of stderr, and the
 * primary prints it as its own one line (once, however many workers hit it) and exits 1.
 *
 * ```ts
 * try {
 *   const { default: fluid } = await import('./app.js');
 *   await serve(fluid, serveArgs(process.argv.slice(2)));
 * } catch (err) {
 *   startupFailed(err);
 * }
 * ```
 */
export function startupFailed(err: unknown): never {
  const message = startupMistake(err);
  if (message !== undefined) {
    // A worker (all of them hit the same port or config) leaves the one line to its primary.
    if (cluster.isWorker && process.send) {
      // Exits once the message is on its way: it would be lost if the process exited before.
      process.send({ fw: 'startup-failed', message } satisfies StartupFailedMessage, () => process.exit(1));
      return undefined as never;
    }
    process.stderr.write(`error: ${message}\n`);
    process.exit(1);
  }
  throw err;
}

/** The one line {@link startupFailed} prints for `err`, or `undefined` when its stack is wanted. */
function startupMistake(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  // fluid.listen() wraps the system error (`Cannot listen on 127.0.0.1:8000: EADDRINUSE`).
  const code = ((err.cause ?? err) as { code?: unknown }).code;
  // A file the kernel had to write and the file system refused (a read-only deployment) is named
  // by the kernel's own message, with the way out.
  const refused = err instanceof FrameworkException && err.cause !== undefined && (code === 'EROFS' || code === 'EPERM');
  if (err instanceof ConfigError || err instanceof MissingPackageError || err instanceof WorkerStartupError || refused || code === 'EADDRINUSE' || code === 'EACCES') {
    return err.message;
  }
  return missingPrismaClient(err);
}

/**
 * A deployment without the Prisma client the app imports (`dist/generated/prisma/<bind>/`, which
 * `npm run build` generates and compiles: a build made before the bind existed, or a copy of
 * `dist/` without it): what to do, instead of Node's resolver stack.
 */
function missingPrismaClient(err: Error): string | undefined {
  if ((err as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') return undefined;
  const found = /Cannot find module '([^']+)' imported from (.+)$/m.exec(err.message);
  if (!found || !/[\\/]generated[\\/]prisma[\\/]/.test(found[1]!)) return undefined;
  const rel = (file: string): string => path.relative(process.cwd(), file.startsWith('file:') ? fileURLToPath(file) : file) || file;
  const client = path.dirname(rel(found[1]!));
  return `the Prisma client ${client} is missing (${rel(found[2]!.trim())} imports it): "npm run build" (fw build) generates it; build again, and deploy the whole dist/ folder`;
}

/**
 * With DEBUG off, a `BASE_URL` on a loopback host (`fw create auth` writes
 * `http://127.0.0.1:8000` for development) makes every absolute link, the mail's verification and
 * reset links first, point at the server's own machine: one warning says so at startup.
 */
function warnLoopbackBaseUrl(fluid: FluidApp): void {
  const base = fluid.config.BASE_URL;
  if (fluid.config.DEBUG || typeof base !== 'string') return;
  let host: string;
  try {
    host = new URL(base).hostname.toLowerCase();
  } catch {
    return;
  }
  const loopback = host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
  if (!loopback) return;
  fluid.logger.warn(
    `BASE_URL is ${base}, a loopback address, and DEBUG is off: absolute links (url_for with _external, the links in mail) ` +
      'point at the server itself, not at your site; set BASE_URL to the public URL (npx fw docs deployment)',
    { BASE_URL: base },
  );
}

/** A worker of a cluster stopped before it was serving; its message is the worker's reason. */
class WorkerStartupError extends FrameworkException {}

/** The IPC message a worker sends its primary when {@link startupFailed} stops it. */
interface StartupFailedMessage {
  fw: 'startup-failed';
  message: string;
}

function isStartupFailedMessage(message: unknown): message is StartupFailedMessage {
  return typeof message === 'object' && message !== null && (message as { fw?: unknown }).fw === 'startup-failed' && typeof (message as { message?: unknown }).message === 'string';
}

/** Serves an app until a signal arrives or `close()` is called; see the module comment. */
export async function serve(fluid: FluidApp, options: ServeOptions = {}): Promise<Served> {
  const workers = options.workers ?? fluid.config.WEB_CONCURRENCY;
  if (!Number.isInteger(workers) || workers < 1) throw new FrameworkException(`serve(): workers must be a whole number, at least 1; got ${workers}`);
  if (workers > 1 && cluster.isPrimary) return primary(fluid, workers, options);
  return single(fluid, workers, options);
}

/**
 * `DEBUG` left on where `npm run dev` did not put it (`FW_ENV` is not `development`): any visitor
 * who makes a request fail then gets the debug page, with the error's message, the stack and
 * the source of the app's files, so a production start says so once.
 */
function warnDebugOutsideDev(fluid: FluidApp): void {
  if (!fluid.config.DEBUG || fluid.config.FW_ENV === 'development') return;
  fluid.logger.warn(
    `DEBUG is on, but FW_ENV is not "development" (this is not npm run dev): a request that fails shows every visitor the debug page, ` +
      `with the error's message, the stack and excerpts of the app's source files; the CSP allows inline styles and websockets to any host, ` +
      `and templates are re-read on every render. For production, set DEBUG=false or remove DEBUG from fw.json "config", app_configs/${fluid.name}.ini and the environment`,
  );
}

/** One serving process: the whole app, or one worker of a cluster. */
async function single(fluid: FluidApp, workers: number, options: ServeOptions): Promise<Served> {
  const print = options.print ?? ((line: string) => process.stdout.write(line + '\n'));
  const server = await fluid.listen(options.port ?? fluid.config.PORT, options.host ?? fluid.config.HOST);
  const url = urlOf(server);
  const worker = cluster.isWorker ? cluster.worker : undefined;
  // One process says which backends the app uses (in a cluster: the first worker). Then "serving
  // at", last, as a cluster's primary prints it once every worker listens (docs/deployment.md).
  if (!worker || worker.id === 1) {
    reportBackends(fluid, { workers, print });
    warnLoopbackBaseUrl(fluid);
    warnDebugOutsideDev(fluid);
  }
  if (!worker) print(`fw: ${fluid.name} serving at ${url}`);

  const signals = options.signals ?? ['SIGINT', 'SIGTERM'];
  const exit = options.exit ?? true;
  let stopping = false;
  /** Whether a signal reached this process itself (not the primary's shutdown message). */
  let signalled = false;
  /** The parent watch ({@link watchNpmParent}); stopped once a shutdown is under way. */
  let orphaned: NodeJS.Timeout | undefined;
  const shutDown = (signal: NodeJS.Signals, direct: boolean): void => {
    if (stopping) {
      // In a worker, the primary's message and a SIGTERM sent to the whole process group
      // (systemd's default KillMode=control-group, `kill -TERM -<pgid>`, `timeout`) are one
      // shutdown, which drains: only a second signal to this process itself exits at once.
      if (!direct || (worker && !signalled)) {
        signalled ||= direct;
        return;
      }
      fluid.logger.warn(`second ${signal}: exiting now`);
      process.exit(1);
    }
    stopping = true;
    signalled = direct;
    // The parent exiting during the shutdown is no second signal (the same group kill, fw dev
    // stopped the app and died): it must not cut the drain short.
    if (orphaned) clearInterval(orphaned);
    fluid.logger.info(`${signal}: shutting down`);
    // SIGTERM is how orchestrators stop a process: drain first. SIGINT is a person at a terminal.
    fluid.close({ drain: signal === 'SIGTERM' }).then(
      () => {
        if (exit) process.exit(0);
      },
      (err: unknown) => {
        fluid.logger.error('shutdown failed', { error: err });
        if (exit) process.exit(1);
      },
    );
  };
  // A worker shuts down when its primary says so. A terminal's Ctrl-C reaches the whole process
  // group, so a worker ignores SIGINT (the primary relays it once); a direct SIGTERM still works.
  const onSignal = (signal: NodeJS.Signals): void => {
    if (!(worker && signal === 'SIGINT')) shutDown(signal, true);
  };
  const onMessage = (message: unknown): void => {
    if (isShutdownMessage(message)) shutDown(message.signal, false);
  };
  for (const s of signals) process.on(s, onSignal);
  if (worker) process.on('message', onMessage);
  orphaned = worker || signals.length === 0 ? undefined : watchNpmParent(() => shutDown('SIGTERM', true), fluid);
  const close = async (): Promise<void> => {
    for (const s of signals) process.off(s, onSignal);
    process.off('message', onMessage);
    if (orphaned) clearInterval(orphaned);
    await fluid.close();
  };
  return { server, url, workers, close };
}

/** How long a primary lets its workers shut down before it kills them. */
function workerStopBound(fluid: FluidApp): number {
  return (fluid.config.SERVER_DRAIN_DELAY + fluid.config.SERVER_DRAIN_TIMEOUT + 30) * 1000;
}

/** A cluster primary: forks, restarts and stops the workers; serves nothing itself. */
async function primary(fluid: FluidApp, count: number, options: ServeOptions): Promise<Served> {
  const print = options.print ?? ((line: string) => process.stdout.write(line + '\n'));
  const signals = options.signals ?? ['SIGINT', 'SIGTERM'];
  const exit = options.exit ?? true;
  const logger = fluid.logger;
  const live = new Set<Worker>();
  let stopping: Promise<void> | undefined;
  /** Start times of recent crashes: a worker that keeps dying right after start is not restarted forever. */
  const crashes: number[] = [];
  /** Whether every worker has served once (before that, a worker that exits fails the start). */
  let serving = false;

  const fork = (): Worker => {
    const worker = cluster.fork();
    live.add(worker);
    worker.once('exit', (code, signal) => {
      live.delete(worker);
      // Before every worker serves, an exit is a failed start: `listening` below rejects.
      if (stopping || !serving) return;
      const now = Date.now();
      crashes.push(now);
      while (crashes.length > 0 && crashes[0]! < now - 60_000) crashes.shift();
      logger.error('worker exited; starting another', { pid: worker.process.pid, code, signal });
      if (crashes.length > count * 5) {
        logger.error(`workers keep exiting (${crashes.length} in the last minute); giving up`);
        void stop('SIGTERM').then(() => exit && process.exit(1));
        return;
      }
      fork();
    });
    return worker;
  };

  // Every worker listens on the same port; the first `listening` gives the address.
  const listening = new Promise<AddressInfo>((resolve, reject) => {
    let ready = 0;
    let address: AddressInfo | undefined;
    const onListening = (_worker: Worker, at: Address): void => {
      address ??= { address: at.address, port: at.port, family: at.addressType === 6 ? 'IPv6' : 'IPv4' };
      if (++ready === count) {
        settle();
        resolve(address);
      }
    };
    const settle = (): void => {
      cluster.off('listening', onListening);
      cluster.off('exit', onEarlyExit);
      cluster.off('message', onFailure);
    };
    // A worker stopped by `startupFailed` says why; the first reason is the primary's error line.
    const onFailure = (_worker: Worker, message: unknown): void => {
      if (!isStartupFailedMessage(message)) return;
      settle();
      reject(new WorkerStartupError(message.message));
    };
    const onEarlyExit = (worker: Worker, code: number | null): void => {
      settle();
      reject(new WorkerStartupError(`worker ${worker.process.pid} exited (code ${code}) before it was serving; see its log above`));
    };
    cluster.on('listening', onListening);
    cluster.on('exit', onEarlyExit);
    cluster.on('message', onFailure);
  });
  for (let i = 0; i < count; i++) fork();
  let address: AddressInfo;
  try {
    address = await listening;
    serving = true;
  } catch (err) {
    stopping = Promise.resolve();
    for (const worker of live) worker.process.kill('SIGKILL');
    throw err;
  }
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  print(`fw: ${fluid.name} serving at ${url} (${count} workers)`);

  function stop(signal: NodeJS.Signals): Promise<void> {
    stopping ??= (async () => {
      const all = [...live];
      const exited = all.map((worker) => new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once('exit', () => resolve()))));
      for (const worker of all) if (worker.isConnected()) worker.send({ fw: 'shutdown', signal } satisfies ShutdownMessage);
      const timer = setTimeout(() => {
        logger.error('workers did not shut down in time; killing them');
        for (const worker of all) if (!worker.isDead()) worker.process.kill('SIGKILL');
      }, workerStopBound(fluid));
      timer.unref();
      await Promise.all(exited);
      clearTimeout(timer);
    })();
    return stopping;
  }

  let signalled = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (signalled) {
      logger.warn(`second ${signal}: killing the workers`);
      for (const worker of live) worker.process.kill('SIGKILL');
      process.exit(1);
    }
    signalled = true;
    if (orphaned) clearInterval(orphaned); // as in single(): the parent exiting now is no second signal
    logger.info(`${signal}: shutting down ${live.size} workers`);
    void stop(signal).then(() => exit && process.exit(0));
  };
  for (const s of signals) process.on(s, onSignal);
  const orphaned = signals.length === 0 ? undefined : watchNpmParent(() => onSignal('SIGTERM'), fluid);
  return {
    server: undefined,
    url,
    workers: count,
    close: async () => {
      for (const s of signals) process.off(s, onSignal);
      if (orphaned) clearInterval(orphaned);
      await stop('SIGTERM');
    },
  };
}

/**
 * The parent as the process started (this module loads before the app does). Read again when the
 * watch began, a parent killed during the startup (npm stopped while the app was booting, or
 * between "serving at" and the next line on a busy machine) was already replaced by init, and
 * the orphan served for ever.
 */
const PARENT_AT_LOAD = process.ppid;

/**
 * Under `npm start` the server's parent is npm's `sh -c`. A SIGTERM sent to npm alone (a deploy
 * script's `kill`, a supervisor that signals one pid) ends npm and that shell without passing it
 * on, which left the server running as an orphan that kept the port. So a server started by an
 * npm script checks its parent twice a second and, once it is gone, shuts down as on SIGTERM
 * (draining). Only under npm: a server started from a shell that later exits (`nohup node ... &`)
 * is meant to keep running. Containers should still run node directly (`@fw/kernel/docs/deployment.md`): when
 * npm is process 1 and exits, the container stops before any drain. Under `npm run dev` the parent
 * is `fw dev` (it marks the app it runs, `dev-parent.ts`), and the warning names it.
 */
function watchNpmParent(shutDown: () => void, fluid: FluidApp): NodeJS.Timeout | undefined {
  if (!process.env['npm_lifecycle_event']) return undefined;
  const parent = PARENT_AT_LOAD;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    fluid.logger.warn(
      devParentPid() === parent
        ? `fw dev (pid ${parent}), which ran this app, has exited without stopping it`
        : `the npm script that started this server (parent pid ${parent}) has exited without passing on a signal`,
    );
    shutDown();
  }, 500);
  timer.unref();
  return timer;
}

function urlOf(server: Server): string {
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
