/**
 * Flow control of one events-socket connection. A client may send requests faster than they are
 * answered, or stop reading its answers while it keeps sending; without a bound, the server
 * would run every request at once and hold every unread answer in memory. The inbox handles at
 * most {@link MAX_IN_FLIGHT} requests of a connection at a time and starts none while the socket
 * has more than `WS_MAX_BUFFERED_BYTES` unsent. Frames beyond that wait, in order, and the
 * socket stops reading, so TCP backpressure reaches the client instead of the server's memory
 * growing. Every frame is still answered once the client reads again.
 */
import type { WebSocket } from 'ws';

/** Requests of one connection handled at the same time; more wait for one to finish. */
export const MAX_IN_FLIGHT = 32;

/** A received frame: what `ws` hands to a `message` listener. */
type Received = [data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean];

/** The requests of one connection: started in arrival order, within the two bounds. */
export class Inbox {
  readonly #socket: WebSocket;
  readonly #maxBuffered: number;
  readonly #handle: (...frame: Received) => Promise<void>;
  readonly #waiting: Received[] = [];
  #inFlight = 0;

  /** `handle` answers one frame and never rejects. */
  constructor(socket: WebSocket, maxBuffered: number, handle: (...frame: Received) => Promise<void>) {
    this.#socket = socket;
    this.#maxBuffered = maxBuffered;
    this.#handle = handle;
  }

  /** Takes a frame from the socket's `message` event. */
  receive(data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): void {
    this.#waiting.push([data, isBinary]);
    this.#pump();
  }

  /** The callback of every frame sent on the socket: unsent data went out, so more may start. */
  readonly sent = (): void => {
    this.#pump();
  };

  #pump(): void {
    if (this.#socket.readyState !== this.#socket.OPEN) {
      this.#waiting.length = 0;
      return;
    }
    while (this.#waiting.length > 0 && this.#inFlight < MAX_IN_FLIGHT && this.#socket.bufferedAmount <= this.#maxBuffered) {
      const frame = this.#waiting.shift()!;
      this.#inFlight++;
      void this.#handle(...frame).finally(() => {
        this.#inFlight--;
        this.#pump();
      });
    }
    // Frames that could not start: stop reading until answers drain (a `sent` call) or a request
    // finishes; frames `ws` already read still arrive and wait here.
    if (this.#waiting.length > 0 || this.#inFlight >= MAX_IN_FLIGHT) this.#socket.pause();
    else if (this.#socket.isPaused) this.#socket.resume();
  }
}
