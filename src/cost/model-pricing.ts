/** A model's price in USD per million tokens. */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Price of input tokens served from the prompt cache; defaults to `inputPerMTok`. */
  cachedInputPerMTok?: number;
}

/** Prices by model id (matched exactly, else by the longest id that is a prefix, e.g. dated snapshots). */
export type PricingTable = { readonly [modelId: string]: ModelPrice };

/**
 * List prices of current OpenAI and Anthropic models (USD per million tokens, standard tier, as published by
 * the providers in 2025). Prices change: override or extend them per agent with `pricing`.
 */
export const DEFAULT_PRICING: PricingTable = Object.freeze({
  "gpt-5": { inputPerMTok: 1.25, outputPerMTok: 10, cachedInputPerMTok: 0.125 },
  "gpt-5-mini": { inputPerMTok: 0.25, outputPerMTok: 2, cachedInputPerMTok: 0.025 },
  "gpt-5-nano": { inputPerMTok: 0.05, outputPerMTok: 0.4, cachedInputPerMTok: 0.005 },
  "gpt-4.1": { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 },
  "gpt-4.1-mini": { inputPerMTok: 0.4, outputPerMTok: 1.6, cachedInputPerMTok: 0.1 },
  "gpt-4.1-nano": { inputPerMTok: 0.1, outputPerMTok: 0.4, cachedInputPerMTok: 0.025 },
  "gpt-4o": { inputPerMTok: 2.5, outputPerMTok: 10, cachedInputPerMTok: 1.25 },
  "gpt-4o-mini": { inputPerMTok: 0.15, outputPerMTok: 0.6, cachedInputPerMTok: 0.075 },
  o3: { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 },
  "o3-mini": { inputPerMTok: 1.1, outputPerMTok: 4.4, cachedInputPerMTok: 0.55 },
  "o4-mini": { inputPerMTok: 1.1, outputPerMTok: 4.4, cachedInputPerMTok: 0.275 },
  "claude-opus-4-1": { inputPerMTok: 15, outputPerMTok: 75, cachedInputPerMTok: 1.5 },
  "claude-opus-4": { inputPerMTok: 15, outputPerMTok: 75, cachedInputPerMTok: 1.5 },
  "claude-sonnet-4-5": { inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3 },
  "claude-sonnet-4": { inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3 },
  "claude-haiku-4-5": { inputPerMTok: 1, outputPerMTok: 5, cachedInputPerMTok: 0.1 },
  "claude-3-5-haiku": { inputPerMTok: 0.8, outputPerMTok: 4, cachedInputPerMTok: 0.08 },
});

/**
 * The price of `modelId` from `pricing` (checked first) then {@link DEFAULT_PRICING}: an exact match, else the
 * longest table id that prefixes it followed by `-` (so "gpt-4o-mini-2024-07-18" is priced as "gpt-4o-mini",
 * never as "gpt-4o"). Undefined when unknown.
 */
export function findModelPrice({
  modelId,
  pricing,
}: {
  modelId: string;
  pricing?: PricingTable;
}): ModelPrice | undefined {
  for (const table of pricing === undefined ? [DEFAULT_PRICING] : [pricing, DEFAULT_PRICING]) {
    const exact = table[modelId];
    if (exact !== undefined) return exact;
    let best: string | undefined;
    for (const id of Object.keys(table)) {
      if (modelId.startsWith(`${id}-`) && (best === undefined || id.length > best.length)) best = id;
    }
    if (best !== undefined) return table[best];
  }
  return undefined;
}
