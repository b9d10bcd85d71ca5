/**
 * Instructions per request, counted by valgrind's callgrind: a server runs under
 * `valgrind --tool=callgrind` (about 50× slower), and the instructions it executes while it
 * answers an exact number of requests are read from callgrind's dump.
 *
 * Why: the count is the same from one run to the next (the same binary, the same requests),
 * whatever else the machine is doing, where CPU time on this project's shared 2-core host varies
 * by ±10% between identical processes and by 2× between rounds. It counts user-space work only:
 * the kernel's part (system calls, TCP) is not in it, so it magnifies a ratio that CPU time
 * dilutes with the kernel work both sides share.
 *
 * The protocol: instrumentation starts off (the server boots at valgrind's faster pace), goes on
 * before a warm-up (the JIT tiers up as it would under load), which goes on in counted batches
 * until two in a row agree within 1% (on a loaded host the optimizing compiler's helper threads
 * finish later, and two fixed-length warm-ups left batch 2 about 3% below batch 1); then each
 * batch is zeroed, loaded and dumped. Timers run at wall-clock pace while the code runs slower, so work batched by time
 * (the request log's 10 ms gathering) is batched less than at full speed.
 *
 * Each thread is counted apart (`--separate-threads=yes`). The main thread, where JavaScript runs
 * and which bounds a process's throughput, repeats within ~1% once warm. V8's helper threads
 * (concurrent marking and sweeping, the optimizing compiler) do their work in bursts that fall in
 * one batch or the next, so the count of all threads varies several-fold between batches.
 *
 * Every server gets the same V8 seeds (`--hash-seed`, `--random-seed`). With random ones, two
 * processes of the same server differed by 3.5% for their whole life (the string hashes decide
 * how dictionaries collide and grow); with fixed ones they agree within 0.2%, and another seed
 * moved the count by 0.2%.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { nodeScript } from './node.ts';
import { startProcess, type RunningServer } from './server.ts';
import { scratch } from './settings.ts';

/** Fails with the install hint unless valgrind and callgrind_control are on PATH. */
export function requireCallgrind(): void {
  for (const tool of ['valgrind', 'callgrind_control']) {
    if (spawnSync(tool, ['--version']).error !== undefined) {
      throw new Error(`${tool} is not on PATH: this benchmark counts instructions under valgrind (Debian: apt-get install valgrind; .ci/setup installs it)`);
    }
  }
}

/** A bench/servers script running under callgrind, with its dump folder. */
export interface CountedServer {
  readonly server: RunningServer;
  readonly dumps: string;
}

/** Starts a bench/servers script under callgrind with instrumentation off; it prints `listening <port>` as usual. */
export async function startCounted(script: string, args: readonly string[], name: string): Promise<CountedServer> {
  const dumps = mkdtempSync(join(scratch(), 'callgrind-'));
  const [node, argv] = nodeScript(script, args);
  const seeds = ['--hash-seed=1', '--random-seed=1'];
  const server = await startProcess(
    'valgrind',
    ['--tool=callgrind', '--instr-atstart=no', '--separate-threads=yes', `--callgrind-out-file=${join(dumps, 'out')}`, node, ...seeds, ...argv],
    // Valgrind runs the program in its own process, so the pid is the server's; pinning is moot
    // for a count. Booting at valgrind's pace takes a while. Without npm's lifecycle variables:
    // under `npm run bench`, serve() would watch its parent on a wall-clock timer (the npm start
    // orphan check), whose ticks land at different moments in two processes and move their counts apart.
    { name, pin: false, timeoutMs: 300_000, env: withoutNpmLifecycle(process.env) },
  );
  return { server, dumps };
}

function control(server: RunningServer, option: string): void {
  const r = spawnSync('callgrind_control', [option, String(server.pid)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`callgrind_control ${option} ${server.pid} (${server.name}) failed:\n${r.stdout}${r.stderr}`);
}

/** Exactly `count` GETs of `path` over `connections` keep-alive connections; every answer must be 200. */
export function sendRequests(server: RunningServer, path: string, count: number, connections = 10): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  let sent = 0;
  let done = 0;
  return new Promise<void>((resolve, reject) => {
    const next = (): void => {
      if (sent >= count) return;
      sent++;
      const req = http
        .get(server.url(path), { agent }, (res) => {
          if (res.statusCode !== 200) {
            reject(new Error(`${server.name} answered ${path} with ${res.statusCode}`));
            return;
          }
          res.resume();
          res.on('error', (err) => reject(new Error(`${server.name}: ${path} failed mid-answer: ${err.message}`, { cause: err })));
          res.on('end', () => {
            if (++done === count) resolve();
            else next();
          });
        })
        .on('error', (err: NodeJS.ErrnoException) => {
          // The keep-alive race Node's docs describe: the server closed an idle socket as this
          // request went out on it (valgrind's pace stretches the idle gaps). Send it again.
          if (req.reusedSocket && err.code === 'ECONNRESET') {
            sent--;
            next();
            return;
          }
          reject(new Error(`${server.name}: ${path} failed: ${err.message}`, { cause: err }));
        });
    };
    for (let i = 0; i < Math.min(connections, count); i++) next();
  }).finally(() => agent.destroy());
}

/** Instructions of one batch: the main thread's and every thread's. */
export interface BatchCount {
  main: number;
  all: number;
}

/** The counts of dump number `dump` (callgrind writes `out.<dump>-<thread>`, thread 01 the main one). */
function readDump(dumps: string, dump: number): BatchCount {
  const count = { main: 0, all: 0 };
  const files = readdirSync(dumps).filter((f) => f.startsWith(`out.${dump}-`));
  for (const f of files) {
    const summary = /^summary: (\d+)$/m.exec(readFileSync(join(dumps, f), 'utf8'));
    if (!summary) throw new Error(`callgrind dump ${f} in ${dumps} has no summary line`);
    count.all += Number(summary[1]);
    if (f === `out.${dump}-01`) count.main = Number(summary[1]);
  }
  if (!files.includes(`out.${dump}-01`)) throw new Error(`no callgrind dump ${dump} of the main thread in ${dumps}`);
  return count;
}

/** Options of {@link countPerRequest}. */
export interface CountOptions {
  path: string;
  /** Requests before counting (JIT warm-up). */
  warmup: number;
  /** Requests per counted batch. */
  requests: number;
  batches: number;
}

/** Warm-up batches counted beyond `warmup` before the counted ones, at most. */
const MAX_EXTRA_WARMUP = 8;

/** Instructions per request of each batch (see the module comment for the protocol). */
export async function countPerRequest(counted: CountedServer, options: CountOptions): Promise<BatchCount[]> {
  const { server, dumps } = counted;
  control(server, '--instr=on');
  await sendRequests(server, options.path, options.warmup);
  let dump = 0;
  const batch = async (): Promise<BatchCount> => {
    control(server, '--zero');
    await sendRequests(server, options.path, options.requests);
    control(server, '--dump');
    const { main, all } = readDump(dumps, ++dump);
    return { main: main / options.requests, all: all / options.requests };
  };
  // Warm-up batches until two in a row agree within 1% (see the module comment).
  for (let previous = await batch(), extra = 1; extra < MAX_EXTRA_WARMUP; extra++) {
    const next = await batch();
    if (Math.abs(next.main - previous.main) <= previous.main * 0.01) break;
    previous = next;
  }
  const perRequest: BatchCount[] = [];
  for (let b = 1; b <= options.batches; b++) perRequest.push(await batch());
  control(server, '--instr=off');
  return perRequest;
}

/** `env` without npm's `npm_lifecycle_*` variables (see startCounted). */
function withoutNpmLifecycle(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !key.startsWith('npm_lifecycle_')));
}
