import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { CostMeter } from "./cost-meter.js";
import type { ModelPrice, PricingTable } from "./model-pricing.js";

/** Options of {@link checkCapPricing}. */
export interface CheckCapPricingOptions {
  modelId: string;
  pricing?: PricingTable | undefined;
  fallback?: ModelPrice | undefined;
  /** Which cap is set: `"limits.maxCostUsd"` or `"budget"`; undefined: no cap (nothing to check). */
  cap: "limits.maxCostUsd" | "budget" | undefined;
}

/**
 * Refuses a cost cap that could not work: a model with no price (in `pricing` or the built-in table) and no
 * `pricingFallback` is costed at $0, so the cap would never stop anything. Throws {@link InvalidArgumentError}
 * naming the fix.
 */
export function checkCapPricing({ modelId, pricing, fallback, cap }: CheckCapPricingOptions): void {
  if (cap === undefined) return;
  if (new CostMeter({ pricing, fallback }).canPrice(modelId)) return;
  throw new InvalidArgumentError({
    argument: cap,
    message: `a cost cap needs the model's price, and "${modelId}" has none (it would cost $0 and never stop a run): set pricing: { "${modelId}": { inputPerMTok, outputPerMTok } } or pricingFallback: { inputPerMTok, outputPerMTok }`,
  });
}
