import type { Usage } from "../models/usage.js";
import { findModelPrice, type ModelPrice, type PricingTable } from "./model-pricing.js";

/** The price of a call's usage in USD: uncached input, cached input and output at their rates. */
export function computeCost({ usage, price }: { usage: Usage; price: ModelPrice }): number {
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  const uncached = usage.inputTokens - cached;
  return (
    (uncached * price.inputPerMTok +
      cached * (price.cachedInputPerMTok ?? price.inputPerMTok) +
      usage.outputTokens * price.outputPerMTok) /
    1_000_000
  );
}

/** Options of {@link CostMeter}. */
export interface CostMeterOptions {
  /** Prices that override or extend the defaults. */
  pricing?: PricingTable | undefined;
  /** The price of models found in no table. Default: zero (their cost is unknown; they are flagged). */
  fallback?: ModelPrice | undefined;
}

/**
 * Adds up the cost of a run's model calls. Models without a price are costed at `fallback` and listed in
 * `unknownModels`, so a cost of zero is never mistaken for "free".
 */
export class CostMeter {
  totalUsd = 0;
  readonly unknownModels = new Set<string>();
  private readonly cache = new Map<string, { price: ModelPrice; known: boolean }>();

  constructor(private readonly options: CostMeterOptions = {}) {}

  /** The price used for `modelId`, and whether it came from a table. */
  priceOf(modelId: string): { price: ModelPrice; known: boolean } {
    let entry = this.cache.get(modelId);
    if (entry === undefined) {
      const price = findModelPrice({ modelId, pricing: this.options.pricing });
      entry =
        price === undefined
          ? { price: this.options.fallback ?? { inputPerMTok: 0, outputPerMTok: 0 }, known: false }
          : { price, known: true };
      this.cache.set(modelId, entry);
    }
    return entry;
  }

  /** Records one call; returns its cost and whether the model's price was known. */
  add({ modelId, usage }: { modelId: string; usage: Usage }): { costUsd: number; priced: boolean } {
    const { price, known } = this.priceOf(modelId);
    if (!known) this.unknownModels.add(modelId);
    const costUsd = computeCost({ usage, price });
    this.totalUsd += costUsd;
    return { costUsd, priced: known };
  }
}
