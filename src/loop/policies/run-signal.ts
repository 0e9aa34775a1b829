import { type Deadline, setDeadline } from "../../util/deadline.js";
import { listenForAbort } from "../../util/listen-for-abort.js";

/** Options of {@link RunSignal}. */
export interface RunSignalOptions {
  /** The caller's signal: aborting it aborts the run (stop reason `aborted`). */
  signal?: AbortSignal | undefined;
  /** `limits.timeoutMs`: the run aborts after this many ms (stop reason `timeout`). */
  timeoutMs: number;
}

/** The abort reason of a timed-out run. */
const TIMEOUT = Symbol("agentloop.timeout");

/** `setTimeout` fires at once for delays beyond 2^31-1 ms: longer ones (and Infinity) mean "no timeout". */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The abort/timeout policy: one signal for the whole run (the model call and every tool get it) that aborts
 * when the caller's signal does or when `timeoutMs` has passed. {@link stopReason} says whether, and why, the
 * run must stop; {@link dispose} must be called once when the run ends.
 */
export class RunSignal {
  /** The run's signal. */
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly parent: AbortSignal | undefined;
  /** The run's timeout, on the shared deadline timer (a Node timer per run costs more than the rest of this). */
  private readonly timer: Deadline | undefined;
  private readonly stopFollowing: (() => void) | undefined;

  constructor({ signal, timeoutMs }: RunSignalOptions) {
    this.signal = this.controller.signal;
    this.parent = signal;
    const follow = (): void => this.controller.abort(this.parent?.reason);
    if (signal?.aborted) follow();
    else if (signal !== undefined) this.stopFollowing = listenForAbort({ signal, listener: follow });
    this.timer =
      timeoutMs <= MAX_TIMER_MS
        ? setDeadline({ ms: timeoutMs, onExpire: () => this.controller.abort(TIMEOUT) })
        : undefined;
  }

  /** True once the run's signal has aborted (by the caller, the timeout or {@link dispose}). */
  get aborted(): boolean {
    return this.signal.aborted;
  }

  /** `timeout` or `aborted` once the run's signal has aborted; undefined while the run may go on. */
  stopReason(): "timeout" | "aborted" | undefined {
    return this.signal.aborted ? this.abortReason() : undefined;
  }

  /**
   * Aborts the run's signal now with `reason`: whatever is in flight is cancelled (a parallel input guardrail
   * blocked the run during its first model call). The caller sets the run's stop reason itself.
   */
  abort(reason: unknown): void {
    this.controller.abort(reason);
  }

  /** Why the (aborted) signal aborted: `timeout` when the run's timer fired, else `aborted`. */
  abortReason(): "timeout" | "aborted" {
    return this.signal.reason === TIMEOUT ? "timeout" : "aborted";
  }

  /**
   * Clears the timer and the caller's listener. A run that did not finish (the consumer stopped iterating,
   * or an unexpected throw) also aborts whatever is still in flight; a normal end has nothing in flight
   * (timed-out tools were aborted already), so it skips that cost.
   */
  dispose({ finished }: { finished: boolean }): void {
    this.timer?.cancel();
    this.stopFollowing?.();
    if (!finished && !this.signal.aborted) this.controller.abort(new Error("run finished"));
  }
}
