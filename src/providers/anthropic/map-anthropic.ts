import type { FinishReason } from "../../models/finish-reason.js";
import type { Usage } from "../../models/usage.js";
import type { AnthropicWireUsage } from "./anthropic-wire-types.js";

/**
 * Maps a Messages `stop_reason` to the neutral {@link FinishReason}, keeping the raw value: `end_turn` and
 * `stop_sequence` → stop, `tool_use` → tool_calls, `max_tokens` and `model_context_window_exceeded` → length,
 * `refusal` → content_filter; `pause_turn` and anything else (including a missing value) → other.
 */
export function mapAnthropicStopReason(raw: string | null | undefined): FinishReason {
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
    case "refusal":
      return { unified: "content_filter", raw: value };
    default:
      return { unified: "other", raw: value };
  }
}

function count(value: number | null | undefined): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/**
 * Copies the token fields present in `from` over `into` (replace semantics, never adding): a streamed
 * `message_delta.usage` carries the final cumulative `output_tokens` and, in newer recordings, repeats the
 * input and cache fields. Returns `into`.
 */
export function mergeAnthropicUsage(
  into: AnthropicWireUsage,
  from: AnthropicWireUsage | null | undefined,
): AnthropicWireUsage {
  if (from === null || from === undefined || typeof from !== "object") return into;
  for (const key of [
    "input_tokens",
    "output_tokens",
    "cache_read_input_tokens",
    "cache_creation_input_tokens",
  ] as const) {
    const value = count(from[key]);
    if (value !== undefined) into[key] = value;
  }
  const thinking = count(from.output_tokens_details?.thinking_tokens);
  if (thinking !== undefined) into.output_tokens_details = { thinking_tokens: thinking };
  return into;
}

/**
 * Maps the wire usage to {@link Usage}. `inputTokens` is the whole prompt: `input_tokens` (only the uncached
 * tail after the last cache breakpoint) plus `cache_read_input_tokens` plus `cache_creation_input_tokens`, so
 * context tracking and pricing see every prompt token; `cachedInputTokens` is `cache_read_input_tokens` and
 * `cacheWriteTokens` is `cache_creation_input_tokens` (each when reported), and `reasoningTokens` is
 * `output_tokens_details.thinking_tokens` (when reported). A missing usage maps to zero tokens.
 */
export function mapAnthropicUsage(usage: AnthropicWireUsage | null | undefined): Usage {
  const wire = usage ?? {};
  const cacheRead = count(wire.cache_read_input_tokens);
  const cacheWrite = count(wire.cache_creation_input_tokens);
  const inputTokens = (count(wire.input_tokens) ?? 0) + (cacheRead ?? 0) + (cacheWrite ?? 0);
  const outputTokens = count(wire.output_tokens) ?? 0;
  const result: Usage = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  if (cacheRead !== undefined) result.cachedInputTokens = cacheRead;
  if (cacheWrite !== undefined) result.cacheWriteTokens = cacheWrite;
  const thinking = count(wire.output_tokens_details?.thinking_tokens);
  if (thinking !== undefined) result.reasoningTokens = thinking;
  return result;
}
