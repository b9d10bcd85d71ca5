/**
 * HTTP comparisons: servers (each in its own process, see server.ts) answering one path each,
 * loaded in turn by the load generator (another process, see load.ts) in interleaved rounds. For
 * every run it reads the server's CPU time from /proc before and after, so each side gets req/s
 * and server CPU per request; rows pair the rounds for the ratios.
 *
 * Before measuring it fetches every endpoint once and fails loudly unless the status is the
 * expected one and the two sides of a row answer byte-identical bodies (a row that compares
 * different pages on purpose says why in `differentBytes`).
 */
import http from 'node:http';
import { pinningNote } from './cpu.ts';
import { interleave } from './interleave.ts';
import { LOAD_TOOL, runLoad, type LoadRun } from './load.ts';
import { treeCpuMicros } from './procfs.ts';
import { pairedRow, type Row, type Sample } from './report.ts';
import type { RunningServer } from './server.ts';
import { CONNECTIONS, QUICK, SECONDS } from './settings.ts';

/** One side of a comparison: a path on a running server. */
export interface Endpoint {
  /** What it is, e.g. "bare Koa + @koa/router". */
  label: string;
  server: RunningServer;
  /**
   * More processes running the same server: round r measures process r mod n (`server` first).
   * Identical processes differ by a few % in CPU per request (memory layout, JIT decisions), and
   * that difference stays for the process's life, so one process per side can tilt a row by as
   * much as a small target; rotating over several averages it out.
   */
  replicas?: readonly RunningServer[];
  path: string;
  headers?: Readonly<Record<string, string>>;
  /** The status every answer must have (default 200). */
  status?: number;
}

/** One row: fw against a baseline. */
export interface HttpComparison {
  name: string;
  fw: Endpoint;
  baseline: Endpoint;
  target?: string;
  note?: string;
  /** Why the bodies legitimately differ; without it they must be identical bytes. */
  differentBytes?: string;
}

/** Options of {@link compareHttp}. */
export interface CompareOptions {
  rounds: number;
  seconds?: number;
  connections?: number;
}

/** One GET with exactly the given headers (as the load generator sends them). */
export function get(url: string, headers: Readonly<Record<string, string>> = {}): Promise<{ status: number; body: Buffer; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const key = (e: Endpoint): string => `${e.server.pid} ${e.path} ${JSON.stringify(e.headers ?? {})}`;

async function checkBytes(c: HttpComparison): Promise<void> {
  const [fw, base] = await Promise.all([c.fw, c.baseline].map((e) => get(e.server.url(e.path), e.headers)));
  for (const [e, got] of [[c.fw, fw!], [c.baseline, base!]] as const) {
    if (got.status !== (e.status ?? 200)) {
      throw new Error(`${c.name}: ${e.label} answered ${e.path} with ${got.status}, expected ${e.status ?? 200}:\n${got.body.toString().slice(0, 400)}`);
    }
  }
  if (c.differentBytes === undefined && !fw!.body.equals(base!.body)) {
    throw new Error(
      `${c.name}: the two sides answer different bytes, so the row would compare different work.\n` +
        `${c.fw.label} (${fw!.body.length} B): ${fw!.body.toString().slice(0, 200)}\n` +
        `${c.baseline.label} (${base!.body.length} B): ${base!.body.toString().slice(0, 200)}`,
    );
  }
}

/** One measured run: the load's counts and the server's CPU per request. */
interface Run {
  load: LoadRun;
  cpuPerRequest: number;
}

/** Every process of an endpoint, `server` first. */
const processes = (e: Endpoint): readonly RunningServer[] => [e.server, ...(e.replicas ?? [])];

async function measure(e: Endpoint, seconds: number, connections: number, round = 0): Promise<Run> {
  const all = processes(e);
  const server = all[round % all.length]!;
  // The whole process tree: a --workers server's CPU is its workers'.
  const before = treeCpuMicros(server.pid);
  const load = await runLoad(server.url(e.path), { seconds, connections, headers: e.headers ?? {} });
  const used = treeCpuMicros(server.pid) - before;
  const expected = e.status ?? 200;
  const wrongStatus = expected < 300 ? load.non2xx : load.requests - load.non2xx;
  if (wrongStatus > 0 || load.errors > 0 || load.requests === 0) {
    throw new Error(`${e.label} ${e.path}: ${load.requests} requests, ${wrongStatus} with a status other than ${expected}, ${load.errors} socket errors`);
  }
  return { load, cpuPerRequest: used / load.requests };
}

/** Measures every comparison (endpoints shared between rows are measured once per round). */
export async function compareHttp(bench: string, comparisons: readonly HttpComparison[], options: CompareOptions): Promise<Row[]> {
  const seconds = options.seconds ?? SECONDS;
  const connections = options.connections ?? CONNECTIONS;
  for (const c of comparisons) await checkBytes(c);
  const endpoints = new Map<string, Endpoint>();
  for (const c of comparisons) for (const e of [c.fw, c.baseline]) endpoints.set(key(e), e);
  if (!QUICK) for (const e of endpoints.values()) for (let r = 0; r < processes(e).length; r++) await measure(e, 1, connections, r); // JIT warm-up
  const runs = await interleave([...endpoints.keys()], options.rounds, (k, round) => measure(endpoints.get(k)!, seconds, connections, round));
  const sample = (r: Run): Sample => ({ value: r.load.rps, cpu: r.cpuPerRequest });
  return comparisons.map((c) =>
    pairedRow({
      bench,
      name: c.name,
      unit: 'req/s',
      per: 'request',
      fw: { label: c.fw.label, samples: runs[key(c.fw)]!.map(sample) },
      baseline: { label: c.baseline.label, samples: runs[key(c.baseline)]!.map(sample) },
      ...(c.target ? { target: c.target } : {}),
      ...(c.note ? { note: c.note } : {}),
    }),
  );
}

/** The settings line of an HTTP benchmark's table. */
export function httpSettings(rounds: number): string {
  return `${rounds} interleaved rounds × ${SECONDS} s per side, ${CONNECTIONS} keep-alive connections (${LOAD_TOOL}); servers and load generator in separate processes, ${pinningNote()}; CPU = the server's process tree's (/proc) per request`;
}
