/**
 * `BoundedQueue`: a fixed-size FIFO ring. Pushing onto a full queue drops the oldest item and
 * hands it back, so a slow consumer loses old events instead of growing without bound.
 */

/** A FIFO of at most `capacity` items; the oldest item gives way when it is full. */
export class BoundedQueue<T> {
  /** The most items the queue holds. */
  readonly capacity: number;
  readonly #items: (T | undefined)[];
  #head = 0;
  #size = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`BoundedQueue: capacity must be a positive integer, got ${String(capacity)}`);
    }
    this.capacity = capacity;
    this.#items = new Array<T | undefined>(capacity);
  }

  /** How many items wait. */
  get size(): number {
    return this.#size;
  }

  /** Appends `item`; when the queue was full, returns `{ dropped }` holding the oldest item. */
  push(item: T): { dropped: T } | undefined {
    if (this.#size < this.capacity) {
      this.#items[(this.#head + this.#size) % this.capacity] = item;
      this.#size++;
      return undefined;
    }
    const dropped = this.#items[this.#head] as T;
    this.#items[this.#head] = item;
    this.#head = (this.#head + 1) % this.capacity;
    return { dropped };
  }

  /** Removes and returns the oldest item, or `undefined` when empty. */
  shift(): T | undefined {
    if (this.#size === 0) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head] = undefined;
    this.#head = (this.#head + 1) % this.capacity;
    this.#size--;
    return item;
  }

  /** Drops every waiting item. */
  clear(): void {
    this.#items.fill(undefined);
    this.#head = 0;
    this.#size = 0;
  }
}
