/**
 * The dev loop (`fw dev`, `fw run --watch`): runs `fw run` as a child with `FW_ENV=development`
 * (DEBUG defaults to on) and one file watcher, and does what {@link classifyChange} says:
 *
 * - a server change restarts the child (changes in a row are batched; restarts never overlap,
 *   so two apps never race for one port);
 * - a migration (`fw migrate dev`) restarts it once its Prisma client is regenerated: Prisma writes
 *   `migration.sql` first and the client after, so the restart waits up to {@link CLIENT_WAIT} for
 *   the client folder to change, then for it to be quiet ({@link CLIENT_SETTLE}); a migration that
 *   came without its client (a git pull) has it generated first, missing or stale;
 * - a schema change (`prisma/<bind>/schema.prisma`) re-reads the client folders: a client whose
 *   `output` moved is watched there, and generated there when missing (which restarts the app);
 * - a template or static change is sent to the running child over the IPC channel: the kernel
 *   recompiles Tailwind when it is on and tells the browsers to reload (docs/dev.md);
 * - frontend workspace changes are left to Vite's HMR in the child, and compiled output, temp
 *   files and `node_modules` are never even watched;
 * - while the app is not running (it could not start, or it exited), `fw dev` answers on its
 *   address with the error the terminal shows (down-page.ts) until it restarts the app.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { watch, type FSWatcher } from 'chokidar';
import type { CommandIO } from '../cli/io.js';
import { ensureClients } from '../migrate/client.js';
import { classifyChange, ignoredDir, prismaClientDirs, relPath, type ChangeKind } from './classify.js';
import { openDownPage, type DownPage } from './down-page.js';
import { addressOf, DEV_PARENT_ENV, isFailedMessage, isServingMessage, type ChangedMessage, type FailedMessage } from './messages.js';

export type { ChangedMessage } from './messages.js';

/** Options of {@link devProject}. */
export interface DevOptions {
  /** Arguments for the child `fw run` (`--port`, `--host`). */
  childArgs: readonly string[];
  /** How long changes are gathered before acting on them (ms). Default 120. */
  debounce?: number;
}

/**
 * How long a migration waits for the Prisma client to be regenerated before the app restarts
 * without it (ms): `fw migrate dev` runs `prisma generate` after `prisma migrate dev`. A migration
 * that comes without one (a git pull) restarts the app after this, once `fw dev` has generated the
 * missing or stale client itself; a client regenerated later restarts it again.
 */
export const CLIENT_WAIT = 5_000;
/** How long the client folder must be quiet before the restart (ms): `prisma generate` writes many files. */
export const CLIENT_SETTLE = 400;

/** What restarts the app. */
const RESTARTS: ReadonlySet<ChangeKind> = new Set(['restart', 'migration', 'client']);

/** Runs the dev loop in `root` until SIGINT/SIGTERM; resolves to the exit code. */
export async function devProject(root: string, io: CommandIO, options: DevOptions): Promise<number> {
  const fwBin = fileURLToPath(new URL('../bin/fw.js', import.meta.url));
  // Development defaults (DEBUG on) unless the user's environment says otherwise; the marker
  // that tells the child it runs under this fw dev (an IPC channel alone does not: underDev()).
  const env: NodeJS.ProcessEnv = { ...io.env, FW_ENV: io.env.FW_ENV ?? 'development', [DEV_PARENT_ENV]: String(process.pid) };
  let child: ChildProcess | undefined;
  let stopping = false;
  let restarting = false;
  // Where the app last served, what the current child said when it could not start, and the
  // page answering on the app's address while it is down.
  let served: { host: string; port: number } | undefined;
  let failure: FailedMessage | undefined;
  let page: DownPage | undefined;

  let cycle: Promise<void> = Promise.resolve();
  const closePage = async (): Promise<void> => {
    const open = page;
    page = undefined;
    await open?.close();
  };
  const appDown = (current: ChildProcess, exit: string): void => {
    cycle = cycle.then(async () => {
      if (stopping || current !== child) return;
      const report = failure?.report;
      const address = failure?.address.from === 'config' ? failure.address : (served ?? failure?.address);
      if (address && address.port !== 0) page = await openDownPage(address, { exit, report }, root);
      const meanwhile = page ? ` Until then ${page.url} answers with this error.` : '';
      io.stderr.write(`fw dev: the app exited (${exit}); waiting for changes to restart it.${meanwhile}\n`);
    });
  };

  const start = (): void => {
    // Its own process group: a terminal Ctrl-C reaches only this process, which then stops the
    // app with exactly one signal (a second one makes serve() exit at once, skipping hooks).
    // DEP0060: http-proxy (koa-proxies' engine, the Vite dev proxy) calls util._extend, and Node
    // warned on the first proxied request of every run, a line that is neither the app's nor fw's.
    child = spawn(process.execPath, ['--disable-warning=DEP0060', fwBin, 'run', ...options.childArgs], {
      cwd: root,
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
      env,
      detached: true,
    });
    const current = child;
    failure = undefined;
    current.on('error', (err) => io.stderr.write(`fw dev: cannot start the app: ${err.message}\n`));
    current.on('message', (message: unknown) => {
      if (current !== child) return;
      if (isFailedMessage(message)) failure = message;
      else if (isServingMessage(message)) served = addressOf(message.url) ?? served;
    });
    let exit = '';
    current.on('exit', (code, signal) => {
      exit = signal ?? `code ${code}`;
    });
    // 'close' comes after the IPC channel closed too, so every message the app sent is in.
    current.on('close', () => {
      if (current === child && !stopping && !restarting) appDown(current, exit);
    });
  };
  const stopChild = async (signal: 'SIGINT' | 'SIGTERM' = 'SIGTERM'): Promise<void> => {
    const current = child;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      current.once('exit', () => resolve());
      if (!current.killed) current.kill(signal);
    });
  };

  const restart = (changed: string): void => {
    cycle = cycle.then(async () => {
      if (stopping) return;
      restarting = true;
      io.stdout.write(`fw dev: ${changed} changed, restarting\n`);
      await stopChild();
      await closePage(); // frees the port for the app
      restarting = false;
      if (!stopping) start();
    });
  };
  const notify = (changes: ChangedMessage['changes']): void => {
    const current = child;
    if (!current?.connected) return; // not up (yet): it reads the files fresh when it starts
    const message: ChangedMessage = { type: 'fw:changed', changes };
    current.send(message, (err) => {
      if (err) io.stderr.write(`fw dev: could not tell the app about ${changes[0]?.path ?? 'a change'}: ${err.message}\n`);
    });
  };

  // The generated Prisma clients' folders (read again with each batch: a schema may be new).
  let clients = prismaClientDirs(root);
  /**
   * Reads the client folders again; true when one is new (a schema's `output` moved, a new bind).
   * A folder no schema generates any more that still holds a client is said once: whatever still
   * imports it runs a client nothing regenerates (stale after the next migration).
   */
  const rereadClients = (): boolean => {
    const before = clients;
    clients = prismaClientDirs(root);
    const added = clients.filter((dir) => !before.includes(dir));
    for (const old of before.filter((dir) => !clients.includes(dir) && existsSync(path.join(root, dir, 'client.ts')))) {
      const now = added.length > 0 ? ` (the client is now generated into ${added.join(', ')})` : '';
      io.stderr.write(`fw dev: ${old} is no longer any schema's output${now}: code that imports it gets a client nothing regenerates; import the new one, then delete ${old}\n`);
    }
    return added.length > 0;
  };
  /**
   * Generates the missing and stale clients ({@link ensureClients}), in turn with the restarts:
   * the files it writes then restart the app like any regenerated client.
   */
  const generateClients = (): void => {
    cycle = cycle.then(async () => {
      if (stopping) return;
      try {
        await ensureClients(root, io, 'fw dev');
      } catch (error) {
        // Named by ensureClients ("fw dev: ... failed"); the app goes on with what it has.
        io.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    });
  };

  // Changes are gathered for a moment: an editor's save or a generator run is several events.
  const pending = new Map<string, ChangeKind>();
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    const batch = [...pending];
    pending.clear();
    // A client folder that is new (an `output` moved) is generated there when missing, as before
    // the first start. A migration's batch has waited for its client: `fw migrate dev` has
    // regenerated it by now, but a migration that came without one (a git pull or checkout,
    // perhaps with the `output` moved too) would restart the app on a missing or stale client, so
    // the clients are brought up to date first (nothing to do after `fw migrate dev`).
    if (rereadClients() || batch.some(([, kind]) => kind === 'migration')) generateClients();
    // Named after a file that is still there when there is one (a migration before the client
    // files): a tool that writes a temporary file and renames it over the edited one (an editor's
    // atomic save) leaves an add and an unlink of a name fw does not know, and the change of the
    // file that was edited.
    const servers = batch
      .filter(([, kind]) => RESTARTS.has(kind))
      .sort(([, a], [, b]) => Number(a === 'client') - Number(b === 'client'))
      .map(([file]) => file);
    if (servers.length > 0) return restart(servers.find((file) => existsSync(path.join(root, file))) ?? servers[0]!);
    const changes = batch.flatMap(([file, kind]) => (kind === 'template' || kind === 'static' ? [{ path: file, kind }] : []));
    if (changes.length > 0) notify(changes);
  };
  // How long to gather: a migration waits for its client, whose files are awaited until quiet.
  const gather = (): number => {
    const kinds = new Set(pending.values());
    if (kinds.has('client')) return Math.max(CLIENT_SETTLE, options.debounce ?? 0);
    if (kinds.has('migration') && clients.length > 0) return CLIENT_WAIT;
    return options.debounce ?? 120;
  };
  const onEvent = (file: string): void => {
    const rel = relPath(root, file);
    let kind = classifyChange(rel, false, clients);
    if (kind === 'migration') {
      // Its client folder may be new: the files written there next are then the client's.
      rereadClients();
      kind = classifyChange(rel, false, clients);
    }
    if (kind === 'ignore' || kind === 'frontend') return;
    pending.set(rel, kind);
    clearTimeout(timer);
    timer = setTimeout(flush, gather());
  };

  const watcher: FSWatcher = watch(root, {
    ignoreInitial: true,
    // Never descend into what cannot matter (node_modules, dist, the Vite workspaces, .fw, .git).
    ignored: (file, stats) => {
      const rel = relPath(root, file);
      if (rel === '' || rel.startsWith('..')) return false;
      return stats?.isDirectory() ? ignoredDir(rel, clients) : classifyChange(rel, false, clients) === 'ignore' && !couldBeDir(rel, clients);
    },
  });
  for (const event of ['add', 'change', 'unlink'] as const) watcher.on(event, onEvent);
  watcher.on('error', (err) => io.stderr.write(`fw dev: file watcher: ${err instanceof Error ? err.message : String(err)}\n`));
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));

  start();
  process.once('exit', () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });
  return new Promise<number>((resolve) => {
    // Ctrl-C reaches the app as SIGINT (a person at a terminal: no drain, and its log says so);
    // anything else as SIGTERM.
    let orphaned: NodeJS.Timeout | undefined;
    const shutdown = (signal: NodeJS.Signals): void => {
      if (stopping) return;
      stopping = true;
      clearTimeout(timer);
      clearInterval(orphaned);
      void watcher.close();
      void cycle
        .then(() => closePage())
        .then(() => stopChild(signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM'))
        .then(() => resolve(0));
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
    process.once('SIGHUP', shutdown); // the terminal closed: the app, in its own process group, would be left serving
    orphaned = watchNpmParent(io, () => shutdown('SIGTERM'));
  });
}

/**
 * Under `npm run dev` this process's parent is npm's `sh -c`, which npm passes a SIGTERM on to
 * (a process manager, an IDE's stop button, `kill <npm pid>`) and which then dies without passing
 * it on: this process and the app were left serving, re-parented to process 1. So, started by an
 * npm script, it checks its parent twice a second and, once it is gone, stops the app and exits
 * as on SIGTERM. Only under npm, like the kernel's `serve()`: a dev loop started from a shell that
 * later exits (`nohup fw dev &`) is meant to keep running.
 */
function watchNpmParent(io: CommandIO, stop: () => void): NodeJS.Timeout | undefined {
  if (!io.env.npm_lifecycle_event) return undefined;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    io.stderr.write(`fw dev: the npm script that started it (parent pid ${parent}) has exited without passing on a signal; stopping the app\n`);
    stop();
  }, 500);
  timer.unref();
  return timer;
}

/**
 * chokidar asks `ignored` once without stats; a path that looks ignorable as a file may still be
 * a folder worth entering (`fluid`, `additives/blog`), so those are kept for the second ask.
 */
function couldBeDir(rel: string, clients: readonly string[]): boolean {
  return !ignoredDir(rel, clients) && !path.posix.extname(rel);
}
