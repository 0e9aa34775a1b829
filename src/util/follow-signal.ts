const noop = (): void => undefined;

/**
 * Makes `controller` abort (with the same reason) when `signal` aborts, and returns the function that undoes
 * the link; call it when the follower is done. A plain listener rather than `AbortSignal.any`: on Node 20,
 * every `AbortSignal.any([signal, ...])` leaves an entry in `signal` that is never pruned
 * (nodejs/node#55351), so a long-lived signal passed to every run (a server's shutdown signal) grew by about
 * 55 bytes per run.
 */
export function followSignal(signal: AbortSignal | undefined, controller: AbortController): () => void {
  if (signal === undefined) return noop;
  if (signal.aborted) {
    controller.abort(signal.reason);
    return noop;
  }
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  return () => signal.removeEventListener("abort", onAbort);
}
