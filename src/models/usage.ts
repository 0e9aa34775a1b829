/** Token usage of one model call or of a whole run. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Input tokens read from the provider's prompt cache (part of `inputTokens`), when reported. */
  cachedInputTokens?: number;
  /**
   * Input tokens written to the provider's prompt cache (part of `inputTokens`), when reported (Anthropic
   * bills them above the input rate).
   */
  cacheWriteTokens?: number;
  /** Output tokens spent on hidden reasoning, when reported. */
  reasoningTokens?: number;
}

/** A usage of zero tokens. Returns a fresh object. */
export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
}

/** Adds `delta` into `total` in place and returns `total` (no allocation on the hot path). */
export function addUsage(total: Usage, delta: Usage): Usage {
  total.inputTokens += delta.inputTokens;
  total.outputTokens += delta.outputTokens;
  total.totalTokens += delta.totalTokens;
  if (delta.cachedInputTokens !== undefined) {
    total.cachedInputTokens = (total.cachedInputTokens ?? 0) + delta.cachedInputTokens;
  }
  if (delta.cacheWriteTokens !== undefined) {
    total.cacheWriteTokens = (total.cacheWriteTokens ?? 0) + delta.cacheWriteTokens;
  }
  if (delta.reasoningTokens !== undefined) {
    total.reasoningTokens = (total.reasoningTokens ?? 0) + delta.reasoningTokens;
  }
  return total;
}
