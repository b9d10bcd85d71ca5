/**
 * The load generator, always in its own process: `wrk` (C, epoll) when it is on PATH, else
 * autocannon's CLI. On a 2-core machine the generator's own CPU matters: autocannon needs about
 * 20 µs per request and tops out near 22k req/s here, below what a raw node:http server answers,
 * which would squeeze every ratio towards 1; wrk needs a fraction of that and leaves the server
 * the bottleneck. `BENCH_LOAD=autocannon` forces the fallback.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from './settings.ts';
import { pinned } from './cpu.ts';

/** Which generator runs the load. */
export const LOAD_TOOL: 'wrk' | 'autocannon' = (() => {
  const wanted = process.env.BENCH_LOAD;
  if (wanted === 'autocannon') return 'autocannon';
  const found = spawnSync('wrk', ['--version']).error === undefined;
  if (wanted === 'wrk' && !found) throw new Error('BENCH_LOAD=wrk but wrk is not on PATH (apt-get install wrk)');
  return found ? 'wrk' : 'autocannon';
})();

/** One load run. */
export interface LoadRun {
  /** Completed requests. */
  requests: number;
  /** Requests per second over the run. */
  rps: number;
  /** Responses with a status of 300 or more. */
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
}

/** Options of {@link runLoad}. */
export interface LoadOptions {
  seconds: number;
  connections: number;
  headers?: Readonly<Record<string, string>>;
}

function collect(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const [file, argv] = pinned(command, args, 'load');
    const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} exited ${code}: ${err || out}`))));
  });
}

async function wrk(url: string, o: LoadOptions): Promise<LoadRun> {
  const headers = Object.entries(o.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const out = await collect('wrk', ['-t1', `-c${o.connections}`, `-d${o.seconds}s`, '--timeout', '10s', ...headers, url]);
  const done = /(\d+) requests in ([\d.]+)(m?s)/.exec(out);
  if (!done) throw new Error(`wrk printed no request count:\n${out}`);
  const requests = Number(done[1]);
  const seconds = Number(done[2]) / (done[3] === 'ms' ? 1000 : 1);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return { requests, rps: requests / seconds, non2xx, errors };
}

async function autocannon(url: string, o: LoadOptions): Promise<LoadRun> {
  const headers = Object.entries(o.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}=${v}`]);
  const cli = join(REPO, 'node_modules', 'autocannon', 'autocannon.js');
  const out = await collect(process.execPath, [cli, '-j', '-c', String(o.connections), '-d', String(o.seconds), ...headers, url]);
  const r = JSON.parse(out) as { requests: { total: number }; duration: number; non2xx: number; errors: number; timeouts: number };
  return { requests: r.requests.total, rps: r.requests.total / r.duration, non2xx: r.non2xx, errors: r.errors + r.timeouts };
}

/** Runs the load against `url` in another process and answers what it counted. */
export function runLoad(url: string, options: LoadOptions): Promise<LoadRun> {
  return LOAD_TOOL === 'wrk' ? wrk(url, options) : autocannon(url, options);
}
