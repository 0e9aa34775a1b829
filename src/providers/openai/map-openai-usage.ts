import { emptyUsage, type Usage } from "../../models/usage.js";
import type { OpenAIWireUsage } from "./openai-wire-types.js";

function count(value: number | null | undefined): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/**
 * Maps the wire `usage` object to {@link Usage}: `prompt_tokens` (which already includes cache reads and
 * writes), `completion_tokens`, `total_tokens` (computed when missing), and — only when the server reports
 * them — `prompt_tokens_details.cached_tokens` as `cachedInputTokens`, `prompt_tokens_details.cache_write_tokens`
 * as `cacheWriteTokens` and `completion_tokens_details.reasoning_tokens` as `reasoningTokens`. A missing or
 * `null` usage maps to zero tokens. (DeepSeek's `prompt_cache_hit_tokens` is not read here; servers that send
 * it usually send `cached_tokens` too.)
 */
export function mapOpenAIUsage(usage: OpenAIWireUsage | null | undefined): Usage {
  if (usage === null || usage === undefined || typeof usage !== "object") return emptyUsage();
  const inputTokens = count(usage.prompt_tokens) ?? 0;
  const outputTokens = count(usage.completion_tokens) ?? 0;
  const result: Usage = {
    inputTokens,
    outputTokens,
    totalTokens: count(usage.total_tokens) ?? inputTokens + outputTokens,
  };
  const cached = count(usage.prompt_tokens_details?.cached_tokens);
  if (cached !== undefined) result.cachedInputTokens = cached;
  const written = count(usage.prompt_tokens_details?.cache_write_tokens);
  if (written !== undefined) result.cacheWriteTokens = written;
  const reasoning = count(usage.completion_tokens_details?.reasoning_tokens);
  if (reasoning !== undefined) result.reasoningTokens = reasoning;
  return result;
}
