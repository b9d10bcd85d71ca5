/**
 * The scale-out suite's harness: app processes (fixtures/server.ts through tsx, on real ports),
 * a round-robin proxy written with node:http that takes a backend out of rotation while its
 * readiness route fails, and the Prisma client of the suite's PostgreSQL bind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { Agent, createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { keepCookies } from '../auth/helpers.js';
import { prismaCliAsync, REPO_ROOT, tempProject } from '../support/prisma.js';

const SERVER = fileURLToPath(new URL('./fixtures/server.ts', import.meta.url));

/** A log record of an app process (pino JSON on stderr). */
export interface LogRecord {
  level: number;
  msg: string;
  pid: number;
  [field: string]: unknown;
}

/** A running app process (one process, or a cluster primary with its workers). */
export interface AppProcess {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Lines on stdout (`fw: ... serving at`, `fw: backends: ...`). */
  readonly out: string[];
  /** Log records on stderr, in order (every worker's, in a cluster). */
  readonly logs: LogRecord[];
  /** Every line on stderr as it came (the only record of a `FW_LOG_FORMAT=text` process). */
  readonly stderr: string[];
  /** Resolves with the exit code (or the signal) once the process is gone. */
  readonly exited: Promise<number | string>;
  /** Sends `signal` and waits for the exit (SIGKILL after `timeoutMs`). */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<number | string>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts the fixture app on `root` and resolves once it serves. */
export async function startApp(options: {
  root: string;
  prismaClient: string;
  port?: number;
  workers?: number;
  /** `json` (the default) or `text` (`logs` then stays empty: read `stderr`). */
  logFormat?: 'json' | 'text';
}): Promise<AppProcess> {
  const args = ['--import', 'tsx', SERVER, '--port', String(options.port ?? 0), '--host', '127.0.0.1'];
  if (options.workers) args.push('--workers', String(options.workers));
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      TSX_TSCONFIG_PATH: path.join(REPO_ROOT, 'test/tsconfig.json'),
      SCALE_ROOT: options.root,
      SCALE_PRISMA_CLIENT: options.prismaClient,
      FW_LOG_FORMAT: options.logFormat ?? 'json',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const out: string[] = [];
  const logs: LogRecord[] = [];
  const raw: string[] = [];
  const stderr: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    stderr.push(line);
    try {
      logs.push(JSON.parse(line) as LogRecord);
    } catch {
      raw.push(line);
    }
  });
  // `close`, not `exit`: it comes once stderr has ended too, so every log line has been read.
  const exited = new Promise<number | string>((resolve) =>
    child.once('close', (code, signal) => {
      running.delete(child);
      resolve(code ?? signal ?? 'unknown');
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the app did not serve within 60 s; stderr: ${raw.join('\n')}`)), 60_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      out.push(line);
      const m = /serving at (http:\/\/\S+)/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the app exited (${code}) before serving; stderr: ${raw.join('\n')}\n${logs.map((l) => l.msg).join('\n')}`));
    });
  });
  return {
    url,
    port: Number(new URL(url).port),
    child,
    out,
    logs,
    stderr,
    exited,
    async stop(signal = 'SIGTERM', timeoutMs = 30_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Log records of `app` after index `from` whose message starts with `prefix`. */
export function logsSince(app: AppProcess, from: number, prefix: string): LogRecord[] {
  return app.logs.slice(from).filter((l) => typeof l.msg === 'string' && l.msg.startsWith(prefix));
}

/** A round-robin proxy in front of app processes. */
export interface Proxy {
  readonly url: string;
  /** Backends currently answering readiness (by base URL). */
  readonly ready: ReadonlySet<string>;
  /** Requests the proxy could not deliver (a backend refused or dropped them), with the error code. */
  readonly failures: string[];
  /** Resolves once `backend` answers readiness. */
  waitReady(backend: string, timeoutMs?: number): Promise<void>;
  /** Puts a backend into the pool (it gets traffic once ready). */
  add(backend: string): void;
  /** Takes a backend out of the pool. */
  remove(backend: string): void;
  close(): Promise<void>;
}

/**
 * A proxy like a load balancer's: round robin over the backends whose `/readyz` answered 200 at
 * the last poll (every 100 ms), failing open to all of them when none does; keep-alive
 * connections upstream (unless `keepAlive: false`: one connection per request, so a cluster's
 * primary spreads them over its workers); a request it cannot deliver is a 502 and a recorded
 * failure.
 */
export async function startProxy(initial: readonly string[], options: { keepAlive?: boolean } = {}): Promise<Proxy> {
  const pollMs = 100;
  const backends = [...initial];
  const ready = new Set<string>();
  const failures: string[] = [];
  const agent = new Agent({ keepAlive: options.keepAlive ?? true, maxSockets: 256 });
  let next = 0;
  let closed = false;

  const poll = async (backend: string): Promise<void> => {
    while (!closed && backends.includes(backend)) {
      const ok = await new Promise<boolean>((resolve) => {
        const req = request(`${backend}/readyz`, { agent: false, timeout: 2000 }, (res) => {
          res.resume();
          resolve(res.statusCode === 200);
        });
        req.on('timeout', () => req.destroy());
        req.on('error', () => resolve(false));
        req.end();
      });
      if (ok && backends.includes(backend)) ready.add(backend);
      else ready.delete(backend);
      await new Promise((r) => setTimeout(r, pollMs));
    }
  };
  const polling = backends.map((b) => poll(b));
  const pool = (): string[] => {
    const up = backends.filter((b) => ready.has(b));
    return up.length > 0 ? up : backends;
  };

  const server: Server = createServer((req, res) => {
    const choices = pool();
    const target = new URL(choices[next++ % choices.length]!);
    const headers = { ...req.headers };
    delete headers.connection;
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent },
      (up: IncomingMessage) => {
        const out = { ...up.headers };
        delete out.connection;
        delete out['keep-alive'];
        res.writeHead(up.statusCode ?? 502, out);
        up.pipe(res);
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      failures.push(`${target.port}: ${error.code ?? error.message}`);
      if (!res.headersSent) res.writeHead(502).end(`proxy: ${error.code ?? error.message}`);
      else res.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    ready,
    failures,
    async waitReady(backend, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!ready.has(backend)) {
        if (Date.now() > deadline) throw new Error(`${backend} did not become ready within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    add(backend) {
      if (backends.includes(backend)) return;
      backends.push(backend);
      polling.push(poll(backend));
    },
    remove(backend) {
      const i = backends.indexOf(backend);
      if (i !== -1) backends.splice(i, 1);
      ready.delete(backend);
    },
    async close() {
      closed = true;
      await Promise.all(polling);
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Generates the Prisma client of a one-model PostgreSQL schema; returns its `client.ts` and a cleanup. */
export async function prismaClient(): Promise<{ client: string; cleanup(): Promise<void> }> {
  const project = await tempProject('scale');
  await mkdir(path.join(project.root, 'prisma'), { recursive: true });
  await writeFile(
    path.join(project.root, 'prisma/schema.prisma'),
    'generator client {\n  provider = "prisma-client"\n  output   = "../generated"\n}\n\ndatasource db {\n  provider = "postgresql"\n}\n\n' +
      'model Note {\n  id   Int    @id @default(autoincrement())\n  text String\n}\n',
  );
  await writeFile(path.join(project.root, 'prisma.config.ts'), "import { defineConfig } from 'prisma/config';\nexport default defineConfig({ schema: 'prisma/schema.prisma' });\n");
  const result = await prismaCliAsync(['generate'], { cwd: project.root });
  if (result.status !== 0) throw new Error(`prisma generate failed: ${result.output}`);
  return { client: path.join(project.root, 'generated/client.ts'), cleanup: project.cleanup };
}

/** A fetch client that keeps cookies, asks for JSON, and signs in and fetches CSRF tokens. */
export class Browser {
  readonly jar = new Map<string, string>();
  constructor(public base: string) {}

  async fetch(pathname: string, init: RequestInit & { base?: string } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('Accept', 'application/json');
    if (this.jar.size > 0) headers.set('Cookie', [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch((init.base ?? this.base) + pathname, { redirect: 'manual', ...init, headers });
    keepCookies(this.jar, res);
    return res;
  }

  async json<T = Record<string, unknown>>(pathname: string, init: RequestInit & { base?: string } = {}): Promise<{ status: number; body: T }> {
    const res = await this.fetch(pathname, init);
    return { status: res.status, body: (await res.json()) as T };
  }

  /** A POST with a CSRF token from `/csrf`. */
  async post(pathname: string, base?: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const { body } = await this.json<{ token: string }>('/csrf', base ? { base } : {});
    return this.json(pathname, { method: 'POST', headers: { 'X-CSRF-Token': body.token }, ...(base ? { base } : {}) });
  }
}

/** Polls `check` until it is true; throws naming `what` after `timeoutMs`. */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The pid of the process that answers `/pid` on a fresh connection to `base`. */
export function pidOf(base: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(`${base}/pid`, { agent: false }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve((JSON.parse(text) as { pid: number }).pid));
    })
      .on('error', reject)
      .end();
  });
}
