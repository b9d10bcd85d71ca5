/**
 * `serve(fluid)`: what `fw run` calls. Listens, prints the URL, and on SIGINT/SIGTERM stops
 * accepting connections, lets in-flight requests finish, runs the shutdown hooks and exits 0.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { FluidApp } from './context.js';

/** Options of `serve()`. */
export interface ServeOptions {
  /** Port; default the config's `PORT` (0 picks a free port). */
  port?: number;
  /** Interface; default the config's `HOST`. */
  host?: string;
  /** Signals that trigger a graceful shutdown; default SIGINT and SIGTERM. `[]` installs none. */
  signals?: readonly NodeJS.Signals[];
  /** Exit the process after a signal-triggered shutdown (default true). */
  exit?: boolean;
  /** Where the "serving at" line goes; default stdout. */
  print?: (line: string) => void;
}

/** A running server. */
export interface Served {
  readonly server: Server;
  /** `http://host:port` */
  readonly url: string;
  /** Graceful stop: closes the app (shutdown hooks run) and removes the signal handlers. */
  close(): Promise<void>;
}

/** Serves an app until a signal arrives or `close()` is called. */
export async function serve(fluid: FluidApp, options: ServeOptions = {}): Promise<Served> {
  const port = options.port ?? fluid.config.PORT;
  const host = options.host ?? fluid.config.HOST;
  const print = options.print ?? ((line: string) => process.stdout.write(line + '\n'));
  const server = await fluid.listen(port, host);
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  print(`fw: ${fluid.name} serving at ${url}`);

  const signals = options.signals ?? ['SIGINT', 'SIGTERM'];
  const close = async (): Promise<void> => {
    for (const s of signals) process.off(s, onSignal);
    await fluid.close();
  };
  let stopping = false;
  function onSignal(signal: NodeJS.Signals): void {
    if (stopping) {
      fluid.logger.warn(`second ${signal}: exiting now`);
      process.exit(1);
    }
    stopping = true;
    fluid.logger.info(`${signal}: shutting down`);
    close().then(
      () => {
        if (options.exit ?? true) process.exit(0);
      },
      (err: unknown) => {
        fluid.logger.error('shutdown failed', { error: err });
        if (options.exit ?? true) process.exit(1);
      },
    );
  }
  for (const s of signals) process.on(s, onSignal);
  return { server, url, close };
}
