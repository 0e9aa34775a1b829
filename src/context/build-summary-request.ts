import { contentText } from "../models/content-part.js";
import type { Message } from "../models/message.js";
import type { ModelRequest } from "../models/model.js";

/** Options of {@link buildSummaryRequest}. */
export interface BuildSummaryRequestOptions {
  /** The messages compaction removed (`CompactionResult.removed`), oldest first. */
  removed: readonly Message[];
  /** The current running summary (`findSummary`), folded into the new one. */
  previousSummary?: string | undefined;
  /** Upper bound on the summary's length, in words. Default 400. */
  maxWords?: number;
  /** Each message's text is cut to this many characters in the prompt. Default 2,000. */
  maxCharsPerMessage?: number;
}

const INSTRUCTIONS = (maxWords: number) =>
  [
    "You maintain the running summary of a conversation between a user and an AI assistant that uses tools.",
    "Older messages are removed from the conversation to fit the model's context window; your summary is all",
    "that remains of them. Fold the removed messages into the previous summary (if there is one) and write one",
    "updated summary that replaces it.",
    "",
    "Keep: the user's goals, requirements and preferences; facts learned; decisions made and why; tool results",
    "that still matter (exact values, identifiers, file names, numbers, errors); what was tried and did not",
    "work; open questions and pending tasks.",
    "Drop: small talk, repeated or superseded information, raw tool output that no longer matters.",
    "",
    `Write terse bullet points in the conversation's language, at most ${maxWords} words. Output only the`,
    "summary, without a preamble.",
  ].join("\n");

function clip(text: string, maxChars: number): string {
  return text.length <= maxChars
    ? text
    : `${text.slice(0, maxChars)} […${text.length - maxChars} more characters]`;
}

function render(message: Message, maxChars: number): string {
  switch (message.role) {
    case "system":
      return `[system] ${clip(message.content, maxChars)}`;
    case "user":
      return `[user] ${clip(contentText(message.content), maxChars)}`;
    case "assistant": {
      const lines = message.content === "" ? [] : [`[assistant] ${clip(message.content, maxChars)}`];
      for (const call of message.toolCalls ?? []) {
        lines.push(`[assistant called ${call.name} (${call.id})] ${clip(call.rawArguments, maxChars)}`);
      }
      return lines.join("\n");
    }
    case "tool":
      return `[${message.isError === true ? "error from" : "result of"} ${message.toolName} (${message.toolCallId})] ${clip(contentText(message.content), maxChars)}`;
  }
}

/**
 * The model request that asks a model to fold `removed` messages into the running summary: a system message
 * with the instructions (keep facts, decisions, open questions and tool results that matter; at most
 * `maxWords` words) and a user message with the previous summary and a transcript of the removed messages.
 * No tools; no sampling options (reasoning models reject some).
 */
export function buildSummaryRequest({
  removed,
  previousSummary,
  maxWords = 400,
  maxCharsPerMessage = 2000,
}: BuildSummaryRequestOptions): ModelRequest {
  const parts: string[] = [];
  if (previousSummary !== undefined && previousSummary.trim() !== "") {
    parts.push("<previous_summary>", previousSummary.trim(), "</previous_summary>", "");
  }
  parts.push("<removed_messages>");
  for (const message of removed) {
    const line = render(message, maxCharsPerMessage);
    if (line !== "") parts.push(line);
  }
  parts.push("</removed_messages>", "", "Write the updated summary.");
  return {
    messages: [
      { role: "system", content: INSTRUCTIONS(maxWords) },
      { role: "user", content: parts.join("\n") },
    ],
  };
}
