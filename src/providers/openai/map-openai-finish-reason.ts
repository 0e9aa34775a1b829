import type { FinishReason } from "../../models/finish-reason.js";

/**
 * Maps a Chat Completions `finish_reason` to the neutral {@link FinishReason}, keeping the raw value:
 * `stop`→stop, `length`→length, `tool_calls`/`function_call`→tool_calls, `content_filter`→content_filter,
 * anything else (including a missing value) → other.
 */
export function mapOpenAIFinishReason(raw: string | null | undefined): FinishReason {
  const value = raw ?? undefined;
  switch (value) {
    case "stop":
      return { unified: "stop", raw: value };
    case "length":
      return { unified: "length", raw: value };
    case "tool_calls":
    case "function_call":
      return { unified: "tool_calls", raw: value };
    case "content_filter":
      return { unified: "content_filter", raw: value };
    default:
      return { unified: "other", raw: value };
  }
}
