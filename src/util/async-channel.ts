/**
 * A single-consumer async queue: producers `push` values from callbacks, one consumer iterates them in
 * order. `close()` ends the iteration, `fail(error)` ends it with a throw. Used by the loop to merge callback
 * events (retries, tool completions, stream parts) into its event generator without polling.
 */
export class AsyncChannel<T> implements AsyncIterable<T> {
  private readonly buffer: T[] = [];
  private head = 0;
  private waiting: (() => void) | undefined;
  private done = false;
  private error: { value: unknown } | undefined;

  /** Queues a value. Ignored after `close`/`fail`. */
  push(value: T): void {
    if (this.done) return;
    this.buffer.push(value);
    this.wake();
  }

  /** Ends the iteration once the buffered values are consumed. */
  close(): void {
    this.done = true;
    this.wake();
  }

  /** Ends the iteration with `error` once the buffered values are consumed. */
  fail(error: unknown): void {
    if (this.done) return;
    this.error = { value: error };
    this.done = true;
    this.wake();
  }

  private wake(): void {
    const waiting = this.waiting;
    if (waiting !== undefined) {
      this.waiting = undefined;
      waiting();
    }
  }

  /**
   * The next buffered value, or `undefined` when none is buffered (so `T` must not include `undefined`). With
   * {@link ready}, a consumer that re-yields values drains the channel without an async iterator step per value:
   * `for (;;) { const v = channel.take(); if (v !== undefined) yield v; else if (!(await channel.ready())) break; }`.
   */
  take(): T | undefined {
    if (this.head >= this.buffer.length) return undefined;
    const value = this.buffer[this.head] as T;
    this.head++;
    if (this.head === this.buffer.length) {
      this.buffer.length = 0;
      this.head = 0;
    }
    return value;
  }

  /**
   * Resolves `true` once a value is buffered, `false` once the channel is closed and drained; rejects with the
   * error of {@link fail} once drained.
   */
  ready(): Promise<boolean> {
    if (this.head < this.buffer.length) return Promise.resolve(true);
    if (this.done)
      return this.error === undefined ? Promise.resolve(false) : Promise.reject(this.error.value);
    // One promise per wait, settled by the push, close or fail that wakes it.
    return new Promise<boolean>((resolve, reject) => {
      this.waiting = () => {
        if (this.head < this.buffer.length) resolve(true);
        else if (this.error !== undefined) reject(this.error.value);
        else resolve(false);
      };
    });
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    while (await this.ready()) yield this.take() as T;
  }
}
