import type { FinishReason } from "../../models/finish-reason.js";
import type { Usage } from "../../models/usage.js";
import type { GoogleWireUsage } from "./google-wire-types.js";

/** Finish reasons that mean a filter stopped (or blocked) the answer. */
const FILTERED = new Set([
  "SAFETY",
  "RECITATION",
  "PROHIBITED_CONTENT",
  "BLOCKLIST",
  "SPII",
  "IMAGE_SAFETY",
  "IMAGE_PROHIBITED_CONTENT",
  "IMAGE_RECITATION",
]);

/** Options of {@link mapGoogleFinishReason}. */
export interface MapGoogleFinishReasonOptions {
  /** The candidate's `finishReason` as sent. */
  raw: string | null | undefined;
  /** Whether the answer holds function calls (Gemini has no finish reason of its own for them). */
  hasToolCalls: boolean;
}

/**
 * Maps a candidate's `finishReason` to the neutral {@link FinishReason}, keeping the raw value: `STOP` → stop,
 * or tool_calls when the answer holds function calls (Gemini ends those with `STOP` too); `MAX_TOKENS` →
 * length; `SAFETY`, `RECITATION`, `PROHIBITED_CONTENT`, `BLOCKLIST`, `SPII` and the image variants →
 * content_filter; `MALFORMED_FUNCTION_CALL` → error; anything else (`OTHER`, `LANGUAGE`, a missing value) →
 * other, or tool_calls when there are calls.
 */
export function mapGoogleFinishReason({ raw, hasToolCalls }: MapGoogleFinishReasonOptions): FinishReason {
  const value = raw ?? undefined;
  if (value === "MAX_TOKENS") return { unified: "length", raw: value };
  if (value !== undefined && FILTERED.has(value)) return { unified: "content_filter", raw: value };
  if (value === "MALFORMED_FUNCTION_CALL") return { unified: "error", raw: value };
  if (hasToolCalls) return { unified: "tool_calls", raw: value };
  return { unified: value === "STOP" ? "stop" : "other", raw: value };
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** The token fields of `usageMetadata` this provider reads. */
const USAGE_FIELDS = [
  "promptTokenCount",
  "candidatesTokenCount",
  "totalTokenCount",
  "cachedContentTokenCount",
  "thoughtsTokenCount",
  "toolUsePromptTokenCount",
] as const;

/**
 * Copies the token fields present in `from` over `into` (replace semantics: a stream's usage is a running
 * snapshot, and a later value wins even when it is smaller). Returns `into`.
 */
export function mergeGoogleUsage(
  into: GoogleWireUsage,
  from: GoogleWireUsage | null | undefined,
): GoogleWireUsage {
  if (from === null || from === undefined || typeof from !== "object") return into;
  for (const key of USAGE_FIELDS) {
    const value = count(from[key]);
    if (value !== undefined) into[key] = value;
  }
  return into;
}

/**
 * Maps `usageMetadata` to {@link Usage}. `inputTokens` is `promptTokenCount` (which already includes the cached
 * tokens) plus `toolUsePromptTokenCount` (the results of built-in tools, billed as input); `outputTokens` is
 * `candidatesTokenCount` plus `thoughtsTokenCount` (Gemini counts thinking apart from the answer, other
 * providers inside it); `totalTokens` is their sum, which equals the wire's `totalTokenCount`.
 * `cachedInputTokens` is `cachedContentTokenCount` and `reasoningTokens` is `thoughtsTokenCount`, each when
 * reported. A missing usage (a blocked prompt on Vertex sends only `trafficType`) maps to zero tokens.
 */
export function mapGoogleUsage(usage: GoogleWireUsage | null | undefined): Usage {
  const wire = usage ?? {};
  const thoughts = count(wire.thoughtsTokenCount);
  const inputTokens = (count(wire.promptTokenCount) ?? 0) + (count(wire.toolUsePromptTokenCount) ?? 0);
  const outputTokens = (count(wire.candidatesTokenCount) ?? 0) + (thoughts ?? 0);
  const result: Usage = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  const cached = count(wire.cachedContentTokenCount);
  if (cached !== undefined) result.cachedInputTokens = cached;
  if (thoughts !== undefined) result.reasoningTokens = thoughts;
  return result;
}
