import type { Message } from "../models/message.js";
import { groupTurns } from "./group-turns.js";

/** A kind of history problem that providers reject. */
export type HistoryProblemKind =
  /** A tool result that does not directly follow the assistant message whose call it answers. */
  | "orphan_tool_result"
  /** A tool call without a result right after its assistant message. */
  | "missing_tool_result"
  /** The first message after the system messages is not a user message (Anthropic requires one). */
  | "first_message_not_user"
  /** Two assistant messages in a row. */
  | "consecutive_assistant_messages";

/** One problem found by {@link validateHistory}. */
export interface HistoryProblem {
  kind: HistoryProblemKind;
  /** Index of the offending message. */
  index: number;
  /** The tool call id concerned, for tool problems. */
  toolCallId?: string;
  /** A readable description. */
  message: string;
}

/**
 * Lists what would make a history invalid for OpenAI or Anthropic: orphan tool results, tool calls without
 * results, a first non-system message that is not `user`, two consecutive assistant messages. An empty list
 * means valid. It does not repair: the loop never produces these, and `compactMessages` never creates them
 * (it keeps or removes tool rounds whole), so a problem here points at the code that built the history.
 */
export function validateHistory(messages: readonly Message[]): HistoryProblem[] {
  const problems: HistoryProblem[] = [];
  const { pinned, units } = groupTurns(messages);
  const first = messages[pinned];
  if (first !== undefined && first.role !== "user") {
    problems.push({
      kind: "first_message_not_user",
      index: pinned,
      message: `the first message after the system messages is a ${first.role} message, not a user message`,
    });
  }
  for (const unit of units) {
    const head = messages[unit.start]!;
    if (unit.kind === "orphan_tool_result" && head.role === "tool") {
      problems.push({
        kind: "orphan_tool_result",
        index: unit.start,
        toolCallId: head.toolCallId,
        message: `tool result ${head.toolCallId} does not directly follow the assistant message that called it`,
      });
    } else if (unit.kind === "tool_round" && head.role === "assistant") {
      const answered = new Set<string>();
      for (let i = unit.start + 1; i < unit.end; i++) {
        const result = messages[i]!;
        if (result.role === "tool") answered.add(result.toolCallId);
      }
      for (const call of head.toolCalls ?? []) {
        if (answered.has(call.id)) continue;
        problems.push({
          kind: "missing_tool_result",
          index: unit.start,
          toolCallId: call.id,
          message: `tool call ${call.id} (${call.name}) has no result right after its assistant message`,
        });
      }
    }
  }
  for (let i = 1; i < messages.length; i++) {
    if (messages[i]!.role === "assistant" && messages[i - 1]!.role === "assistant") {
      problems.push({
        kind: "consecutive_assistant_messages",
        index: i,
        message: `messages ${i - 1} and ${i} are both assistant messages`,
      });
    }
  }
  return problems;
}
