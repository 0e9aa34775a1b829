import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_ABORTERROR = errorMarker("AbortError");

/** An operation was cancelled through its `AbortSignal`. Carries the signal's reason as `cause`. */
export class AbortError extends AgentloopError {
  protected readonly [MARK_ABORTERROR] = true;
  constructor({ message = "The operation was aborted", cause }: { message?: string; cause?: unknown } = {}) {
    super({ message, cause });
    this.name = "AbortError";
  }

  static override isInstance(error: unknown): error is AbortError {
    return hasMarker(error, MARK_ABORTERROR);
  }
}

/** Throws an {@link AbortError} when `signal` is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError({ cause: signal.reason });
}
