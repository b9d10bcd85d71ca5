/**
 * Debug mode (the reference's `dev.startup_hook`): one shared Vite dev server for every
 * workspace of the project, rooted at the project root and listening on a free loopback port,
 * proxied at `/vite-dev` — HTTP through koa-proxies, the HMR websocket through http-proxy's
 * `ws` (koa-proxies does not proxy upgrades). Vite is imported only here, on first use.
 *
 * The proxy targets a fixed port, so it survives `restart()` of the dev server (Vite re-listens
 * on the same port); while the server is down a request answers 503.
 */
import { existsSync, realpathSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { FluidMiddleware } from '../core/context.js';
import type { Logger } from '../core/errors.js';
import { importOptional, type OptionalUse } from '../core/optional.js';
import { FrontendException } from './errors.js';
import { VITE_DEV_PREFIX } from './html.js';

/** A running shared dev server and its proxy. */
export interface DevServer {
  /** The dev server's own origin, e.g. `http://127.0.0.1:41234`. */
  readonly origin: string;
  /** Koa middleware proxying `/vite-dev/...` to the dev server. */
  readonly proxy: FluidMiddleware;
  /** Proxies a websocket upgrade under `/vite-dev`; answers false for any other path. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Restarts the dev server on the same port (config reload). */
  restart(): Promise<void>;
  /** Ends the proxied HMR sockets: an upgraded socket would keep the app's server from closing. */
  endSockets(): void;
  /** Stops the dev server and the proxy. */
  close(): Promise<void>;
}

/** Config files the orchestrating `vite.config` may have at the project root. */
export const VITE_CONFIG_FILES = ['vite.config.js', 'vite.config.mjs', 'vite.config.ts', 'vite.config.mts'] as const;

/**
 * What the dev server may never serve, whatever its `fs.allow` (issue 17 §1): secrets and the
 * server side of the app. Vite's own defaults (`.env`, `.env.*`, certificates, `.git`) stay.
 */
export const DEV_DENY = ['.env', '.env.*', '*.{crt,pem}', '**/.git/**', '**/app_configs/**', '**/*.ini', '**/.fw/**', '**/fw.json', '**/fluid/*.ts'];

/**
 * Starts the shared dev server for `projectRoot`. Its reach is the frontend `workspaces`
 * (folders relative to the root, e.g. `fluid/frontend`) and the installed packages: Vite's
 * `server.fs.allow` lists only those, {@link DEV_DENY} is its deny list, and the proxy answers
 * 404 for any other path before Vite sees it ({@link allowedDevPath}).
 */
export async function startDevServer(projectRoot: string, logger: Logger, workspaces: readonly string[]): Promise<DevServer> {
  const use: OptionalUse = { root: projectRoot, feature: 'a Vite surface in debug mode (APP_FRONTEND or a manifest "frontend" of type "vite", with DEBUG on)' };
  const [{ createServer }, proxyModule, httpProxy] = await Promise.all([
    importOptional<typeof import('vite')>('vite', use),
    importOptional<{ default: typeof import('koa-proxies') }>('koa-proxies', use),
    importOptional<{ default: typeof import('http-proxy') }>('http-proxy', use),
  ]);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const configFile = VITE_CONFIG_FILES.map((f) => join(projectRoot, f)).find((f) => existsSync(f)) ?? false;
  let server;
  try {
    server = await createServer({
      configFile,
      root: projectRoot,
      base: `${VITE_DEV_PREFIX}/`,
      appType: 'custom',
      clearScreen: false,
      logLevel: 'warn',
      server: { host: '127.0.0.1', port, strictPort: true, fs: { strict: true, allow: devAllow(projectRoot, workspaces), deny: DEV_DENY } },
    });
    await server.listen();
  } catch (err) {
    await server?.close();
    throw new FrontendException(`The Vite dev server could not start in ${projectRoot}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const current = { server };
  const forward = proxyModule.default(VITE_DEV_PREFIX, { target: origin, changeOrigin: false, logs: false }) as FluidMiddleware;
  const allowed = allowedDevPath(projectRoot, workspaces);
  const koaProxy: FluidMiddleware = (ctx, next) => {
    if (ctx.path !== VITE_DEV_PREFIX && !ctx.path.startsWith(`${VITE_DEV_PREFIX}/`)) return next();
    if (!allowed(ctx.path.slice(VITE_DEV_PREFIX.length))) {
      ctx.status = 404; // outside the frontend workspaces and packages: as if it did not exist
      return;
    }
    return forward(ctx, next);
  };
  const wsProxy = httpProxy.default.createProxyServer({ target: origin, ws: true });
  const sockets = new Set<Duplex>();
  const endSockets = (): void => {
    for (const socket of sockets) socket.destroy();
  };
  wsProxy.on('error', (err, _req, socket) => {
    logger.warn('vite-dev websocket proxy failed', { error: err });
    if (socket && 'destroy' in socket) socket.destroy();
  });
  // Debug level: the dev server's own address is internal (the app proxies it), and printed
  // before "fw: <app> serving at <url>" it was the address people opened (`@fw/kernel/docs/dev.md`).
  logger.debug('vite dev server started (internal: the app proxies it at /vite-dev; open the app\'s own address)', {
    internalOrigin: origin,
    configFile: configFile || 'none',
  });

  return {
    origin,
    proxy: koaProxy,
    upgrade(req, socket, head) {
      const url = req.url ?? '';
      if (url !== VITE_DEV_PREFIX && !url.startsWith(`${VITE_DEV_PREFIX}/`) && !url.startsWith(`${VITE_DEV_PREFIX}?`)) return false;
      // Vite's HMR socket lives at the base itself (`/vite-dev/?token=...`); nothing else upgrades.
      const path = url.slice(VITE_DEV_PREFIX.length).split('?')[0];
      if (path !== '' && path !== '/') {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return true;
      }
      // Vite takes only its own subprotocols and leaves any other upgrade unanswered: the socket
      // would stay open for ever (no server timeout applies once a connection is upgraded).
      const protocols = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
      if (!protocols.some((p) => VITE_PROTOCOLS.has(p))) {
        socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return true;
      }
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      wsProxy.ws(req, socket, head);
      return true;
    },
    async restart() {
      await current.server.restart();
    },
    endSockets,
    async close() {
      endSockets();
      wsProxy.close();
      await current.server.close();
    },
  };
}

/** The websocket subprotocols Vite's HMR server answers (its client's, and its ping's). */
const VITE_PROTOCOLS: ReadonlySet<string> = new Set(['vite-hmr', 'vite-ping']);

/** `server.fs.allow`: the workspaces and every `node_modules` from the root up (packages hoisted above it). */
function devAllow(projectRoot: string, workspaces: readonly string[]): string[] {
  const allow = workspaces.map((w) => resolve(projectRoot, w));
  for (let dir = resolve(projectRoot); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules'))) allow.push(join(dir, 'node_modules'));
    if (dirname(dir) === dir) break;
  }
  return allow;
}

// Decoded characters no dev-server path may contain: backslash, NUL, C0 controls, DEL.
const FORBIDDEN = /[\\\u0000-\u001f\u007f]/;

/**
 * The gate in front of the dev server: answers whether a path under `/vite-dev` (the part after
 * the prefix, raw from the request line, query included) may reach Vite. Allowed:
 *
 * - Vite's virtual modules (`/@vite/client`, `/@react-refresh`, `/@solid-refresh`, `/@id/<bare id>`;
 *   an `/@id/` naming a file or folder of the project root is judged as that file);
 * - files inside a frontend workspace or a `node_modules` folder, as a root-relative path or as
 *   `/@fs/<absolute path>`;
 *
 * and never a dot segment (other than `node_modules/.vite`), a `..`, a backslash, a control
 * character, a still-encoded (double-encoded) character or anything the deny list names.
 */
export function allowedDevPath(projectRoot: string, workspaces: readonly string[]): (raw: string) => boolean {
  const root = resolve(projectRoot);
  const spaces = workspaces.map((w) => resolve(root, w));
  const within = (file: string) => spaces.some((w) => file.startsWith(w + sep)) || inNodeModules(file);
  // Inside the root: the path from the root; a package above it: the path from its node_modules.
  const named = (file: string, base: string): string => (file.startsWith(base + sep) ? relative(base, file) : file.slice(file.indexOf(`${sep}node_modules${sep}`) + 1));
  // A symlink is judged by its target too, so a link in a workspace to fw.json or fluid/app.ts
  // reaches nothing the gate refuses by name. A target outside the project (a linked package, a
  // shared folder) is checked by name only.
  const realRoot = realFile(root);
  const realSpaces = spaces.map(realFile);
  const allowedTarget = (file: string): boolean => {
    const real = realFile(file);
    if (real === file) return true; // no link on the way (or no such file): already checked
    if (!real.startsWith(realRoot + sep)) return !denied(inNodeModules(real) ? named(real, realRoot) : real.slice(1));
    return (realSpaces.some((w) => real.startsWith(w + sep)) || inNodeModules(real)) && !denied(relative(realRoot, real));
  };
  return (raw) => {
    let path: string;
    try {
      path = decodeURIComponent(raw.split('?')[0]!);
    } catch {
      return false;
    }
    if (!path.startsWith('/') || FORBIDDEN.test(path) || /%[0-9a-f]{2}/i.test(path)) return false;
    const segments = path.slice(1).split('/');
    if (segments.some((s) => s === '..' || s === '.')) return false;
    const [first = '', ...rest] = segments;
    if (first === '@fs') {
      const file = resolve('/', rest.join('/'));
      if ('/' + rest.join('/') !== file || !within(file)) return false;
      return !denied(named(file, root)) && allowedTarget(file);
    }
    if (first === '@id') {
      if (rest.length === 0 || rest[0] === '' || rest.join('/').startsWith('/') || denied(rest.join('/'))) return false;
      // Vite resolves an id naming something in the project root as a root-relative file
      // (`/@id/eslint.config.js?raw`): the same rule as a plain path then.
      if (!existsSync(join(root, rest[0]!))) return true;
      const file = resolve(root, ...rest);
      return within(file) && allowedTarget(file);
    }
    if (first.startsWith('@')) return rest.length === 0 || segments.every((s) => s !== '');
    const file = resolve(root, ...segments);
    return within(file) && !denied(segments.join('/')) && allowedTarget(file);
  };
}

/** A file's real path (symlinks resolved), or the path itself when it does not exist (Vite answers 404). */
function realFile(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

function inNodeModules(file: string): boolean {
  return file.split(sep).includes('node_modules');
}

/** The deny list, for a path relative to the project root (or a package id). */
function denied(rel: string): boolean {
  const segments = rel.split(/[\\/]/);
  const name = segments[segments.length - 1] ?? '';
  if (segments.some((s, i) => s.startsWith('.') && !(s === '.vite' && segments[i - 1] === 'node_modules'))) return true;
  if (segments.includes('app_configs') || name.endsWith('.ini') || name === 'fw.json' || /\.(?:crt|pem)$/.test(name)) return true;
  return segments.length === 2 && segments[0] === 'fluid' && name.endsWith('.ts');
}

/** A free loopback port (the dev server then binds it with `strictPort`). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
