/** A small real `ws` client for the socket tests: answers by id, pushed events in order. */
import { WebSocket } from 'ws';

/** A JSON frame the server sent. */
export type Frame = Record<string, unknown>;

/** A connected test client. */
export interface TestClient {
  readonly ws: WebSocket;
  /** Sends a frame with a fresh id and resolves with the answer carrying that id. */
  request(frame: Record<string, unknown>): Promise<Frame>;
  /** Sends raw text or bytes; resolves with the next answer frame (one without `event`). */
  raw(data: string | Buffer, options?: { binary?: boolean }): Promise<Frame>;
  /** Pushed event frames received so far. */
  readonly events: Frame[];
  /** Resolves once `count` pushed events have arrived (rejects after `timeoutMs`). */
  waitForEvents(count: number, timeoutMs?: number): Promise<Frame[]>;
  /** Resolves with the close code. */
  readonly closed: Promise<number>;
  close(): Promise<void>;
}

/** Opens `url` (ws://...) and waits for the connection. */
export async function connect(url: string, headers: Record<string, string> = {}): Promise<TestClient> {
  const ws = new WebSocket(url, { headers });
  const events: Frame[] = [];
  const answers: Frame[] = [];
  const waiters: (() => void)[] = [];
  let nextId = 1;
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as Frame;
    if ('event' in frame) events.push(frame);
    else answers.push(frame);
    for (const w of waiters.splice(0)) w();
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
  const until = async (check: () => boolean, what: string, timeoutMs = 5000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  };
  return {
    ws,
    events,
    closed,
    async request(frame) {
      const id = nextId++;
      ws.send(JSON.stringify({ id, ...frame }));
      let found: Frame | undefined;
      await until(() => (found = answers.find((a) => a.id === id)) !== undefined, `answer ${id}`);
      answers.splice(answers.indexOf(found!), 1);
      return found!;
    },
    async raw(data, options = {}) {
      const before = answers.length;
      ws.send(data, { binary: options.binary ?? false });
      await until(() => answers.length > before, 'an answer');
      return answers.splice(before, 1)[0]!;
    },
    async waitForEvents(count, timeoutMs = 5000) {
      await until(() => events.length >= count, `${count} events (have ${events.length})`, timeoutMs);
      return events;
    },
    async close() {
      if (ws.readyState === ws.CLOSED) return;
      ws.close();
      await closed;
    },
  };
}
