import { ModelCallError } from "../../errors/model-call-error.js";
import type { ToolCall } from "../../models/message.js";
import type { ModelResponse } from "../../models/model.js";
import type { AnthropicWireBlock, AnthropicWireResponse } from "./anthropic-wire-types.js";
import type { AnthropicProviderData } from "./convert-to-anthropic-messages.js";
import { mapAnthropicStopReason, mapAnthropicUsage } from "./map-anthropic.js";
import {
  anthropicErrorFromEnvelope,
  bodySnippet,
  readAnthropicErrorEnvelope,
} from "./parse-anthropic-error.js";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The tool call of a complete `tool_use` block: `arguments` is the `input` object, `rawArguments` its JSON. */
export function toolCallOfBlock(block: AnthropicWireBlock, position: number): ToolCall {
  const input = isPlainObject(block.input) ? block.input : {};
  return {
    id: typeof block.id === "string" && block.id !== "" ? block.id : `toolu_${position}`,
    name: typeof block.name === "string" ? block.name : "",
    arguments: input,
    rawArguments: JSON.stringify(input),
  };
}

/**
 * True when the content holds a block that must be sent back verbatim on the next turn: `thinking` and
 * `redacted_thinking` (the API checks their signatures), and any other block type this provider does not
 * turn into text or tool calls (server tool blocks and the like). Plain text and tool_use need no copy.
 */
export function needsVerbatimContent(content: readonly AnthropicWireBlock[]): boolean {
  return content.some((block) => block.type !== "text" && block.type !== "tool_use");
}

/** Options of {@link anthropicProviderData}. */
export interface AnthropicProviderDataOptions {
  content: AnthropicWireBlock[];
  stopSequence: string | null | undefined;
}

/**
 * The `providerData` of a response: `{ anthropic: { content, stopSequence } }`, where `content` (the whole
 * content array, in order) is present only when {@link needsVerbatimContent} says so and `stopSequence` only
 * when a stop sequence ended the answer. Undefined when neither applies.
 */
export function anthropicProviderData({
  content,
  stopSequence,
}: AnthropicProviderDataOptions): AnthropicProviderData | undefined {
  const anthropic: AnthropicProviderData["anthropic"] = {};
  if (needsVerbatimContent(content)) anthropic.content = content;
  if (typeof stopSequence === "string") anthropic.stopSequence = stopSequence;
  return Object.keys(anthropic).length > 0 ? { anthropic } : undefined;
}

/**
 * Parses the text of a 2xx non-streaming Messages response into a {@link ModelResponse}: `text` blocks
 * concatenated, `tool_use` blocks as tool calls (in order), `stop_reason` mapped, usage mapped (see
 * `mapAnthropicUsage`), the text of thinking blocks as `reasoning`, thinking blocks preserved in `providerData`
 * (see {@link anthropicProviderData}), and the parsed body as `raw`.
 *
 * Throws a non-retryable {@link ModelCallError} (status 200) when the body is not a JSON object or has no
 * `content` array, and the envelope's error for a `{"type":"error"}` body.
 */
export function parseAnthropicMessage(text: string, url: string): ModelResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalid(`${url} answered 200 with a body that is not JSON: ${bodySnippet(text)}`, text, url, error);
  }
  if (!isPlainObject(parsed))
    throw invalid(`${url} answered 200 with a body that is not a JSON object`, text, url);
  const body = parsed as AnthropicWireResponse;
  if (body.type === "error") {
    throw anthropicErrorFromEnvelope(readAnthropicErrorEnvelope(body) ?? {}, {
      url,
      body: text,
      inStream: false,
    });
  }
  if (!Array.isArray(body.content)) {
    throw invalid(`${url} answered 200 without a content array: ${bodySnippet(text)}`, text, url);
  }
  const content = body.content.filter(
    (block): block is AnthropicWireBlock => isPlainObject(block) && typeof block.type === "string",
  );
  let responseText = "";
  let reasoning = "";
  const toolCalls: ToolCall[] = [];
  for (let i = 0; i < content.length; i++) {
    const block = content[i] as AnthropicWireBlock;
    if (block.type === "text" && typeof block.text === "string") responseText += block.text;
    else if (block.type === "tool_use") toolCalls.push(toolCallOfBlock(block, i));
    else if (block.type === "thinking" && typeof block.thinking === "string") reasoning += block.thinking;
  }
  const response: ModelResponse = {
    text: responseText,
    toolCalls,
    usage: mapAnthropicUsage(body.usage),
    finishReason: mapAnthropicStopReason(body.stop_reason),
    raw: parsed,
  };
  const providerData = anthropicProviderData({ content, stopSequence: body.stop_sequence });
  if (providerData !== undefined) response.providerData = providerData;
  if (typeof body.model === "string" && body.model !== "") response.model = body.model;
  if (reasoning !== "") response.reasoning = reasoning;
  return response;
}

function invalid(message: string, body: string, url: string, cause?: unknown): ModelCallError {
  return new ModelCallError({ message, status: 200, body, isRetryable: false, url, cause });
}
