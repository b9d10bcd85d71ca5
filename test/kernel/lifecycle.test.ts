import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Additive } from '@fw/kernel';
import { baseUrl, cleanupProjects, makeFluid, makeProject, start } from './helpers.js';

afterAll(cleanupProjects);

const REPO = fileURLToPath(new URL('../..', import.meta.url));

describe('mix() and close()', () => {
  it('runs startup hooks once and shutdown hooks once', async () => {
    const fluid = makeFluid();
    const seen: string[] = [];
    fluid.onStartup(() => void seen.push('startup'));
    fluid.onShutdown(async () => void seen.push('shutdown'));
    fluid.app.get('home', '/', () => 'ok');
    await Promise.all([fluid.mix(), fluid.mix()]);
    const url = await start(fluid);
    expect(await (await fetch(url)).text()).toBe('ok');
    await fluid.mix();
    expect(seen).toEqual(['startup']);
    await Promise.all([fluid.close(), fluid.close()]);
    await fluid.close();
    expect(seen).toEqual(['startup', 'shutdown']);
    await expect(fetch(url)).rejects.toThrow();
  });

  it('runs the hooks under a foreign server: http.createServer(fluid.callback())', async () => {
    const fluid = makeFluid();
    const seen: string[] = [];
    fluid.onStartup(async () => {
      await new Promise((r) => setTimeout(r, 50));
      seen.push('startup');
    });
    fluid.onShutdown(() => void seen.push('shutdown'));
    fluid.app.get('home', '/', () => `started=${seen.includes('startup')}`);
    const server: Server = createServer(fluid.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    expect(seen).toEqual([]);
    const [a, b] = await Promise.all([fetch(baseUrl(server)), fetch(baseUrl(server))]);
    expect(await a.text()).toBe('started=true');
    expect(await b.text()).toBe('started=true');
    expect(seen).toEqual(['startup']);
    await new Promise((r) => server.close(r));
    await fluid.close();
    expect(seen).toEqual(['startup', 'shutdown']);
  });

  it('does not run shutdown hooks for an app that never started', async () => {
    const fluid = makeFluid();
    let ran = false;
    fluid.onShutdown(() => void (ran = true));
    await fluid.close();
    expect(ran).toBe(false);
  });

  it('runs beforeEnable before the Additive routes are mounted, then the startup hooks; routes are frozen after', async () => {
    const root = makeProject();
    const fluid = makeFluid();
    const blog = new Additive('blog', { root });
    const order: string[] = [];
    blog.app.get('index', '/', () => 'blog');
    blog.beforeEnable((app) => {
      const mounted = app.koa.middleware.some((mw) => (mw as { router?: unknown }).router === blog.app.router);
      order.push(`beforeEnable mounted=${mounted} mixed=${app.mixed}`);
      blog.app.get('late', '/late', () => 'added in beforeEnable');
    });
    fluid.onStartup(() => void order.push('startup'));
    fluid.additive(blog);
    const url = await start(fluid);
    expect(order).toEqual(['beforeEnable mounted=false mixed=false', 'startup']);
    expect(fluid.koa.middleware.some((mw) => (mw as { routers?: unknown[] }).routers?.includes(blog.app.router))).toBe(true);
    expect(() => blog.app.get('too-late', '/too-late', () => 'x')).toThrow(/the app has started/);
    expect(() => fluid.beforeRequest(() => undefined)).toThrow(/the app has started/);
    expect(await (await fetch(`${url}/blog/late`)).text()).toBe('added in beforeEnable');
    await fluid.close();
  });

  it('close() ends an upgraded socket nobody ends once SERVER_DRAIN_TIMEOUT has passed (it would hold the server open for ever)', async () => {
    const fluid = makeFluid({ config: { SERVER_DRAIN_TIMEOUT: 1 } });
    fluid.app.get('home', '/', () => 'ok');
    // A plugin that takes upgrades and keeps the socket, as a proxied websocket does.
    fluid.plugin({ name: 'holds-upgrades', upgrade: (_fluid, _req, socket) => (socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n'), true) });
    const url = new URL(await start(fluid));
    const client = connect(Number(url.port), url.hostname);
    client.write(`GET / HTTP/1.1\r\nHost: ${url.host}\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n`);
    const switched = await new Promise<string>((resolve) => client.once('data', (d: Buffer) => resolve(d.toString())));
    expect(switched).toMatch(/^HTTP\/1\.1 101/);
    const clientClosed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    await fluid.close(); // before the fix this never resolved
    await clientClosed;
    expect(client.destroyed).toBe(true);
  });

  it('answers 500 and logs when a startup hook fails', async () => {
    const fluid = makeFluid();
    fluid.onStartup(() => {
      throw new Error('boom at startup');
    });
    const server = createServer(fluid.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const res = await fetch(baseUrl(server));
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('boom');
    expect((fluid.logger as unknown as { lines: string[] }).lines.join('\n')).toContain('boom at startup');
    await new Promise((r) => server.close(r));
    await expect(fluid.listen(0)).rejects.toThrow();
  });
});

describe('serve() in a child process', () => {
  it('shuts down gracefully on SIGTERM: in-flight request finishes, shutdown hook runs, exit 0', async () => {
    const root = makeProject();
    const script = join(root, 'serve.mts');
    writeFileSync(
      script,
      `import { Fluid, serve } from ${JSON.stringify(join(REPO, 'runtime-kernel/src/index.ts'))};
const fluid = new Fluid({ root: ${JSON.stringify(root)} });
fluid.app.get('slow', '/slow', async () => { process.stdout.write('slow started\\n'); await new Promise((r) => setTimeout(r, 400)); return 'slow done'; });
fluid.onShutdown(() => { process.stdout.write('shutdown hook ran\\n'); });
await serve(fluid, { port: 0, host: '127.0.0.1' });
`,
    );
    // tsx (as `npx tsx` runs it) relays SIGTERM to the script and exits with its code.
    const child = spawn(join(REPO, 'node_modules/.bin/tsx'), ['--tsconfig', join(REPO, 'test/tsconfig.json'), script], {
      cwd: REPO,
      env: { ...process.env, FW_LOG_LEVEL: 'error', SERVER_DRAIN_DELAY: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed; stdout=${out} stderr=${err}`)), 30_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /serving at (http:\/\/\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
    });
    const slow = fetch(`${url}/slow`);
    // SIGTERM while the request is in the handler
    await new Promise<void>((resolve) => {
      const check = () => (out.includes('slow started') ? resolve() : setTimeout(check, 10));
      check();
    });
    child.kill('SIGTERM');
    const res = await slow;
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('slow done');
    expect(await exited).toBe(0);
    expect(out).toContain('shutdown hook ran');
    // On stdout the backends line comes first, then "serving at" (as with workers).
    expect(out.split('\n').filter((l) => l.startsWith('fw: '))).toEqual(['fw: backends: cache file (this host)', `fw: demo serving at ${url}`]);
  });
});

describe('serve() under an npm script whose parent dies without a signal', () => {
  /**
   * Runs `body` (after the kernel's import) as a server whose parent is a plain process started
   * as an npm script would be; `out` gathers both streams of the two, `closed` settles once the
   * server, which shares them, has exited too.
   */
  function underParent(body: string, env: Record<string, string> = {}) {
    const root = makeProject();
    const script = join(root, 'serve.mts');
    writeFileSync(script, `import { Fluid, serve } from ${JSON.stringify(join(REPO, 'runtime-kernel/src/index.ts'))};\nconst root = ${JSON.stringify(root)};\n${body}`);
    const starter = `const c = require('node:child_process').spawn(process.execPath, ['--import', 'tsx', ${JSON.stringify(script)}], { stdio: 'inherit' }); console.log('server pid ' + c.pid); setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['-e', starter], {
      cwd: REPO,
      env: { ...process.env, npm_lifecycle_event: 'dev', TSX_TSCONFIG_PATH: join(REPO, 'test/tsconfig.json'), SERVER_DRAIN_DELAY: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const run = { parent, out: '', closed: new Promise<void>((resolve) => parent.stdout.on('close', () => resolve())) };
    parent.stdout.on('data', (d: Buffer) => (run.out += d.toString()));
    parent.stderr.on('data', (d: Buffer) => (run.out += d.toString()));
    return run;
  }

  /** Waits until `pattern` is in the output, then kills the parent; answers the server's pid. */
  async function killParentAt(run: ReturnType<typeof underParent>, pattern: RegExp): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${pattern} never printed: ${run.out}`)), 30_000);
      const check = () => pattern.test(run.out) && (clearTimeout(timer), resolve());
      run.parent.stdout.on('data', check);
      check();
    });
    const server = Number(/server pid (\d+)/.exec(run.out)![1]);
    run.parent.kill('SIGKILL');
    return server;
  }

  function killServer(server: number | undefined): void {
    if (server === undefined) return;
    try {
      process.kill(server, 'SIGKILL');
    } catch {
      // exited already
    }
  }

  it('under fw dev it names fw dev and its pid (not "the npm script"), then shuts down', async () => {
    // What fw run does in the app fw dev runs: the mark with fw dev's pid (here: the parent).
    const run = underParent(`(globalThis as Record<symbol, unknown>)[Symbol.for('fw.devParent')] = process.ppid;
const fluid = new Fluid({ root });
fluid.onShutdown(async () => { await new Promise((r) => setTimeout(r, 1500)); process.stdout.write('shutdown hook ran\\n'); });
await serve(fluid, { port: 0, host: '127.0.0.1' });
`);
    let server: number | undefined;
    try {
      server = await killParentAt(run, /serving at http/);
      await run.closed;
      expect(run.out).toContain(`fw dev (pid ${run.parent.pid}), which ran this app, has exited without stopping it`);
      expect(run.out).not.toContain('the npm script that started this server');
      expect(run.out).toContain('shutdown hook ran');
    } finally {
      killServer(server);
    }
  }, 60_000);

  it('a parent that dies while the app still boots is noticed too (the orphan does not serve for ever)', async () => {
    // The app boots slowly: its parent is gone before serve() starts watching it.
    const run = underParent(`const first = process.ppid;
process.stdout.write('booting\\n');
while (process.ppid === first) await new Promise((r) => setTimeout(r, 20));
const fluid = new Fluid({ root });
fluid.onShutdown(() => { process.stdout.write('shutdown hook ran\\n'); });
await serve(fluid, { port: 0, host: '127.0.0.1' });
`);
    let server: number | undefined;
    try {
      server = await killParentAt(run, /booting/);
      await run.closed;
      expect(run.out).toContain(`the npm script that started this server (parent pid ${run.parent.pid}) has exited without passing on a signal`);
      expect(run.out).toContain('shutdown hook ran');
    } finally {
      killServer(server);
    }
  }, 60_000);
});

describe('listen()', () => {
  it('names the address when the port is taken', async () => {
    const a = makeFluid();
    const b = makeFluid();
    const server = await a.listen(0, '127.0.0.1');
    const { port } = server.address() as { port: number };
    await expect(b.listen(port, '127.0.0.1')).rejects.toThrow(`Cannot listen on 127.0.0.1:${port}: EADDRINUSE`);
    await a.close();
    await b.close();
  });
});
