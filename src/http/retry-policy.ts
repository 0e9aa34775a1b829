import { AbortError } from "../errors/abort-error.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";

import type { RetryPolicy } from "../models/retry-policy.js";

export type { RetryPolicy } from "../models/retry-policy.js";

/** The default retry policy: 3 retries, 1 s doubling, at most 30 s per wait. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxRetries: 3,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
});

/**
 * Fills a partial policy with defaults (an `undefined` value means the default) and validates it: an object of
 * known keys, numbers >= 0, `maxRetries` an integer. Throws {@link InvalidArgumentError} naming the option.
 */
export function resolveRetryPolicy(policy: Partial<RetryPolicy> | undefined): RetryPolicy {
  if (policy !== undefined && (typeof policy !== "object" || policy === null || Array.isArray(policy))) {
    throw new InvalidArgumentError({
      argument: "retry",
      message: `expected an object, got ${String(policy)}`,
    });
  }
  const resolved: RetryPolicy = { ...DEFAULT_RETRY_POLICY };
  for (const [key, value] of Object.entries(policy ?? {})) {
    if (!Object.hasOwn(DEFAULT_RETRY_POLICY, key)) {
      throw new InvalidArgumentError({
        argument: `retry.${key}`,
        message: `unknown option; expected one of: ${Object.keys(DEFAULT_RETRY_POLICY).join(", ")}`,
      });
    }
    if (value !== undefined) resolved[key as keyof RetryPolicy] = value as number;
  }
  for (const key of ["maxRetries", "baseDelayMs", "maxDelayMs"] as const) {
    const value: unknown = resolved[key];
    if (
      typeof value !== "number" ||
      !Number.isFinite(value) ||
      value < 0 ||
      (key === "maxRetries" && !Number.isInteger(value))
    ) {
      throw new InvalidArgumentError({
        argument: `retry.${key}`,
        message: `expected ${key === "maxRetries" ? "an integer" : "a number"} >= 0, got ${String(value)}`,
      });
    }
  }
  return resolved;
}

/**
 * The wait before retry number `attempt` (1-based): the server's `retryAfterMs` when given, else exponential
 * backoff with jitter (between half and all of `baseDelayMs * 2^(attempt-1)`), both capped at `maxDelayMs`.
 */
export function computeRetryDelay({
  policy,
  attempt,
  retryAfterMs,
  random = Math.random,
}: {
  policy: RetryPolicy;
  attempt: number;
  retryAfterMs?: number | undefined;
  random?: () => number;
}): number {
  if (retryAfterMs !== undefined && retryAfterMs >= 0) return Math.min(retryAfterMs, policy.maxDelayMs);
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}

/**
 * Reads `retry-after-ms` (milliseconds, OpenAI) or `Retry-After` (seconds or an HTTP date). Undefined when
 * absent or unparsable.
 */
export function parseRetryAfter(
  header: (name: string) => string | undefined,
  now = Date.now(),
): number | undefined {
  const ms = header("retry-after-ms");
  if (ms !== undefined && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = header("retry-after");
  if (value === undefined || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Waits `ms`, rejecting at once with {@link AbortError} when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortError({ cause: signal.reason }));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError({ cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
