import type { Usage } from "../models/usage.js";
import { findModelPrice, type ModelPrice, type PricingTable } from "./model-pricing.js";

/**
 * The price of a call's usage in USD: uncached input at the input rate, cache reads (`cachedInputTokens`) at
 * `cachedInputPerMTok`, cache writes (`cacheWriteTokens`) at `cacheWritePerMTok` (each defaulting to the input
 * rate), and output at the output rate. Reads and writes are part of `inputTokens`:
 * `(input − reads − writes) × input rate + reads × read rate + writes × write rate + output × output rate`.
 * Counts a provider reports inconsistently (reads and writes above the input) are clamped to the input.
 */
export function computeCost({ usage, price }: { usage: Usage; price: ModelPrice }): number {
  const reads = clampTokens(usage.cachedInputTokens, usage.inputTokens);
  const writes = clampTokens(usage.cacheWriteTokens, usage.inputTokens - reads);
  const uncached = usage.inputTokens - reads - writes;
  return (
    (uncached * price.inputPerMTok +
      reads * (price.cachedInputPerMTok ?? price.inputPerMTok) +
      writes * (price.cacheWritePerMTok ?? price.inputPerMTok) +
      usage.outputTokens * price.outputPerMTok) /
    1_000_000
  );
}

/** `tokens` (0 when absent or negative) but at most `max`. */
function clampTokens(tokens: number | undefined, max: number): number {
  return Math.max(0, Math.min(tokens ?? 0, max));
}

/** Options of {@link CostMeter}. */
export interface CostMeterOptions {
  /** Prices that override or extend the defaults. */
  pricing?: PricingTable | undefined;
  /** The price of models found in no table. Default: zero (their cost is unknown; they are flagged). */
  fallback?: ModelPrice | undefined;
}

/** Options of {@link CostMeter.add}. */
export interface CostMeterAddOptions {
  /** The model that was asked (`model.modelId`). */
  modelId: string;
  /**
   * The model the response says answered (`ModelResponse.model`). When it differs from `modelId` and has a
   * price, the call is priced as it (the response names what was really served and billed).
   */
  respondedModel?: string | undefined;
  usage: Usage;
}

/** What {@link CostMeter.add} recorded. */
export interface CostMeterEntry {
  costUsd: number;
  /** False when neither model had a known price (costed at the fallback price, zero by default). */
  priced: boolean;
  /** The model id the call was priced as. */
  pricedAs: string;
  /** True for this run's first call (with usage) of a model without a price (warn once). */
  firstUnpriced: boolean;
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

  /** True when `modelId` has a price in a table or a fallback price was given (a cost cap can work). */
  canPrice(modelId: string): boolean {
    return this.priceOf(modelId).known || this.options.fallback !== undefined;
  }

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

  /** Records one call; returns its cost, whether (and as which model) it was priced. */
  add({ modelId, respondedModel, usage }: CostMeterAddOptions): CostMeterEntry {
    let pricedAs = modelId;
    let entry = this.priceOf(modelId);
    if (respondedModel !== undefined && respondedModel !== "" && respondedModel !== modelId) {
      const responded = this.priceOf(respondedModel);
      if (responded.known) {
        pricedAs = respondedModel;
        entry = responded;
      }
    }
    let firstUnpriced = false;
    // A call that reported no tokens costs nothing at any price: only a call with usage is of unknown cost.
    const used = usage.inputTokens > 0 || usage.outputTokens > 0;
    if (!entry.known && used && !this.unknownModels.has(modelId)) {
      this.unknownModels.add(modelId);
      firstUnpriced = true;
    }
    const costUsd = computeCost({ usage, price: entry.price });
    this.totalUsd += costUsd;
    return { costUsd, priced: entry.known, pricedAs, firstUnpriced };
  }
}

/** The text of the warning event a run emits at its first call of a model without a price. */
export function unpricedModelMessage(modelId: string): string {
  return `model "${modelId}" has no price: its calls are costed at the fallback price ($0 unless pricingFallback is set), so result.costUsd undercounts; set pricing: { "${modelId}": { inputPerMTok, outputPerMTok } }`;
}
