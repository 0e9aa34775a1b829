/** Why the model stopped, in provider-neutral terms. */
export type UnifiedFinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "error" | "other";

/** The unified finish reason plus the provider's own value (`raw`), kept for debugging. */
export interface FinishReason {
  unified: UnifiedFinishReason;
  raw: string | undefined;
}
