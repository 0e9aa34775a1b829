/**
 * How failed model requests are retried (a model's own policy, and the agent's `retry` option). The defaults
 * and the backoff live in the transport (`src/http/retry-policy.ts`).
 */
export interface RetryPolicy {
  /** Retries after the first attempt (0 disables retrying). Default 3. */
  maxRetries: number;
  /** Delay before the first retry; doubles each retry. Default 1000 ms. */
  baseDelayMs: number;
  /** Upper bound of one delay, including a server's Retry-After. Default 30 000 ms. */
  maxDelayMs: number;
}
