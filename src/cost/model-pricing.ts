/** A model's price in USD per million tokens. */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Price of input tokens read from the prompt cache (`usage.cachedInputTokens`); defaults to `inputPerMTok`. */
  cachedInputPerMTok?: number;
  /**
   * Price of input tokens written to the prompt cache (`usage.cacheWriteTokens`); defaults to `inputPerMTok`.
   * Anthropic bills 5-minute writes at 1.25 × input (1-hour writes at 2 ×), OpenAI's GPT-5.6 family and later at
   * 1.25 ×; earlier OpenAI models write for free (the input rate).
   */
  cacheWritePerMTok?: number;
}

/** Prices by model id (matched exactly, else by the longest id that is a prefix, e.g. dated snapshots). */
export type PricingTable = { readonly [modelId: string]: ModelPrice };

/**
 * List prices of current OpenAI, Anthropic and Google Gemini models (USD per million tokens, standard tier). Prices change:
 * override or extend them per agent with `pricing`.
 *
 * Reviewed on 2026-11-28. Anthropic rows: platform.claude.com ("Pricing" and the model overviews). OpenAI
 * GPT-5.1 to 5.5 rows: developers.openai.com model pages as quoted by several price trackers (2026-03 to 2026-11);
 * the other OpenAI rows keep their 2025 list prices (not re-confirmed). Left out on purpose, because one flat
 * price would mislead: models priced by prompt length (Claude Haiku 5.5: 5 × above 100K tokens), OpenAI's
 * GPT-5.6 family (its page showed a promotional price, "at least until 2026-11-21"), and Claude Fable / Mythos
 * (limited availability). Long-context surcharges (GPT-5.4 / 5.5 prompts over 272K tokens) are not modelled.
 * A model in no table is flagged (`costUnknownModels`): add it with `pricing`.
 *
 * Cache rates: Anthropic reads at 0.1 × input (0.05 × for Opus 5.5 and Sonnet 5.5) and 5-minute writes at
 * 1.25 × input; OpenAI reads at the published cached-input rate and writes at the input rate (no write fee
 * before the GPT-5.6 family).
 */
export const DEFAULT_PRICING: PricingTable = Object.freeze({
  "gpt-5.5": { inputPerMTok: 5, outputPerMTok: 30, cachedInputPerMTok: 0.5 },
  "gpt-5.4": { inputPerMTok: 2.5, outputPerMTok: 15, cachedInputPerMTok: 0.25 },
  "gpt-5.4-mini": { inputPerMTok: 0.75, outputPerMTok: 4.5, cachedInputPerMTok: 0.075 },
  "gpt-5.4-nano": { inputPerMTok: 0.2, outputPerMTok: 1.25, cachedInputPerMTok: 0.02 },
  "gpt-5.2": { inputPerMTok: 1.75, outputPerMTok: 14, cachedInputPerMTok: 0.175 },
  "gpt-5.1": { inputPerMTok: 1.25, outputPerMTok: 10, cachedInputPerMTok: 0.125 },
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
  "claude-opus-5-5": { inputPerMTok: 4, outputPerMTok: 20, cachedInputPerMTok: 0.2, cacheWritePerMTok: 5 },
  "claude-opus-5": { inputPerMTok: 5, outputPerMTok: 25, cachedInputPerMTok: 0.5, cacheWritePerMTok: 6.25 },
  "claude-opus-4-8": { inputPerMTok: 5, outputPerMTok: 25, cachedInputPerMTok: 0.5, cacheWritePerMTok: 6.25 },
  "claude-opus-4-7": { inputPerMTok: 5, outputPerMTok: 25, cachedInputPerMTok: 0.5, cacheWritePerMTok: 6.25 },
  "claude-opus-4-6": { inputPerMTok: 5, outputPerMTok: 25, cachedInputPerMTok: 0.5, cacheWritePerMTok: 6.25 },
  "claude-opus-4-5": { inputPerMTok: 5, outputPerMTok: 25, cachedInputPerMTok: 0.5, cacheWritePerMTok: 6.25 },
  "claude-opus-4-1": {
    inputPerMTok: 15,
    outputPerMTok: 75,
    cachedInputPerMTok: 1.5,
    cacheWritePerMTok: 18.75,
  },
  "claude-opus-4": { inputPerMTok: 15, outputPerMTok: 75, cachedInputPerMTok: 1.5, cacheWritePerMTok: 18.75 },
  // Cache reads at $0.10 since 2026-10-07 (0.05 × input), as price trackers report; the model page, read
  // earlier, still said $0.20.
  "claude-sonnet-5-5": {
    inputPerMTok: 2,
    outputPerMTok: 10,
    cachedInputPerMTok: 0.1,
    cacheWritePerMTok: 2.5,
  },
  "claude-sonnet-5": { inputPerMTok: 2, outputPerMTok: 10, cachedInputPerMTok: 0.2, cacheWritePerMTok: 2.5 },
  "claude-sonnet-4-6": {
    inputPerMTok: 3,
    outputPerMTok: 15,
    cachedInputPerMTok: 0.3,
    cacheWritePerMTok: 3.75,
  },
  "claude-sonnet-4-5": {
    inputPerMTok: 3,
    outputPerMTok: 15,
    cachedInputPerMTok: 0.3,
    cacheWritePerMTok: 3.75,
  },
  "claude-sonnet-4": { inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3, cacheWritePerMTok: 3.75 },
  "claude-haiku-4-5": { inputPerMTok: 1, outputPerMTok: 5, cachedInputPerMTok: 0.1, cacheWritePerMTok: 1.25 },
  "claude-3-5-haiku": { inputPerMTok: 0.8, outputPerMTok: 4, cachedInputPerMTok: 0.08, cacheWritePerMTok: 1 },
  // Gemini (prompts up to 200K tokens; thinking tokens are billed as output): ai.google.dev "Gemini Developer
  // API pricing" as quoted by price trackers (2026-01 to 2026-03). Longer prompts cost more (2.5 Pro: 2 ×
  // input, 1.5 × output): not modelled. Cache storage per hour is not a per-call price: not modelled.
  "gemini-3-pro-preview": { inputPerMTok: 2, outputPerMTok: 12, cachedInputPerMTok: 0.2 },
  "gemini-2.5-pro": { inputPerMTok: 1.25, outputPerMTok: 10, cachedInputPerMTok: 0.125 },
  "gemini-2.5-flash": { inputPerMTok: 0.3, outputPerMTok: 2.5, cachedInputPerMTok: 0.03 },
  "gemini-2.5-flash-lite": { inputPerMTok: 0.1, outputPerMTok: 0.4, cachedInputPerMTok: 0.01 },
  "gemini-2.0-flash": { inputPerMTok: 0.1, outputPerMTok: 0.4, cachedInputPerMTok: 0.025 },
});

/** A Bedrock model id's wrapping: an inference-profile region (`us.`, `eu.`, `global.`), a vendor, a version. */
const BEDROCK_ID =
  /^(?:(?:us|eu|apac|au|ca|jp|global|us-gov)\.)?(?:anthropic|meta|mistral|amazon|deepseek|openai)\.(.+?)(?:-v\d+(?::\d+)?)?$/;

/**
 * The price of `modelId` from `pricing` (checked first) then {@link DEFAULT_PRICING}: an exact match, else the
 * longest table id that prefixes it followed by `-` (so "gpt-4o-mini-2024-07-18" is priced as "gpt-4o-mini",
 * never as "gpt-4o"). A Bedrock id without an entry of its own is looked up without its wrapping
 * ("us.anthropic.claude-sonnet-4-5-20250929-v1:0" as "claude-sonnet-4-5-20250929": Bedrock's on-demand prices of
 * Anthropic models are Anthropic's; regional endpoints add 10 %, not modelled). Undefined when unknown.
 */
export function findModelPrice({
  modelId,
  pricing,
}: {
  modelId: string;
  pricing?: PricingTable;
}): ModelPrice | undefined {
  const found = lookUp(modelId, pricing);
  if (found !== undefined) return found;
  const bare = BEDROCK_ID.exec(modelId)?.[1];
  return bare === undefined ? undefined : lookUp(bare, pricing);
}

function lookUp(modelId: string, pricing: PricingTable | undefined): ModelPrice | undefined {
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
