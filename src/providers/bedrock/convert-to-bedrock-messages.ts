import type { AssistantMessage, Message } from "../../models/message.js";
import type { BedrockWireBlock, BedrockWireMessage } from "./bedrock-wire-types.js";
import { convertToBedrockContent } from "./convert-bedrock-content.js";

/** The converted prompt: the top-level `system` blocks and the alternating `messages`. */
export interface BedrockPrompt {
  /** One `{text}` block per non-empty system message, in order. Undefined when there is none. */
  system: { text: string }[] | undefined;
  messages: BedrockWireMessage[];
}

/** The `providerData` a Bedrock response leaves on its assistant message (see `parseBedrockResponse`). */
export type BedrockProviderData = {
  bedrock: {
    /** The response's content blocks in order (reasoning with its signature, text, toolUse), verbatim. */
    content?: BedrockWireBlock[];
  };
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The verbatim content blocks stored in `providerData.bedrock.content`, when they are valid blocks. */
export function providerContent(message: AssistantMessage): BedrockWireBlock[] | undefined {
  const bedrock = message.providerData?.bedrock;
  if (!isPlainObject(bedrock)) return undefined;
  const content = bedrock.content;
  if (!Array.isArray(content) || content.length === 0) return undefined;
  for (const block of content) if (!isPlainObject(block)) return undefined;
  return content as BedrockWireBlock[];
}

/**
 * The content blocks of an assistant message: the original response's blocks from
 * `providerData.bedrock.content`, unchanged (reasoning blocks must come back with their signatures), else a
 * `text` block (left out when empty) followed by one `toolUse` block per call. `input` must be an object: a
 * call whose arguments did not parse to one is sent with `input: {}` (its tool result already says so).
 */
export function assistantBlocks(message: AssistantMessage): BedrockWireBlock[] {
  const original = providerContent(message);
  if (original !== undefined) return original;
  const blocks: BedrockWireBlock[] = [];
  if (message.content !== "") blocks.push({ text: message.content });
  for (const call of message.toolCalls ?? []) {
    const input = isPlainObject(call.arguments) ? call.arguments : {};
    blocks.push({ toolUse: { toolUseId: call.id, name: call.name, input } });
  }
  return blocks;
}

/**
 * Converts neutral messages to Converse:
 * - every non-empty system message becomes a `{text}` block of the top-level `system`, in order;
 * - user → `{role:"user", content}` with `text` / `image` / `document` blocks (see `convertToBedrockContent`);
 *   a user message with no block is left out (Converse refuses empty content);
 * - assistant → content blocks (see {@link assistantBlocks}); one with no block at all is left out;
 * - tool → a `{toolResult: {toolUseId, content, status?}}` block in a user message; `content` is the result's
 *   blocks (`[{text: ""}]` for an empty result, as the field is required), `status: "error"` for a failed call.
 *
 * Converse requires alternating roles, so consecutive messages of one role are merged into one message: the
 * results of parallel tool calls (and a user message right after them) become ONE user message whose blocks
 * keep their order. Throws `UnsupportedContentError` for a part Converse cannot take.
 */
export function convertToBedrockMessages(messages: readonly Message[]): BedrockPrompt {
  const system: { text: string }[] = [];
  const result: BedrockWireMessage[] = [];
  const push = (role: "user" | "assistant", content: BedrockWireBlock[]) => {
    if (content.length === 0) return;
    const last = result[result.length - 1];
    if (last === undefined || last.role !== role) result.push({ role, content });
    else last.content = [...last.content, ...content];
  };
  for (const message of messages) {
    switch (message.role) {
      case "system":
        if (message.content !== "") system.push({ text: message.content });
        break;
      case "user":
        push("user", convertToBedrockContent(message.content));
        break;
      case "assistant":
        push("assistant", assistantBlocks(message));
        break;
      case "tool": {
        const content = convertToBedrockContent(message.content);
        push("user", [
          {
            toolResult: {
              toolUseId: message.toolCallId,
              content: content.length > 0 ? content : [{ text: "" }],
              ...(message.isError === true && { status: "error" as const }),
            },
          },
        ]);
        break;
      }
    }
  }
  return { system: system.length > 0 ? system : undefined, messages: result };
}
