import type { Message, ToolMessage, UserMessage } from "../../models/message.js";
import {
  convertOpenAIToolResult,
  convertToOpenAIContentPart,
  convertToOpenAIUserContent,
} from "./convert-openai-content.js";
import { reasoningWireFields, toolCallExtraContent } from "./openai-compatible-reasoning.js";
import type {
  OpenAIWireMessage,
  OpenAIWireToolCall,
  OpenAIWireUserContentPart,
} from "./openai-wire-types.js";
import {
  type OpenAIAttachmentPlacement,
  placeOpenAIToolAttachments,
} from "./place-openai-tool-attachments.js";

/**
 * Converts neutral messages to Chat Completions messages:
 * - system → `{role:"system"}`, user → `{role:"user"}` with text or content parts (`text`, `image_url`, `file`:
 *   see `convertToOpenAIUserContent`);
 * - assistant → `{role:"assistant", content, tool_calls}`, each call sent with its `rawArguments` exactly as
 *   the model wrote them; `content` is `null` when the text is empty and there are tool calls;
 * - tool → `{role:"tool", tool_call_id, content}` (the Chat API has no error flag, so `isError` is not sent).
 *   `tool` messages hold text only: a result's images and files go in ONE user message after the run of tool
 *   messages, or open the user message that follows (see `placeOpenAIToolAttachments`).
 *
 * An assistant message's `providerData.openaiCompatible` (reasoning of OpenAI-compatible servers) is sent back
 * as they require: `reasoning_content` / `reasoning` / `reasoning_details` on the message, each tool call's
 * `extra_content` (Gemini's thought signature) on that call (see `OpenAICompatibleReasoning`); other
 * providers' `providerData` is dropped. Throws `UnsupportedContentError` for a part Chat Completions cannot
 * take.
 */
export function convertToOpenAIMessages(messages: readonly Message[]): OpenAIWireMessage[] {
  return placeOpenAIToolAttachments(messages, OBJECT_PLACEMENT);
}

const OBJECT_PLACEMENT: OpenAIAttachmentPlacement<OpenAIWireMessage, OpenAIWireUserContentPart> = {
  message: convertMessage,
  attachments: (message) => convertOpenAIToolResult(message).attachments,
  userParts: userContentParts,
  userMessage: (parts) => ({ role: "user", content: parts }),
};

/** A user message's content as parts: a string becomes one text part (none when empty). */
function userContentParts(message: UserMessage): OpenAIWireUserContentPart[] {
  const content = message.content;
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
  return content.map(convertToOpenAIContentPart);
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

const partsJsonCache = new WeakMap<ToolMessage | UserMessage, string[]>();

/** The JSON texts of a tool result's attachments, or of a user message's content parts (cached per message). */
function partsJson(message: ToolMessage | UserMessage): string[] {
  let json = partsJsonCache.get(message);
  if (json === undefined) {
    const parts =
      message.role === "tool" ? convertOpenAIToolResult(message).attachments : userContentParts(message);
    json = parts.map((part) => JSON.stringify(part));
    partsJsonCache.set(message, json);
  }
  return json;
}

const JSON_PLACEMENT: OpenAIAttachmentPlacement<string, string> = {
  message: openAIMessageJson,
  attachments: partsJson,
  userParts: partsJson,
  userMessage: (parts) => `{"role":"user","content":[${joinJson(parts)}]}`,
};

/** JSON texts joined by commas with `+` (V8 keeps large strings as ropes; `Array.join` would copy them). */
function joinJson(texts: readonly string[]): string {
  let json = "";
  for (let i = 0; i < texts.length; i++) json = i === 0 ? (texts[i] as string) : `${json},${texts[i]}`;
  return json;
}

/**
 * The JSON text of the whole converted history, the messages comma-separated without brackets: the same
 * messages as {@link convertToOpenAIMessages} (tool-result attachments placed in a user message), each
 * serialised once per message object (see {@link openAIMessageJson}).
 */
export function openAIMessagesJson(messages: readonly Message[]): string {
  // The usual history has no tool result with parts: each message converts on its own, nothing is placed.
  let json = "";
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as Message;
    if (message.role === "tool" && typeof message.content !== "string") {
      return joinJson(placeOpenAIToolAttachments(messages, JSON_PLACEMENT));
    }
    json = i === 0 ? openAIMessageJson(message) : `${json},${openAIMessageJson(message)}`;
  }
  return json;
}

function convertMessage(message: Message): OpenAIWireMessage {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content };
    case "user":
      return { role: "user", content: convertToOpenAIUserContent(message.content) };
    case "assistant": {
      const calls = message.toolCalls;
      const reasoning = reasoningWireFields(message.providerData);
      if (calls === undefined || calls.length === 0) {
        return { role: "assistant", content: message.content, ...reasoning };
      }
      const toolCalls: OpenAIWireToolCall[] = new Array(calls.length);
      for (let i = 0; i < calls.length; i++) {
        const call = calls[i];
        if (call === undefined) continue;
        const extra = toolCallExtraContent(message.providerData, call.id);
        toolCalls[i] = {
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: call.rawArguments },
          ...(extra !== undefined && { extra_content: extra }),
        };
      }
      return {
        role: "assistant",
        content: message.content === "" ? null : message.content,
        ...reasoning,
        tool_calls: toolCalls,
      };
    }
    case "tool":
      return {
        role: "tool",
        tool_call_id: message.toolCallId,
        content: convertOpenAIToolResult(message).text,
      };
  }
}
