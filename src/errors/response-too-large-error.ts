import { errorMarker, hasMarker } from "./agentloop-error.js";
import { ModelCallError } from "./model-call-error.js";

const MARK_RESPONSETOOLARGEERROR = errorMarker("ResponseTooLargeError");

/** Options of {@link ResponseTooLargeError}. */
export interface ResponseTooLargeErrorOptions {
  /** The limit that was exceeded, as the option that sets it (e.g. `limits.maxResponseBytes`). */
  limit: string;
  /** The limit's value. */
  maximum: number;
  /** What the server sent when reading stopped (bytes read, a declared length, a tool-call index + 1, ...), when known. */
  received?: number | undefined;
  /** What exceeded it, in words (e.g. "the response body", "one SSE event"). */
  what: string;
  /** The URL that was called (without credentials). */
  url?: string | undefined;
}

/**
 * A server sent more than a configured resource limit allows (`limits` of `createOpenAI`/`createAnthropic`):
 * a response or error body, a streamed body, one SSE line or event, or too many tool calls (or a tool-call
 * index beyond them). Reading stops at the limit, the connection is closed, and the call ends with this error.
 * Never retryable: the same request tends to get the same answer. Raise the limit if the response was
 * legitimate.
 */
export class ResponseTooLargeError extends ModelCallError {
  protected readonly [MARK_RESPONSETOOLARGEERROR] = true;
  /** The exceeded limit, named as its option (e.g. `limits.maxStreamBytes`). */
  readonly limit: string;
  /** The limit's value. */
  readonly maximum: number;
  /** What the server sent when reading stopped, when known. */
  readonly received: number | undefined;

  constructor({ limit, maximum, received, what, url }: ResponseTooLargeErrorOptions) {
    const from = url === undefined ? "" : ` from ${url}`;
    const got = received === undefined ? "" : ` (got ${received})`;
    super({
      message:
        `Model response${from} exceeded ${limit} = ${maximum}: ${what} is larger than allowed${got}; ` +
        "the call was stopped (raise the limit if the response is legitimate)",
      isRetryable: false,
      code: "response_too_large",
      ...(url !== undefined && { url }),
    });
    this.name = "ResponseTooLargeError";
    this.limit = limit;
    this.maximum = maximum;
    this.received = received;
  }

  static override isInstance(error: unknown): error is ResponseTooLargeError {
    return hasMarker(error, MARK_RESPONSETOOLARGEERROR);
  }
}
