/**
 * The dev-loop tests run the real thing: `fw dev` (the built CLI, `generators/dist`) in a project
 * under the repo's `.tmp/`, so the app resolves `@fw/kernel` (built, `runtime-kernel/dist`),
 * Tailwind, Vite and tsx from the repo's node_modules with no install. Needs `npm run build`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../support/process.js';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const FW_BIN = path.join(REPO, 'generators/dist/bin/fw.js');

/**
 * Runs the built `fw <argv>` in `root` asynchronously (a `fw dev` beside it keeps printing); its
 * exit code and output (stdout and stderr, interleaved).
 */
export function fwCli(root: string, ...argv: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [FW_BIN, ...argv], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}
const BUILDS = [FW_BIN, path.join(REPO, 'runtime-kernel/dist/index.js')];

/**
 * Gives the project at `root` its own `fw` the way npm links it (`node_modules/.bin/fw` → @fw/cli),
 * running this checkout's build: the project's scripts and `npx fw` then use it.
 */
export function linkCheckoutFw(root: string): void {
  mkdirSync(path.join(root, 'node_modules/.bin'), { recursive: true });
  writeFileSync(path.join(root, 'node_modules/.bin/fw'), `#!/bin/sh\nexec "${process.execPath}" "${FW_BIN}" "$@"\n`, { mode: 0o755 });
}

/** Throws when the built CLI or kernel is missing (the dev loop runs them as a user would). */
export function requireBuild(): void {
  const missing = BUILDS.filter((f) => !existsSync(f));
  if (missing.length > 0) throw new Error(`missing build output ${missing.join(', ')}: run "npm run build" first (npm test does).`);
}

const made: string[] = [];

/** Writes a project (relative path → content) under the repo's `.tmp/`; answers its root. */
export function devProject(files: Record<string, string>): string {
  mkdirSync(path.join(REPO, '.tmp'), { recursive: true });
  const root = mkdtempSync(path.join(REPO, '.tmp', 'fw-dev-'));
  made.push(root);
  writeTree(root, files);
  return root;
}

/** Writes files under `root`. */
export function writeTree(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** Replaces `from` by `to` in a project file (throws when `from` is not there). */
export function edit(root: string, rel: string, from: string, to: string): void {
  const file = path.join(root, rel);
  const text = readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${rel} does not contain ${JSON.stringify(from)}`);
  writeFileSync(file, text.replace(from, to));
}

/** Removes every project made so far. */
export function cleanupDevProjects(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A minimal htmx app with a named home route and a route that throws. */
export function htmxApp(options: { tailwind?: boolean; ini?: string } = {}): Record<string, string> {
  return {
    'package.json': JSON.stringify({ name: 'devapp', private: true, type: 'module' }),
    'fw.json': JSON.stringify({ name: 'devapp', config: { APP_FRONTEND: { type: 'htmx', alpine: false }, FW_TAILWIND: options.tailwind ?? false } }, null, 2),
    'app_configs/devapp.ini': options.ini ?? 'SECRET_KEY = dev-loop-test-secret\n',
    'fluid/app.ts': [
      "import { Fluid } from '@fw/kernel';",
      "export const fluid = new Fluid({ root: new URL('..', import.meta.url) });",
      "fluid.app.get('home', '/', (ctx) => ctx.render('index.html', { title: 'devapp' }));",
      'export default fluid;',
      '',
    ].join('\n'),
    'fluid/templates/index.html': '<!doctype html>\n<html><head>{{frontend}}</head>\n<body><h1 class="text-lg">{{title}}</h1></body></html>\n',
    'fluid/static/app.css': 'body { margin: 0; }\n',
    ...(options.tailwind ? { 'fluid/static/tailwind_raw.css': '@import "tailwindcss";\n' } : {}),
  };
}

/** A running `fw dev` (or `fw run`) and everything it printed. */
export class DevRun {
  readonly child: ChildProcess;
  readonly base: string;
  output = '';
  readonly exited: Promise<number | null>;

  private constructor(child: ChildProcess, base: string) {
    this.child = child;
    this.base = base;
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  }

  /** Starts `fw <args> --port <port>` (a free one by default) in `root`, with `env` over this process's environment. */
  static start(root: string, args: string[], env: NodeJS.ProcessEnv = {}, port?: number): Promise<DevRun> {
    return DevRun.spawn(root, process.execPath, [FW_BIN, ...args], env, false, port);
  }

  /** Starts the app's own `npm run <script> -- --port <free>` in `root` (its own process group). */
  static npm(root: string, script: string, env: NodeJS.ProcessEnv = {}): Promise<DevRun> {
    return DevRun.spawn(root, 'npm', ['run', script, '--'], env, true);
  }

  private static async spawn(root: string, command: string, args: string[], env: NodeJS.ProcessEnv, group = false, given?: number): Promise<DevRun> {
    const port = given ?? (await freePort());
    const { FW_ENV: _unset, ...inherited } = process.env; // the test decides FW_ENV
    const child = spawn(command, [...args, '--port', String(port)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...inherited, FW_LOG_LEVEL: 'info', ...env },
      detached: group,
    });
    const run = new DevRun(child, `http://127.0.0.1:${port}`);
    run.#group = group;
    return run;
  }

  #group = false;

  /** How many times the app was (re)started: one "serving at" line per boot. */
  get boots(): number {
    return this.output.match(/serving at http/g)?.length ?? 0;
  }

  /** How many restarts the watcher announced. */
  get restarts(): number {
    return this.output.match(/changed, restarting/g)?.length ?? 0;
  }

  /** Polls `check` every 100 ms until it holds; throws with the output after `ms`. */
  async waitFor(check: () => boolean | Promise<boolean>, what: string, ms = 60_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (this.child.exitCode !== null) throw new Error(`fw exited early while waiting for ${what}:\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms / 1000} s:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Waits for boot number `n` (1 = the first). */
  waitForBoot(n = 1): Promise<void> {
    return this.waitFor(() => this.boots >= n, `boot ${n}`);
  }

  /** SIGTERM (to its process group when it has one: npm, the shell, fw) and the exit code. */
  async stop(): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      if (this.#group && this.child.pid) process.kill(-this.child.pid, 'SIGTERM');
      else this.child.kill('SIGTERM');
    }
    return this.exited;
  }
}

/** Reads server-sent events from `url`; `events` grows as they arrive. */
export async function sse(url: string): Promise<{ events: { event: string; data: string }[]; close: () => void }> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal, headers: { accept: 'text/event-stream' } });
  if (res.status !== 200 || !res.body) throw new Error(`${url}: ${res.status}`);
  const events: { event: string; data: string }[] = [];
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1] ?? '';
          if (event) events.push({ event, data });
        }
      }
    } catch {
      // aborted
    }
  })();
  return { events, close: () => controller.abort() };
}
