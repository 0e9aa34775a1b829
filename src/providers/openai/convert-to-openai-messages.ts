import { contentText } from "../../models/content-part.js";
import type { Message } from "../../models/message.js";
import type { OpenAIWireMessage, OpenAIWireToolCall } from "./openai-wire-types.js";

/**
 * Converts neutral messages to Chat Completions messages:
 * - system → `{role:"system"}`, user → `{role:"user"}`;
 * - assistant → `{role:"assistant", content, tool_calls}`, each call sent with its `rawArguments` exactly as
 *   the model wrote them; `content` is `null` when the text is empty and there are tool calls;
 * - tool → `{role:"tool", tool_call_id, content}` (the Chat API has no error flag, so `isError` is not sent).
 *
 * `providerData` on assistant messages is not used by this API and is dropped.
 */
export function convertToOpenAIMessages(messages: readonly Message[]): OpenAIWireMessage[] {
  const result: OpenAIWireMessage[] = new Array(messages.length);
  for (let i = 0; i < messages.length; i++) {
    result[i] = convertMessage(messages[i] as Message);
  }
  return result;
}

const messageJsonCache = new WeakMap<Message, string>();

/**
 * The JSON text of one converted message, serialised once per message object: a conversation's history is
 * sent again every turn, but only its new messages are converted and serialised. Messages must not be mutated
 * after they were sent (agentloop never does; build a new message instead).
 */
export function openAIMessageJson(message: Message): string {
  let json = messageJsonCache.get(message);
  if (json === undefined) {
    json = JSON.stringify(convertMessage(message));
    messageJsonCache.set(message, json);
  }
  return json;
}

function convertMessage(message: Message): OpenAIWireMessage {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content };
    case "user":
      return { role: "user", content: contentText(message.content) };
    case "assistant": {
      const calls = message.toolCalls;
      if (calls === undefined || calls.length === 0) return { role: "assistant", content: message.content };
      const toolCalls: OpenAIWireToolCall[] = new Array(calls.length);
      for (let i = 0; i < calls.length; i++) {
        const call = calls[i];
        if (call === undefined) continue;
        toolCalls[i] = {
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: call.rawArguments },
        };
      }
      return {
        role: "assistant",
        content: message.content === "" ? null : message.content,
        tool_calls: toolCalls,
      };
    }
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: contentText(message.content) };
  }
}
