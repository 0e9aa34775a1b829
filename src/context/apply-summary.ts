import type { Message } from "../models/message.js";
import { parseCompactionMarker } from "./compaction-marker.js";
import { SUMMARY_PREFIX } from "./summary-message.js";

/** Options of {@link applySummary}. */
export interface ApplySummaryOptions {
  /** `CompactionResult.messages`: the compacted history with its removed-messages marker. */
  compacted: readonly Message[];
  /** The new running summary (the summary model's answer), covering the previous summary too. */
  summary: string;
}

/**
 * Puts the running summary in place of the removed-messages marker: one system message
 * `${SUMMARY_PREFIX}${summary}` at the end of the leading system messages, replacing an earlier summary
 * (never duplicating it). A marker merged into the first user message is taken out again (the user message is
 * restored). A stand-alone marker is kept only when the next message is not a user message, because the first
 * non-system message must be a user message (Anthropic); it still says truthfully how many messages were
 * removed. An empty summary changes nothing. Returns a new array.
 */
export function applySummary({ compacted, summary }: ApplySummaryOptions): Message[] {
  const text = summary.trim();
  if (text === "") return compacted.slice();
  const result: Message[] = [];
  let i = 0;
  for (; i < compacted.length && compacted[i]!.role === "system"; i++) {
    const message = compacted[i]!;
    if (message.role !== "system" || !message.content.startsWith(SUMMARY_PREFIX)) result.push(message);
  }
  result.push({ role: "system", content: SUMMARY_PREFIX + text });
  const head = compacted[i];
  const marker = head === undefined ? undefined : parseCompactionMarker(head);
  if (marker !== undefined) {
    if (marker.original !== undefined) {
      result.push(marker.original);
      i++;
    } else if (compacted[i + 1]?.role === "user") {
      i++;
    }
  }
  for (; i < compacted.length; i++) result.push(compacted[i]!);
  return result;
}
