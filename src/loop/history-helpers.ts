import type { AssistantMessage, Message, ToolCall, ToolMessage } from "../models/message.js";
import type { ModelResponse } from "../models/model.js";
import { tooDeepMessage, valueTooDeep } from "../util/json-depth.js";
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

/** Feeds a turn's calls to the loop detector (identical calls of one response count once); the loop found, if any. */
export function detectLoop(detector: LoopDetector | undefined, calls: ToolCall[]): string | undefined {
  if (detector === undefined) return undefined;
  return detector.addResponse(
    calls.map((call) => ({ name: call.name, args: call.arguments ?? call.rawArguments })),
  );
}

/** The reason given for each call of a response over `limits.maxToolCallsPerTurn` (none of them ran). */
export function tooManyToolCalls({ calls, limit }: { calls: number; limit: number }): string {
  return (
    `the response made ${calls} tool calls and at most ${limit} are allowed in one response, so none ran; ` +
    `make at most ${limit} calls at a time`
  );
}

/**
 * The calls of a response, with arguments nested deeper than `MAX_ARGUMENT_DEPTH` refused (no arguments, a
 * `parseError` for the model). Providers refuse those when they parse the arguments; this covers models that
 * hand over argument objects directly (custom `Model`s). Returns `calls` itself when nothing was refused.
 */
export function refuseDeepArguments(calls: ToolCall[]): ToolCall[] {
  let refused: ToolCall[] | undefined;
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i] as ToolCall;
    if (call.parseError !== undefined) continue;
    let deep: boolean;
    try {
      deep = valueTooDeep(call.arguments);
    } catch {
      deep = true; // arguments that cannot even be walked (a Proxy) are refused the same way
    }
    if (!deep) continue;
    refused ??= calls.slice();
    refused[i] = {
      id: call.id,
      name: call.name,
      arguments: undefined,
      rawArguments: typeof call.rawArguments === "string" ? call.rawArguments : "",
      parseError: tooDeepMessage(),
    };
  }
  return refused ?? calls;
}
