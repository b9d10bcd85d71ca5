import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A test HTTP server on 127.0.0.1 with a free port. */
export interface TestServer {
  server: Server;
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  base: string;
  close: () => Promise<void>;
}

/** Starts `handler` on 127.0.0.1:0. */
export async function serve(handler: RequestListener): Promise<TestServer> {
  const server = createServer(handler);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
