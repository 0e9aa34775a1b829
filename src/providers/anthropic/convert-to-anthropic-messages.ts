import type { AssistantMessage, Message } from "../../models/message.js";
import type { AnthropicWireBlock, AnthropicWireMessage } from "./anthropic-wire-types.js";
import { convertToAnthropicContent } from "./convert-anthropic-content.js";

/** The converted prompt: the top-level `system` field and the alternating `messages`. */
export interface AnthropicPrompt {
  /** Every system message's text, in order, joined by a blank line. Undefined when there is none. */
  system: string | undefined;
  messages: AnthropicWireMessage[];
}

/** The `providerData` an Anthropic response leaves on its assistant message (see `parseAnthropicMessage`). */
export type AnthropicProviderData = {
  anthropic: {
    /** The response's content blocks in order (thinking, redacted_thinking, text, tool_use, …), verbatim. */
    content?: AnthropicWireBlock[];
    /** The stop sequence that ended the answer, when one did. */
    stopSequence?: string;
  };
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The verbatim content blocks stored in `providerData.anthropic.content`, when they are valid blocks. */
export function providerContent(message: AssistantMessage): AnthropicWireBlock[] | undefined {
  const anthropic = message.providerData?.anthropic;
  if (!isPlainObject(anthropic)) return undefined;
  const content = anthropic.content;
  if (!Array.isArray(content) || content.length === 0) return undefined;
  for (const block of content) {
    if (!isPlainObject(block) || typeof block.type !== "string") return undefined;
  }
  return content as AnthropicWireBlock[];
}

/**
 * The content blocks of an assistant message: the original response's blocks from
 * `providerData.anthropic.content`, unchanged (thinking blocks must come back with their signatures), else a
 * `text` block (left out when empty) followed by one `tool_use` block per call. `input` must be an object: a
 * call whose `rawArguments` did not parse (or parsed to a non-object) is sent with `input: {}` — its tool
 * result already tells the model the arguments were invalid.
 */
export function assistantBlocks(message: AssistantMessage): AnthropicWireBlock[] {
  const original = providerContent(message);
  if (original !== undefined) return original;
  const blocks: AnthropicWireBlock[] = [];
  if (message.content !== "") blocks.push({ type: "text", text: message.content });
  for (const call of message.toolCalls ?? []) {
    const input = isPlainObject(call.arguments) ? call.arguments : {};
    blocks.push({ type: "tool_use", id: call.id, name: call.name, input });
  }
  return blocks;
}

/** Content as blocks: a string becomes one text block (none when empty). */
export function asBlocks(content: string | AnthropicWireBlock[]): AnthropicWireBlock[] {
  if (typeof content !== "string") return content;
  return content === "" ? [] : [{ type: "text", text: content }];
}

/** One neutral message converted on its own: the wire role and content it contributes (before merging). */
export interface AnthropicMessagePart {
  role: "user" | "assistant";
  /** A string (user text), or blocks. */
  content: string | AnthropicWireBlock[];
}

/**
 * Converts one non-system message as it stands alone (see {@link convertToAnthropicMessages} for each role):
 * undefined for a system message (it goes to `system`) and for an assistant message with no block at all.
 */
export function convertAnthropicMessage(message: Message): AnthropicMessagePart | undefined {
  switch (message.role) {
    case "system":
      return undefined;
    case "user":
      return { role: "user", content: convertToAnthropicContent(message.content) };
    case "assistant": {
      const blocks = assistantBlocks(message);
      return blocks.length > 0 ? { role: "assistant", content: blocks } : undefined;
    }
    case "tool": {
      const block: AnthropicWireBlock = {
        type: "tool_result",
        tool_use_id: message.toolCallId,
        content: convertToAnthropicContent(message.content),
      };
      if (message.isError === true) block.is_error = true;
      return { role: "user", content: [block] };
    }
  }
}

/**
 * Converts neutral messages to the Messages API:
 * - every non-empty system message (the system prompt, and a running-summary system message wherever it sits)
 *   goes to the top-level `system` field, in order, joined by a blank line;
 * - user → `{role:"user", content}`: text, or `text` / `image` / `document` blocks in order (see
 *   `convertToAnthropicContent`);
 * - assistant → content blocks (see {@link assistantBlocks}); an assistant message with no block at all
 *   (empty text, no calls, no provider content) is left out, because the API rejects empty content;
 * - tool → a `{type:"tool_result", tool_use_id, content, is_error?}` block in a user message; `content` is the
 *   result's text, or its `text` / `image` / `document` blocks when it holds images or files.
 *
 * The API requires strictly alternating roles, so consecutive messages of one role are merged into one
 * message: the results of parallel tool calls (and a user message right after them) become ONE user message
 * whose blocks keep their order (tool results first, as the API requires). A message that stands alone keeps
 * its plain string content. Throws `UnsupportedContentError` for a part the API cannot take.
 */
export function convertToAnthropicMessages(messages: readonly Message[]): AnthropicPrompt {
  const system: string[] = [];
  const result: AnthropicWireMessage[] = [];
  for (const message of messages) {
    if (message.role === "system") {
      if (message.content !== "") system.push(message.content);
      continue;
    }
    const part = convertAnthropicMessage(message);
    if (part === undefined) continue;
    const last = result[result.length - 1];
    if (last === undefined || last.role !== part.role) {
      result.push({ role: part.role, content: part.content });
    } else {
      last.content = [...asBlocks(last.content), ...asBlocks(part.content)];
    }
  }
  return { system: system.length > 0 ? system.join("\n\n") : undefined, messages: result };
}
