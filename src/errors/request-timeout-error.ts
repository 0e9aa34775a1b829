import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_REQUESTTIMEOUTERROR = errorMarker("RequestTimeoutError");

/** The response headers did not arrive within the request's `timeoutMs` (internal: providers map it). */
export class RequestTimeoutError extends AgentloopError {
  protected readonly [MARK_REQUESTTIMEOUTERROR] = true;
  /** The request's timeout, in ms. */
  readonly timeoutMs: number;

  constructor({ timeoutMs }: { timeoutMs: number }) {
    super({ message: `no response within ${timeoutMs} ms` });
    this.name = "RequestTimeoutError";
    this.timeoutMs = timeoutMs;
  }

  static override isInstance(error: unknown): error is RequestTimeoutError {
    return hasMarker(error, MARK_REQUESTTIMEOUTERROR);
  }
}
