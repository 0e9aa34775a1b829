/**
 * Runs async tasks one at a time per key, in call order (tasks of different keys run concurrently). The file
 * store uses it so that concurrent writes of one session from one process never interleave on disk.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `task` after every task queued earlier under `key` has settled; resolves or rejects as it does. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
