import { emptyUsage, type Usage } from "../../models/usage.js";
import type { OpenAIWireUsage } from "./openai-wire-types.js";

function count(value: number | null | undefined): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/**
 * Maps the wire `usage` object to {@link Usage}: `prompt_tokens` (which already includes cache reads and
 * writes), `completion_tokens`, `total_tokens` (computed when missing), and — only when the server reports
 * them — `prompt_tokens_details.cached_tokens` (else DeepSeek's `prompt_cache_hit_tokens`) as
 * `cachedInputTokens`, `prompt_tokens_details.cache_write_tokens` as `cacheWriteTokens` and
 * `completion_tokens_details.reasoning_tokens` as `reasoningTokens`. A missing or `null` usage maps to zero
 * tokens.
 *
 * Reasoning tokens are output tokens. OpenAI counts them inside `completion_tokens`; xAI counts them outside
 * (its `total_tokens` is prompt + completion + reasoning), so when the total says so they are added to
 * `outputTokens`.
 */
export function mapOpenAIUsage(usage: OpenAIWireUsage | null | undefined): Usage {
  if (usage === null || usage === undefined || typeof usage !== "object") return emptyUsage();
  const inputTokens = count(usage.prompt_tokens) ?? 0;
  const completion = count(usage.completion_tokens) ?? 0;
  const reasoning = count(usage.completion_tokens_details?.reasoning_tokens);
  const total = count(usage.total_tokens);
  const outside =
    reasoning !== undefined && reasoning > 0 && total === inputTokens + completion + reasoning
      ? reasoning
      : 0;
  const outputTokens = completion + outside;
  const result: Usage = { inputTokens, outputTokens, totalTokens: total ?? inputTokens + outputTokens };
  const cached = count(usage.prompt_tokens_details?.cached_tokens) ?? count(usage.prompt_cache_hit_tokens);
  if (cached !== undefined) result.cachedInputTokens = cached;
  const written = count(usage.prompt_tokens_details?.cache_write_tokens);
  if (written !== undefined) result.cacheWriteTokens = written;
  if (reasoning !== undefined) result.reasoningTokens = reasoning;
  return result;
}
