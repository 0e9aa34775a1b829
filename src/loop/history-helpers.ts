import type { AssistantMessage, Message, ToolCall, ToolMessage } from "../models/message.js";
import type { ModelResponse } from "../models/model.js";
import type { LoopDetector } from "./loop-detector.js";

/** Adds a tool result for every call of the last assistant message that has none, so the history stays valid. */
export function closeOpenToolCalls(messages: Message[], reason: string): void {
  let index = messages.length - 1;
  while (index >= 0 && messages[index]?.role === "tool") index--;
  const assistant = messages[index];
  if (assistant?.role !== "assistant" || !assistant.toolCalls?.length) return;
  const answered = new Set<string>();
  for (let i = index + 1; i < messages.length; i++) answered.add((messages[i] as ToolMessage).toolCallId);
  for (const call of assistant.toolCalls) {
    if (answered.has(call.id)) continue;
    messages.push({
      role: "tool",
      toolCallId: call.id,
      toolName: call.name,
      content: `Not executed: ${reason}.`,
      isError: true,
    });
  }
}

/** The assistant message of a model response. */
export function assistantMessage(response: ModelResponse): AssistantMessage {
  const message: AssistantMessage = { role: "assistant", content: response.text };
  if (response.toolCalls.length > 0) message.toolCalls = response.toolCalls;
  if (response.providerData !== undefined) message.providerData = response.providerData;
  return message;
}

/** Feeds a turn's calls to the loop detector; the first loop found, if any. */
export function detectLoop(detector: LoopDetector | undefined, calls: ToolCall[]): string | undefined {
  if (detector === undefined) return undefined;
  let reason: string | undefined;
  for (const call of calls) reason ??= detector.add(call.name, call.arguments ?? call.rawArguments);
  return reason;
}

/** The reason given for each call of a response over `limits.maxToolCallsPerTurn` (none of them ran). */
export function tooManyToolCalls({ calls, limit }: { calls: number; limit: number }): string {
  return (
    `the response made ${calls} tool calls and at most ${limit} are allowed in one response, so none ran; ` +
    `make at most ${limit} calls at a time`
  );
}
