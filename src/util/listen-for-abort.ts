/** Options of {@link listenForAbort}. */
export interface ListenForAbortOptions {
  signal: AbortSignal;
  /** Called once, when `signal` aborts. */
  listener: () => void;
}

type Listeners = Set<() => void>;

/** Each signal's listeners, behind the one real "abort" listener it got the first time. */
const registries = new WeakMap<AbortSignal, Listeners>();

function dispatch(listeners: Listeners): void {
  const all = [...listeners];
  listeners.clear();
  for (const listener of all) {
    try {
      listener();
    } catch (error) {
      // Reported like a throwing EventTarget listener's error: asynchronously, without stopping the others.
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}

/**
 * Calls `listener` once when `signal` aborts and returns the function that removes it. A signal gets one real
 * "abort" listener, the first time; later registrations are Set operations. Node's EventTarget costs several
 * µs per `addEventListener`/`removeEventListener` pair, and the loop registers per request and per tool batch
 * on the same run signal. Like `addEventListener`, it never fires for a signal that aborted already (check
 * `signal.aborted` first), listeners run in registration order, and registering the same function twice
 * registers it once.
 */
export function listenForAbort({ signal, listener }: ListenForAbortOptions): () => void {
  let listeners = registries.get(signal);
  if (listeners === undefined) {
    const created: Listeners = new Set();
    listeners = created;
    registries.set(signal, created);
    signal.addEventListener("abort", () => dispatch(created), { once: true });
  }
  const registered = listeners;
  registered.add(listener);
  return () => {
    registered.delete(listener);
  };
}
