import { StoreError } from "../errors/store-error.js";
import { describeFailure } from "../util/to-error.js";

/** Options of {@link toJournalError}. */
export interface ToJournalErrorOptions {
  /** The failure. A `StoreError` is returned as it is. */
  error: unknown;
  /** The journal's name, for the message: `"FileJournal"`, `"RedisJournal"`. */
  journal: string;
  /** What was attempted: `"append"`, `"load"`, ... */
  operation: string;
  /** The run concerned, if any. */
  runId?: string;
}

/** Wraps any failure of a journal operation as a `StoreError` (keeping the original as `cause`). */
export function toJournalError({ error, journal, operation, runId }: ToJournalErrorOptions): StoreError {
  if (StoreError.isInstance(error)) return error;
  const reason = describeFailure(error).message;
  const subject = runId === undefined ? "" : ` of run "${runId}"`;
  return new StoreError({
    message: `${journal} ${operation}${subject} failed: ${reason}`,
    operation,
    cause: error,
  });
}
