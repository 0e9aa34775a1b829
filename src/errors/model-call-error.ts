import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

/** Options of {@link ModelCallError}. */
export interface ModelCallErrorOptions {
  message: string;
  /** HTTP status, when the provider answered. Undefined for network failures and timeouts. */
  status?: number;
  /** The response body as text (error envelopes are kept verbatim). */
  body?: string;
  /** Whether retrying the same request can help (408, 409, 429, 5xx, network failures, timeouts). */
  isRetryable: boolean;
  /** Provider error code (`error.code` or `error.type` in the envelope), when present. */
  code?: string;
  /** The envelope's `error.type` as sent (e.g. `invalid_request_error`, `exceed_context_size_error`). */
  errorType?: string;
  /** The envelope's `error.code` as sent: a string, or a number (llama.cpp sends the HTTP status, e.g. 400). */
  errorCode?: string | number;
  /** Milliseconds the server asked us to wait (`retry-after-ms` / `Retry-After`), when it said. */
  retryAfterMs?: number;
  /** The URL that was called. */
  url?: string;
  cause?: unknown;
}

const MARK_MODELCALLERROR = errorMarker("ModelCallError");

/**
 * A model request failed: an HTTP error status, a network failure, a timeout, or an error reported by the
 * provider inside a response. `isRetryable` says whether the same request may succeed later.
 */
export class ModelCallError extends AgentloopError {
  protected readonly [MARK_MODELCALLERROR] = true;
  readonly status: number | undefined;
  readonly body: string | undefined;
  readonly isRetryable: boolean;
  /**
   * Provider error code: the envelope's string `error.code`, else its `error.type` (so a server that sends a
   * numeric code, such as llama.cpp, still gets a meaningful one), or a code of agentloop's own.
   */
  readonly code: string | undefined;
  /** The envelope's `error.type`, as the server sent it. */
  readonly errorType: string | undefined;
  /** The envelope's `error.code`, as the server sent it (string or number). */
  readonly errorCode: string | number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly url: string | undefined;

  constructor(options: ModelCallErrorOptions) {
    super(options);
    this.name = "ModelCallError";
    this.status = options.status;
    this.body = options.body;
    this.isRetryable = options.isRetryable;
    this.code = options.code;
    this.errorType = options.errorType;
    this.errorCode = options.errorCode;
    this.retryAfterMs = options.retryAfterMs;
    this.url = options.url;
  }

  static override isInstance(error: unknown): error is ModelCallError {
    return hasMarker(error, MARK_MODELCALLERROR);
  }
}

/** Statuses for which a retry can help. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
