import { StoreError } from "../errors/store-error.js";
import { describeFailure } from "../util/to-error.js";

/** Options of {@link toStoreError}. */
export interface ToStoreErrorOptions {
  /** The failure. A {@link StoreError} is returned as it is. */
  error: unknown;
  /** The store's name, for the message: `"FileStore"`, `"RedisStore"`. */
  store: string;
  /** What was attempted: `"append"`, `"load"`, ... */
  operation: string;
  /** The session concerned, if any. */
  sessionId?: string;
  /** The state key concerned, if any (state stores). */
  key?: string;
}

/** Wraps any failure of a store operation as a {@link StoreError} (keeping the original as `cause`). */
export function toStoreError({ error, store, operation, sessionId, key }: ToStoreErrorOptions): StoreError {
  if (StoreError.isInstance(error)) return error;
  const reason = describeFailure(error).message;
  const subject =
    sessionId !== undefined ? ` of session "${sessionId}"` : key !== undefined ? ` of key "${key}"` : "";
  return new StoreError({
    message: `${store} ${operation}${subject} failed: ${reason}`,
    operation,
    sessionId,
    cause: error,
  });
}
