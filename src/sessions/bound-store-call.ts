import { StoreError } from "../errors/store-error.js";

/** Options of {@link boundStoreCall}. */
export interface BoundStoreCallOptions<T> {
  /** What is called, for the error: `"lock"`, `"load"`, `"append"`, ... */
  operation: string;
  sessionId: string;
  /** Starts the store operation. */
  call: () => Promise<T>;
  /** The run's deadline (ms since the epoch; `Infinity`: none). */
  deadline: number;
  /** The run's abort signal. */
  signal?: AbortSignal | undefined;
  /**
   * The bound of an operation started once the run is over (past its deadline, or aborted): the writes
   * that close a run and the lock release still get this long.
   */
  graceMs: number;
  /** Receives a value that arrives after the caller gave up (e.g. a lock to release). */
  onLate?: ((value: T) => void) | undefined;
}

/**
 * Runs one store operation bounded by the run's deadline and abort signal, whatever the store or the client
 * it was given does: a store that never answers (a user's own Redis or pg client without timeouts, a custom
 * store) ends the wait with a {@link StoreError} naming the operation, instead of hanging the run. An
 * operation started after the deadline or the abort is bounded by `graceMs` instead. The abandoned operation
 * is left to settle on its own (its rejection is absorbed; a late value goes to `onLate`).
 */
export function boundStoreCall<T>(options: BoundStoreCallOptions<T>): Promise<T> {
  const { operation, sessionId, deadline, signal, graceMs } = options;
  const remaining = deadline - Date.now();
  const live = remaining > 0 && signal?.aborted !== true;
  const limitMs = live ? remaining : graceMs;
  let task: Promise<T>;
  try {
    task = Promise.resolve(options.call());
  } catch (error) {
    return Promise.reject(error);
  }
  if (!Number.isFinite(limitMs) && (!live || signal === undefined)) return task;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = () => {
      settled = true;
      clearTimeout(timer);
      if (live) signal?.removeEventListener("abort", onAbort);
    };
    const giveUp = (reason: string) => {
      if (settled) return;
      finish();
      reject(
        new StoreError({
          message: `The session store's ${operation} of session "${sessionId}" ${reason}; the run stopped waiting for it`,
          operation,
          sessionId,
        }),
      );
    };
    const onAbort = () => giveUp("had not finished when the run was aborted");
    const timer = Number.isFinite(limitMs)
      ? setTimeout(
          () =>
            giveUp(
              live
                ? `did not finish within the run's deadline (limits.timeoutMs)`
                : `did not finish within ${graceMs} ms after the run ended`,
            ),
          Math.min(Math.max(0, limitMs), 2_147_483_647),
        )
      : undefined;
    if (live) signal?.addEventListener("abort", onAbort, { once: true });
    task.then(
      (value) => {
        if (settled) {
          options.onLate?.(value);
          return;
        }
        finish();
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        finish();
        reject(error);
      },
    );
  });
}
