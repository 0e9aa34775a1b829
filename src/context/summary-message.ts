import type { Message } from "../models/message.js";

/**
 * Starts the one system message that holds the running summary of removed messages (strategy "summarize").
 * The summary text follows it.
 */
export const SUMMARY_PREFIX =
  "Summary of the earlier conversation (older messages were removed to fit the context window):\n";

/**
 * The running summary's text (without {@link SUMMARY_PREFIX}) when the leading system messages hold one,
 * else undefined. Pass it to `buildSummaryRequest` as `previousSummary`.
 */
export function findSummary(messages: readonly Message[]): string | undefined {
  for (const message of messages) {
    if (message.role !== "system") return undefined;
    if (message.content.startsWith(SUMMARY_PREFIX)) return message.content.slice(SUMMARY_PREFIX.length);
  }
  return undefined;
}
