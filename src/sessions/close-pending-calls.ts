import type { Message, ToolMessage } from "../models/message.js";

/** The run-state key where a session keeps the calls a paused run waits on (the loop writes it). */
export const PENDING_APPROVALS_KEY = "agentloop:pendingApprovals";

/** The run-state key where a session keeps what a turn paused inside a sub-agent had done (the loop writes it). */
export const PAUSED_TURN_KEY = "agentloop:pausedTurn";

/** The tool result given to calls left open when the user sends a new message instead of deciding. */
export const SUPERSEDED_CALL_RESULT =
  "Not executed: the user sent a new message instead of deciding whether to run this call.";

/**
 * The tool results that close the calls left open at the end of a stored history (a run paused for
 * approval, or one that died between its model answer and its tool results): one "not executed" result per
 * call of the last assistant message that has none. Every provider rejects a request whose tool calls are not
 * all answered, so a new user message must never follow open calls. Looks only at the history's tail.
 */
export function closePendingCalls(history: readonly Message[]): ToolMessage[] {
  let index = history.length - 1;
  while (index >= 0 && history[index]?.role === "tool") index--;
  const assistant = history[index];
  if (assistant?.role !== "assistant" || !assistant.toolCalls?.length) return [];
  const answered = new Set<string>();
  for (let i = index + 1; i < history.length; i++) answered.add((history[i] as ToolMessage).toolCallId);
  const closing: ToolMessage[] = [];
  for (const call of assistant.toolCalls) {
    if (answered.has(call.id)) continue;
    answered.add(call.id);
    closing.push({
      role: "tool",
      toolCallId: call.id,
      toolName: call.name,
      content: SUPERSEDED_CALL_RESULT,
      isError: true,
    });
  }
  return closing;
}

/** The results a turn paused inside a sub-agent had (the run state's `PAUSED_TURN_KEY` value); [] when none. */
export function pausedTurnResults(paused: unknown): ToolMessage[] {
  if (paused === null || typeof paused !== "object") return [];
  const results = (paused as { results?: unknown }).results;
  return Array.isArray(results) ? (results as ToolMessage[]) : [];
}
