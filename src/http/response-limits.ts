import { InvalidArgumentError } from "../errors/invalid-argument-error.js";

/**
 * Resource bounds on what a model server sends (the `limits` option of `createOpenAI` and `createAnthropic`).
 * Each default is far above any legitimate response; a response over a limit ends the call with a
 * non-retryable `ResponseTooLargeError` (or, for the duration, a non-retryable `ModelCallError` with code
 * `stream_duration_exceeded`).
 */
export interface ResponseLimits {
  /** Bytes of a non-streamed response body, and of any error body. Default 64 MiB. */
  maxResponseBytes: number;
  /** Bytes of a whole streamed body. Default 256 MiB. */
  maxStreamBytes: number;
  /**
   * Characters of one server-sent event (or one line) still being received: a line without an end, or an
   * event without its blank line, fails once it holds more. Default 16 MiB.
   */
  maxSseEventBytes: number;
  /** Tool calls in one response; a streamed tool-call index must be below it. Default 10 000. */
  maxToolCalls: number;
  /**
   * Milliseconds one streamed response may last from its headers to its end, however steadily it progresses.
   * Default 30 minutes.
   */
  maxStreamDurationMs: number;
}

/** The default {@link ResponseLimits}. */
export const DEFAULT_RESPONSE_LIMITS: Readonly<ResponseLimits> = Object.freeze({
  maxResponseBytes: 64 * 1024 * 1024,
  maxStreamBytes: 256 * 1024 * 1024,
  maxSseEventBytes: 16 * 1024 * 1024,
  maxToolCalls: 10_000,
  maxStreamDurationMs: 30 * 60 * 1000,
});

/** The longest delay `setTimeout` honours. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Fills partial limits with the defaults (an `undefined` value means the default) and validates them: an
 * object of known keys, each a positive integer (`maxStreamDurationMs` at most 2^31 - 1). Throws
 * {@link InvalidArgumentError} naming the option.
 */
export function resolveResponseLimits(limits: Partial<ResponseLimits> | undefined): ResponseLimits {
  if (limits !== undefined && (typeof limits !== "object" || limits === null || Array.isArray(limits))) {
    throw new InvalidArgumentError({
      argument: "limits",
      message: `expected an object, got ${String(limits)}`,
    });
  }
  const resolved: ResponseLimits = { ...DEFAULT_RESPONSE_LIMITS };
  for (const [key, value] of Object.entries(limits ?? {})) {
    if (!Object.hasOwn(DEFAULT_RESPONSE_LIMITS, key)) {
      throw new InvalidArgumentError({
        argument: `limits.${key}`,
        message: `unknown option; expected one of: ${Object.keys(DEFAULT_RESPONSE_LIMITS).join(", ")}`,
      });
    }
    if (value === undefined) continue;
    const max = key === "maxStreamDurationMs" ? MAX_TIMER_MS : Number.MAX_SAFE_INTEGER;
    if (typeof value !== "number" || !Number.isInteger(value) || value <= 0 || value > max) {
      throw new InvalidArgumentError({
        argument: `limits.${key}`,
        message: `expected an integer > 0 and <= ${max}, got ${String(value)}`,
      });
    }
    resolved[key as keyof ResponseLimits] = value;
  }
  return resolved;
}
