/** Options of {@link startStreamWatchdog}. */
export interface StreamWatchdogOptions {
  /** The longest allowed time without progress (ms). */
  idleMs: number;
  /** The longest allowed time for the whole stream (ms). */
  maxDurationMs: number;
  /** Called once when either bound is crossed (it should cancel the response). */
  onExpire: () => void;
}

/**
 * Watches one streamed response with a single timer: it expires when no progress was reported for `idleMs`
 * (`stalled`), or when the stream has lasted `maxDurationMs` (`overran`), whatever else the server sends.
 * Reporting progress costs one `Date.now()`; the timer re-arms itself for the nearer deadline when it fires.
 */
export interface StreamWatchdog {
  /** Set when no progress came for `idleMs`. */
  readonly stalled: boolean;
  /** Set when the stream lasted longer than `maxDurationMs`. */
  readonly overran: boolean;
  /** Reports real progress (a content, tool or usage part): resets the idle deadline. */
  progress(): void;
  /** Stops watching. Safe to call twice. */
  dispose(): void;
}

/** Starts a {@link StreamWatchdog}. */
export function startStreamWatchdog({
  idleMs,
  maxDurationMs,
  onExpire,
}: StreamWatchdogOptions): StreamWatchdog {
  const start = Date.now();
  let last = start;
  let timer: NodeJS.Timeout | undefined;
  const watchdog = {
    stalled: false,
    overran: false,
    progress: () => {
      last = Date.now();
    },
    dispose: () => {
      clearTimeout(timer);
      timer = undefined;
    },
  };
  const check = () => {
    const now = Date.now();
    const durationLeft = start + maxDurationMs - now;
    const idleLeft = last + idleMs - now;
    if (durationLeft <= 0 || idleLeft <= 0) {
      if (durationLeft <= 0) watchdog.overran = true;
      else watchdog.stalled = true;
      timer = undefined;
      onExpire();
      return;
    }
    timer = setTimeout(check, Math.min(durationLeft, idleLeft));
  };
  timer = setTimeout(check, Math.min(idleMs, maxDurationMs));
  return watchdog;
}
