import type { FinishReason } from "../../models/finish-reason.js";
import type { Usage } from "../../models/usage.js";
import type { BedrockWireUsage } from "./bedrock-wire-types.js";

/**
 * Maps a Converse `stopReason` to the neutral {@link FinishReason}, keeping the raw value: `end_turn` and
 * `stop_sequence` → stop, `tool_use` → tool_calls, `max_tokens` and `model_context_window_exceeded` →
 * length, `guardrail_intervened` and `content_filtered` → content_filter; anything else (including
 * `malformed_model_output`, `malformed_tool_use` and a missing value) → other.
 */
export function mapBedrockStopReason(raw: string | null | undefined): FinishReason {
  const value = raw ?? undefined;
  switch (value) {
    case "end_turn":
    case "stop_sequence":
      return { unified: "stop", raw: value };
    case "tool_use":
      return { unified: "tool_calls", raw: value };
    case "max_tokens":
    case "model_context_window_exceeded":
      return { unified: "length", raw: value };
    case "guardrail_intervened":
    case "content_filtered":
      return { unified: "content_filter", raw: value };
    default:
      return { unified: "other", raw: value };
  }
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * Maps Converse usage to {@link Usage}. Bedrock's `inputTokens` leaves out the tokens read from or written to
 * the prompt cache, so `inputTokens` here is the whole prompt: `inputTokens + cacheRead + cacheWrite`;
 * `cachedInputTokens` and `cacheWriteTokens` are the cache counters (each when reported). Each cache counter
 * is read once: `cacheReadInputTokens`, else its duplicate `cacheReadInputTokenCount` (the same for writes) —
 * the two are the same number, never added. A missing usage maps to zero tokens.
 */
export function mapBedrockUsage(usage: BedrockWireUsage | null | undefined): Usage {
  const wire = usage ?? {};
  const cacheRead = count(wire.cacheReadInputTokens) ?? count(wire.cacheReadInputTokenCount);
  const cacheWrite = count(wire.cacheWriteInputTokens) ?? count(wire.cacheWriteInputTokenCount);
  const inputTokens = (count(wire.inputTokens) ?? 0) + (cacheRead ?? 0) + (cacheWrite ?? 0);
  const outputTokens = count(wire.outputTokens) ?? 0;
  const result: Usage = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  if (cacheRead !== undefined) result.cachedInputTokens = cacheRead;
  if (cacheWrite !== undefined) result.cacheWriteTokens = cacheWrite;
  return result;
}
