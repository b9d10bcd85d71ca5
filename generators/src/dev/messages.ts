/**
 * What `fw dev` and the app it runs (`fw run`, its child) tell each other over the child's IPC
 * channel ({@link underDev}: only a child `fw dev` marked as its own). The kernel's live reload reads {@link ChangedMessage}; `fw dev` reads the other two,
 * to keep answering on the app's address while the app cannot start (docs/dev.md).
 */
import type { FailureReport } from '../cli/main.js';

/** `fw dev` → the app: template and static changes (the kernel's live reload reads it). */
export interface ChangedMessage {
  type: 'fw:changed';
  changes: { path: string; kind: 'template' | 'static' }[];
}

/** The app → `fw dev`: it is serving at `url` (`http://127.0.0.1:8000`). */
export interface ServingMessage {
  type: 'fw:serving';
  url: string;
}

/** Where the app listens, or would have. */
export interface DevAddress {
  host: string;
  port: number;
  /**
   * `config`: the app's own config (or `--port` and `--host`) says so; `default`: the config
   * could not be read (it is what failed), so this is the environment's `PORT`/`HOST` or fw's
   * defaults, and `fw dev` prefers the address the app last served at.
   */
  from: 'config' | 'default';
}

/** The app → `fw dev`: it could not start; what the terminal said, and where it would have listened. */
export interface FailedMessage {
  type: 'fw:failed';
  report: FailureReport;
  address: DevAddress;
}

/** True for a {@link ServingMessage}. */
export function isServingMessage(value: unknown): value is ServingMessage {
  const m = value as Partial<ServingMessage> | null;
  return typeof m === 'object' && m !== null && m.type === 'fw:serving' && typeof m.url === 'string';
}

/** True for a {@link FailedMessage}. */
export function isFailedMessage(value: unknown): value is FailedMessage {
  const m = value as Partial<FailedMessage> | null;
  return (
    typeof m === 'object' &&
    m !== null &&
    m.type === 'fw:failed' &&
    typeof m.report?.message === 'string' &&
    typeof m.address?.host === 'string' &&
    typeof m.address.port === 'number'
  );
}

/** The host and port of an `http://host:port` URL (an IPv6 host without its brackets). */
export function addressOf(url: string): { host: string; port: number } | undefined {
  try {
    const parsed = new URL(url);
    const port = Number(parsed.port || 80);
    return { host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), port };
  } catch {
    return undefined;
  }
}

/**
 * The variable `fw dev` sets, to its own process id, in the environment of the app it runs (and of
 * no other process): an IPC channel alone says nothing, since any forked process has one (an app
 * a process manager started with `fork()`, a cluster worker, a test runner's child).
 */
export const DEV_PARENT_ENV = 'FW_DEV_PARENT';

/**
 * Where {@link underDev} leaves its answer for the app's kernel (its live reload listens to
 * `fw dev` only then): `globalThis[Symbol.for('fw.devParent')]` = `fw dev`'s process id, in this
 * process only. The kernel's `DEV_PARENT_MARK` is the same registered symbol.
 */
const DEV_PARENT_MARK = Symbol.for('fw.devParent');

let devParent: boolean | undefined;

/**
 * True when this process is the app `fw dev` runs: {@link DEV_PARENT_ENV} names its parent process
 * and it has an IPC channel to it. The first call takes the variable out of `process.env`, so the
 * processes the app starts (a cluster's workers, anything it spawns) do not inherit it.
 */
export function underDev(): boolean {
  if (devParent === undefined) {
    const parent = process.env[DEV_PARENT_ENV];
    delete process.env[DEV_PARENT_ENV];
    devParent = parent !== undefined && /^\d+$/.test(parent) && Number(parent) === process.ppid;
    if (devParent) (globalThis as { [DEV_PARENT_MARK]?: number })[DEV_PARENT_MARK] = process.ppid;
  }
  return devParent && process.send !== undefined && process.connected;
}

/**
 * True when this process was started by `fw dev` ({@link underDev} at its first call), whether
 * or not the IPC channel is still open: an app whose `fw dev` was killed while it loaded finds
 * the channel already closed once it serves.
 */
export function startedByDev(): boolean {
  underDev();
  return devParent === true;
}

/** The process id of the `fw dev` that started this process ({@link startedByDev}); undefined when none did. */
export function devParentPid(): number | undefined {
  const mark = (globalThis as { [DEV_PARENT_MARK]?: unknown })[DEV_PARENT_MARK];
  return startedByDev() && typeof mark === 'number' ? mark : undefined;
}

/**
 * Sends `message` to `fw dev` when this process runs under it ({@link underDev}), and resolves
 * once it is written, so a process about to exit has said it.
 */
export function tellDev(message: ServingMessage | FailedMessage): Promise<void> {
  const send = process.send?.bind(process);
  if (!send || !underDev()) return Promise.resolve();
  return new Promise((resolve) => {
    send(message, undefined, undefined, () => resolve());
  });
}
