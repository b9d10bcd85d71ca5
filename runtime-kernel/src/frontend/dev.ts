/**
 * Debug mode (the reference's `dev.startup_hook`): one shared Vite dev server for every
 * workspace of the project, rooted at the project root and listening on a free loopback port,
 * proxied at `/vite-dev` — HTTP through koa-proxies, the HMR websocket through http-proxy's
 * `ws` (koa-proxies does not proxy upgrades). Vite is imported only here, on first use.
 *
 * The proxy targets a fixed port, so it survives `restart()` of the dev server (Vite re-listens
 * on the same port); while the server is down a request answers 503.
 */
import { existsSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
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
  /** Stops the dev server and the proxy. */
  close(): Promise<void>;
}

/** Config files the orchestrating `vite.config` may have at the project root. */
export const VITE_CONFIG_FILES = ['vite.config.js', 'vite.config.mjs', 'vite.config.ts', 'vite.config.mts'] as const;

/** Starts the shared dev server for `projectRoot`. */
export async function startDevServer(projectRoot: string, logger: Logger): Promise<DevServer> {
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
      server: { host: '127.0.0.1', port, strictPort: true, fs: { allow: [projectRoot] } },
    });
    await server.listen();
  } catch (err) {
    await server?.close();
    throw new FrontendException(`The Vite dev server could not start in ${projectRoot}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const current = { server };
  const koaProxy = proxyModule.default(VITE_DEV_PREFIX, { target: origin, changeOrigin: false, logs: false }) as FluidMiddleware;
  const wsProxy = httpProxy.default.createProxyServer({ target: origin, ws: true });
  wsProxy.on('error', (err, _req, socket) => {
    logger.warn('vite-dev websocket proxy failed', { error: err });
    if (socket && 'destroy' in socket) socket.destroy();
  });
  logger.info('vite dev server started', { origin, configFile: configFile || 'none' });

  return {
    origin,
    proxy: koaProxy,
    upgrade(req, socket, head) {
      const url = req.url ?? '';
      if (url !== VITE_DEV_PREFIX && !url.startsWith(`${VITE_DEV_PREFIX}/`) && !url.startsWith(`${VITE_DEV_PREFIX}?`)) return false;
      wsProxy.ws(req, socket, head);
      return true;
    },
    async restart() {
      await current.server.restart();
    },
    async close() {
      wsProxy.close();
      await current.server.close();
    },
  };
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
