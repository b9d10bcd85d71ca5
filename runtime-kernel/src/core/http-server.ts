/**
 * The app's Node HTTP server, with the limits that bound hostile or broken clients, from config:
 *
 * | Key | Node setting | Default |
 * |---|---|---|
 * | `SERVER_HEADERS_TIMEOUT` | `headersTimeout`: the headers must arrive within this, counted from the request's first byte (and for a new connection from its opening) | 20 s |
 * | `SERVER_REQUEST_TIMEOUT` | `requestTimeout`: the whole request, body included | 120 s |
 * | `SERVER_KEEP_ALIVE_TIMEOUT` | `keepAliveTimeout`: an idle keep-alive connection | 65 s |
 * | `SERVER_MAX_CONNECTIONS` | `maxConnections` (0: none) | 10,000 |
 *
 * A slowloris client (headers trickling in) or a connection that never sends anything gets 408
 * and is closed once `SERVER_HEADERS_TIMEOUT` has passed; Node checks every
 * `connectionsCheckingInterval`, which fw sets to a quarter of the headers timeout.
 *
 * A request Node's parser refuses before the app sees it gets Node's status (400 malformed, 431
 * headers too large, 408 too slow, 413 chunk extensions too large) with `Connection: close` and the
 * headers of `HttpServerOptions.clientErrorHeaders` (the security plugin's inert set), then the
 * connection closes; a connection already answering, gone (`ECONNRESET`) or not writable is
 * just closed.
 *
 * Why the keep-alive timeout may exceed the headers timeout: since Node 18 the headers timeout
 * runs per request, from its first byte, and never while a keep-alive connection sits idle
 * (`test/scale/server-limits.test.ts` proves it), so the old advice "headersTimeout >
 * keepAliveTimeout" no longer applies, and following it would let slow-header connections live
 * for over a minute. The keep-alive timeout stays above the 60 s idle timeout of common load
 * balancers, so the server never closes a connection the balancer is about to reuse (a 502).
 */
import { createServer, STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import { FrameworkException } from './errors.js';

/** The config keys the server reads (seconds, and a connection count). */
export interface ServerConfig {
  /** Seconds a client may take to send the request headers; at most `SERVER_REQUEST_TIMEOUT`. */
  readonly SERVER_HEADERS_TIMEOUT: number;
  /** Seconds a client may take to send the whole request. */
  readonly SERVER_REQUEST_TIMEOUT: number;
  /** Seconds an idle keep-alive connection stays open. */
  readonly SERVER_KEEP_ALIVE_TIMEOUT: number;
  /** Most connections open at once (0: no cap). */
  readonly SERVER_MAX_CONNECTIONS: number;
}

/** The Node settings of the app's server, in milliseconds. */
export interface ServerSettings {
  /** Node's `headersTimeout` (`SERVER_HEADERS_TIMEOUT`). */
  readonly headersTimeout: number;
  /** Node's `requestTimeout` (`SERVER_REQUEST_TIMEOUT`). */
  readonly requestTimeout: number;
  /** Node's `keepAliveTimeout` (`SERVER_KEEP_ALIVE_TIMEOUT`). */
  readonly keepAliveTimeout: number;
  /** How often Node looks for requests past their timeouts. */
  readonly connectionsCheckingInterval: number;
  /** 0: no cap. */
  readonly maxConnections: number;
}

/** The server settings of a config; a headers timeout above the request timeout is an error naming both keys. */
export function serverSettings(config: ServerConfig): ServerSettings {
  const headersTimeout = config.SERVER_HEADERS_TIMEOUT * 1000;
  const requestTimeout = config.SERVER_REQUEST_TIMEOUT * 1000;
  if (headersTimeout > requestTimeout) {
    throw new FrameworkException(
      `SERVER_HEADERS_TIMEOUT (${config.SERVER_HEADERS_TIMEOUT} s) must not exceed SERVER_REQUEST_TIMEOUT (${config.SERVER_REQUEST_TIMEOUT} s): ` +
        'the headers are part of the request',
    );
  }
  return {
    headersTimeout,
    requestTimeout,
    keepAliveTimeout: config.SERVER_KEEP_ALIVE_TIMEOUT * 1000,
    connectionsCheckingInterval: Math.min(Math.max(headersTimeout / 4, 250), 30_000),
    maxConnections: config.SERVER_MAX_CONNECTIONS,
  };
}

/** Options of {@link createHttpServer}. */
export interface HttpServerOptions {
  /**
   * The headers (name, value) of the answers the server gives itself to a request its parser
   * refuses (400, 408, 413, 431), besides `Connection: close` and `Content-Length: 0`. Called for
   * each such answer, so what it returns may change after the server is made.
   */
  readonly clientErrorHeaders?: () => readonly (readonly [string, string])[];
}

/**
 * An HTTP server for `listener` with the config's timeouts and connection cap, answering the
 * requests its parser refuses itself (see the module comment).
 */
export function createHttpServer(config: ServerConfig, listener: RequestListener, options: HttpServerOptions = {}): Server {
  const settings = serverSettings(config);
  const server = createServer(
    {
      headersTimeout: settings.headersTimeout,
      requestTimeout: settings.requestTimeout,
      keepAliveTimeout: settings.keepAliveTimeout,
      connectionsCheckingInterval: settings.connectionsCheckingInterval,
      requireHostHeader: false, // the app answers it: see hostProblem
    },
    listener,
  );
  server.keepAliveTimeout = settings.keepAliveTimeout;
  if (settings.maxConnections > 0) server.maxConnections = settings.maxConnections;
  trackSockets(server);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => answerClientError(err, socket, options.clientErrorHeaders));
  return server;
}

/** Node's answer to each parser error code; any other is 400. */
const CLIENT_ERRORS: Readonly<Record<string, readonly [number, string]>> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Payload Too Large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout'],
};

/**
 * What Node's own `clientError` handling does, with `headers`: answer with the status Node would
 * use unless the connection is gone or a response on it has started (a second status line would
 * corrupt it), then close it.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex, headers: HttpServerOptions['clientErrorHeaders']): void {
  // Node keeps the response being written on the socket (its own handler checks it the same way).
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (err.code === 'ECONNRESET' || err.code === 'EPIPE' || !socket.writable || socket.writableLength > 0 || inFlight?.headersSent === true) {
    socket.destroy();
    return;
  }
  const [status, reason] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'Bad Request'];
  socket.end(socketAnswer(status, { reason, common: headers?.() }), () => socket.destroy());
}

/** What {@link socketAnswer} writes. */
export interface SocketAnswerOptions {
  /** The reason phrase; default Node's for the status. */
  reason?: string;
  /** The answer's own headers (e.g. `Retry-After`); CR, LF and a name's colon are dropped. */
  headers?: Readonly<Record<string, string>>;
  /** A JSON body (`Content-Type: application/json`); default none. */
  json?: unknown;
  /** The headers every such answer carries (`fluid.clientErrorHeaders()`: the security plugin's inert set). */
  common?: readonly (readonly [string, string])[] | undefined;
}

/**
 * A whole HTTP/1.1 answer, as written on a socket Koa never sees (a request Node's parser
 * refused, a refused websocket upgrade): the status line, `Connection: close`, the body's type and
 * length, the answer's headers, then `common`. Plain ASCII, so it goes out as one string.
 */
export function socketAnswer(status: number, options: SocketAnswerOptions = {}): string {
  const body = options.json === undefined ? '' : JSON.stringify(options.json);
  let head = `HTTP/1.1 ${status} ${options.reason ?? STATUS_CODES[status] ?? 'Error'}\r\nConnection: close\r\n`;
  if (body !== '') head += 'Content-Type: application/json; charset=utf-8\r\n';
  head += `Content-Length: ${Buffer.byteLength(body)}\r\n`;
  for (const [name, value] of Object.entries(options.headers ?? {})) head += `${name.replace(/[\r\n:]/g, '')}: ${String(value).replace(/[\r\n]/g, '')}\r\n`;
  for (const [name, value] of options.common ?? []) head += `${name}: ${value}\r\n`;
  return `${head}\r\n${body}`;
}

/**
 * What is wrong with a request's `Host` field lines, if anything. `'duplicate'`: more than one;
 * RFC 9112 §3.2 requires a 400, and Node keeps the first and drops the rest while a proxy in front
 * may have routed by another one, so the app and the proxy would disagree on the origin (the CSRF
 * origin check uses it). `'missing'`: none in an HTTP/1.1 request, also a 400; fw's server leaves
 * this one to the app (Node's own answer would carry none of the app's headers). `'invalid'`: one
 * whose value is not a host and port (RFC 9112 §3.2 requires a 400 too): Koa would build
 * `ctx.origin` and `ctx.href` from it, and `evil.example:80@app` parses as host `app`.
 */
export function hostProblem(req: IncomingMessage): 'duplicate' | 'missing' | 'invalid' | undefined {
  const rawHeaders = req.rawHeaders;
  let value: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length !== 4 || name.toLowerCase() !== 'host') continue;
    if (value !== undefined) return 'duplicate';
    value = rawHeaders[i + 1] ?? '';
  }
  if (value !== undefined) return HOST_VALUE.test(value) ? undefined : 'invalid';
  return req.httpVersionMajor !== 1 || req.httpVersionMinor === 0 ? undefined : 'missing';
}

/**
 * RFC 9112 §3.2's `Host = uri-host [ ":" port ]` (RFC 3986: an IP literal in brackets, or a
 * reg-name of unreserved, percent-encoded and sub-delim characters, which covers IPv4), possibly
 * empty. Anything else (`evil.example:80@app`, a space, a path, an unclosed `[`) is `'invalid'`.
 */
const HOST_VALUE = /^(?:\[[0-9A-Za-z:.%]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]*)(?::[0-9]*)?$/;

/**
 * Every open socket of a server made by {@link createHttpServer}, upgraded ones included: Node's
 * `closeAllConnections()` knows only HTTP connections, and an upgraded socket nobody ends (a
 * proxied websocket, say) would keep `server.close()` from ever calling back.
 */
const openSockets = new WeakMap<Server, Set<Socket>>();

function trackSockets(server: Server): void {
  const sockets = new Set<Socket>();
  openSockets.set(server, sockets);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
}

/**
 * From now on every response on `server` says `Connection: close` and ends its connection, so
 * clients and proxies holding keep-alive connections open new ones (elsewhere) for their next
 * request. Used while the app drains; costs nothing before.
 */
export function closeAfterResponses(server: Server): void {
  server.prependListener('request', (_req, res) => {
    res.shouldKeepAlive = false;
  });
}

/**
 * Stops accepting connections, closes the idle ones, lets in-flight requests finish within
 * `timeoutMs`, then closes whatever is still open. Resolves once the server is closed.
 */
export function stopServer(server: Server, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    if (!server.listening) {
      server.closeAllConnections();
      for (const socket of openSockets.get(server) ?? []) socket.destroy();
      resolve();
      return;
    }
    closeAfterResponses(server);
    const timer = setTimeout(() => {
      server.closeAllConnections();
      for (const socket of openSockets.get(server) ?? []) socket.destroy(); // upgraded ones too
    }, timeoutMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
