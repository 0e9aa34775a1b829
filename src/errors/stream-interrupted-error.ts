import { errorMarker, hasMarker } from "./agentloop-error.js";
import { ModelCallError, type ModelCallErrorOptions } from "./model-call-error.js";

const MARK_STREAMINTERRUPTEDERROR = errorMarker("StreamInterruptedError");

/**
 * A streamed model response broke off after it had started (connection dropped, stream ended without its
 * final event, a malformed chunk). Parts of the answer may already have been delivered, so the provider does
 * not retry it itself: the agent loop retries the whole model call and tells consumers to discard the partial
 * output with a `retry` event. Always retryable.
 */
export class StreamInterruptedError extends ModelCallError {
  protected readonly [MARK_STREAMINTERRUPTEDERROR] = true;
  constructor(options: Omit<ModelCallErrorOptions, "isRetryable">) {
    super({ ...options, isRetryable: true });
    this.name = "StreamInterruptedError";
  }

  static override isInstance(error: unknown): error is StreamInterruptedError {
    return hasMarker(error, MARK_STREAMINTERRUPTEDERROR);
  }
}
