import { SessionBusyError } from "../errors/session-busy-error.js";
import { DEFAULT_SESSION_LOCK_TTL_MS, type SessionStore } from "./session-store.js";

/** Options of {@link withSessionLock}. */
export interface WithSessionLockOptions<T> {
  /** The store whose session lock is taken. */
  store: Pick<SessionStore, "lock" | "lockTtlMs">;
  sessionId: string;
  /** Runs while the lock is held. */
  task: () => Promise<T>;
}

/**
 * Runs `task` holding the session's lock (the one runs take), so it never interleaves with a run of the
 * session; rejects with {@link SessionBusyError} when another holder has the lock. The lock is released
 * afterwards, whatever `task` did (a failed release is ignored: the lock expires after its ttl).
 */
export async function withSessionLock<T>({ store, sessionId, task }: WithSessionLockOptions<T>): Promise<T> {
  const lock = await store.lock(sessionId, { ttlMs: store.lockTtlMs ?? DEFAULT_SESSION_LOCK_TTL_MS });
  if (lock === undefined) throw new SessionBusyError({ sessionId });
  try {
    return await task();
  } finally {
    await lock.release().catch(() => undefined);
  }
}
