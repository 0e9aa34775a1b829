import type { ResponseLimits } from "../http/response-limits.js";
import type { RetryPolicy } from "../http/retry-policy.js";

/** The transport options every HTTP provider takes (`createOpenAI`, `createAnthropic`, `createGoogle`, ...). */
export interface HttpProviderOptions {
  /** Extra request headers. They override the provider's own headers. */
  headers?: Record<string, string>;
  /** A `fetch` implementation to send requests with. Default: the shared keep-alive `node:http` client. */
  fetch?: typeof globalThis.fetch;
  /** Retry policy of failed requests (merged with `DEFAULT_RETRY_POLICY`). */
  retry?: Partial<RetryPolicy>;
  /**
   * Per-attempt timeout in milliseconds. Non-streaming: until the whole answer is read. Streaming: until the
   * response headers arrive, then the longest allowed time without progress (keep-alive comments and empty
   * events do not count). Default 120 000.
   */
  timeoutMs?: number;
  /**
   * Bounds on what the server may send: `maxResponseBytes` (a whole answer or error body, default 64 MiB),
   * `maxStreamBytes` (a whole stream, 256 MiB), `maxSseEventBytes` (one event, line or event-stream message,
   * 16 MiB), `maxToolCalls` (tool calls in one answer, 10 000), `maxStreamDurationMs` (one stream from headers
   * to end, 30 min). Over a limit the call ends with a non-retryable `ResponseTooLargeError` (`ModelCallError`
   * code `stream_duration_exceeded` for the duration).
   */
  limits?: Partial<ResponseLimits>;
}
