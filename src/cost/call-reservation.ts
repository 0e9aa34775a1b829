import type { ModelPrice } from "./model-pricing.js";

/**
 * Output tokens reserved for a call when `maxOutputTokens` is not set: a long answer or a round of tool calls,
 * not the model's maximum. A call that writes more overshoots its reservation (see docs/cost.md).
 */
export const DEFAULT_RESERVED_OUTPUT_TOKENS = 1024;

/** Options of {@link callReservation}. */
export interface CallReservationOptions {
  price: ModelPrice;
  /** The request's estimated input tokens (calibrated by the usage the provider reported earlier). */
  inputTokens: number;
  /** The request's `maxOutputTokens`; undefined: {@link DEFAULT_RESERVED_OUTPUT_TOKENS}. */
  maxOutputTokens: number | undefined;
}

/**
 * What a cost cap reserves before a call, in USD: the estimated input plus `maxOutputTokens` (or
 * {@link DEFAULT_RESERVED_OUTPUT_TOKENS}) output tokens, at the model's prices. A realistic bound, not the
 * worst case: with `maxOutputTokens` set it bounds the output exactly.
 */
export function callReservation({ price, inputTokens, maxOutputTokens }: CallReservationOptions): number {
  const output = maxOutputTokens ?? DEFAULT_RESERVED_OUTPUT_TOKENS;
  return (inputTokens * price.inputPerMTok + output * price.outputPerMTok) / 1_000_000;
}
