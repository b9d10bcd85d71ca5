/**
 * A throwaway `redis-server` for tests: loopback only, no persistence.
 *
 *   const redis = await startRedis();          // free port
 *   const again = await startRedis({ port });   // a fresh server on a known port
 *   ... redis.url ...
 *   await redis.stop();
 *   redis.signal('SIGSTOP') / redis.signal('SIGCONT')   // freeze and thaw it (fault tests)
 *
 * A missing `redis-server` binary is an error, never a skip.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from './process.js';

export { freePort };

/** A running test Redis. */
export interface TestRedis {
  /** `redis://127.0.0.1:<port>/0` */
  readonly url: string;
  readonly port: number;
  /** Stop the server and wait for it to exit (idempotent). */
  stop(): Promise<void>;
  /** Sends `signal` to the server (SIGSTOP freezes it, SIGCONT thaws it, SIGKILL kills it). */
  signal(signal: NodeJS.Signals): void;
  /** Resolves once the server has exited. */
  readonly exited: Promise<void>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Start `redis-server` on `port` (default: a free one) and wait until it answers PING. */
export async function startRedis(options: { port?: number; timeoutMs?: number } = {}): Promise<TestRedis> {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error) {
    throw new Error(
      'redis-server is not on PATH; these tests need a real Redis. Install it with ' +
        '`apt-get install redis-server` (Debian/Ubuntu) and run the tests again.',
    );
  }
  const port = options.port ?? (await freePort());
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'warning'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  running.add(child);
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => {
    running.delete(child);
    resolve();
  }));

  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`redis-server on port ${port} exited with code ${child.exitCode}: ${output.trim()}`);
    }
    if (await ping(port)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server on port ${port} did not answer PING in time: ${output.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }

  let stopping: Promise<void> | undefined;
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    exited,
    signal: (signal) => void child.kill(signal),
    stop: () => {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGCONT'); // a frozen server cannot act on SIGTERM
          child.kill('SIGTERM');
        }
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    },
  };
}

/** True when a Redis on 127.0.0.1:`port` answers `+PONG`. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      reply += d.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}
