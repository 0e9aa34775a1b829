import type { SessionLock } from "./session-store.js";

/** Options of {@link keepLockAlive}. */
export interface KeepLockAliveOptions {
  /** The held lock. Without a `renew` method nothing is scheduled (the lock simply expires after its TTL). */
  lock: SessionLock;
  /** The lock's lifetime without renewal; it is renewed every third of it. */
  ttlMs: number;
  /**
   * Called once when the lock is lost: a renewal resolved `false` (it expired and was taken, or removed), or
   * no renewal succeeded for a whole `ttlMs` (the backend is unreachable: the lock may have expired).
   */
  onLost: (cause?: unknown) => void;
}

/** A running heartbeat; `stop` ends it (idempotent). */
export interface LockHeartbeat {
  stop(): void;
  /** True once the lock was found lost. */
  readonly lost: boolean;
}

/**
 * Renews `lock` every `ttlMs / 3` while its holder lives, so a long run keeps its lock however long it takes,
 * while a holder that dies frees it after `ttlMs`. One renewal at a time; the timer is unref'd (it never keeps
 * the process alive) and stopped by `stop` or on loss.
 */
export function keepLockAlive({ lock, ttlMs, onLost }: KeepLockAliveOptions): LockHeartbeat {
  const renew = lock.renew?.bind(lock);
  let stopped = false;
  let lost = false;
  if (renew === undefined) {
    return {
      stop: () => undefined,
      get lost() {
        return false;
      },
    };
  }
  let lastRenewed = Date.now();
  let inFlight = false;
  const fail = (cause?: unknown) => {
    if (stopped) return;
    lost = true;
    stop();
    onLost(cause);
  };
  const tick = () => {
    if (stopped) return;
    if (inFlight) {
      // A renewal that hangs for a whole lifetime: the lock may have expired meanwhile.
      if (Date.now() - lastRenewed >= ttlMs) fail(new Error(`no lock renewal succeeded within ${ttlMs} ms`));
      return;
    }
    inFlight = true;
    const started = Date.now();
    renew().then(
      (held) => {
        inFlight = false;
        if (held) lastRenewed = started;
        else fail();
      },
      (error: unknown) => {
        inFlight = false;
        if (Date.now() - lastRenewed >= ttlMs) fail(error);
      },
    );
  };
  const timer = setInterval(tick, Math.max(1, Math.floor(ttlMs / 3)));
  timer.unref();
  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  return {
    stop,
    get lost() {
      return lost;
    },
  };
}
