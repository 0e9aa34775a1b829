import { ModelCallError } from "../../errors/model-call-error.js";
import type { ToolCall } from "../../models/message.js";
import type { ModelResponse } from "../../models/model.js";
import type { BedrockWireBlock, BedrockWireResponse } from "./bedrock-wire-types.js";
import type { BedrockProviderData } from "./convert-to-bedrock-messages.js";
import { mapBedrockStopReason, mapBedrockUsage } from "./map-bedrock.js";
import { bodySnippet } from "./parse-bedrock-error.js";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A reasoning block's shown text and signature (or redacted bytes), when the block is one. */
export function reasoningOf(block: BedrockWireBlock): { text: string; signed: boolean } | undefined {
  if (!("reasoningContent" in block) || !isPlainObject(block.reasoningContent)) return undefined;
  const content = block.reasoningContent as Record<string, unknown>;
  if (typeof content.redactedContent === "string") return { text: "", signed: true };
  const reasoning = content.reasoningText;
  if (!isPlainObject(reasoning)) return undefined;
  const text = typeof reasoning.text === "string" ? reasoning.text : "";
  const signed = typeof reasoning.signature === "string" && reasoning.signature !== "";
  return { text, signed };
}

/** The tool call of a complete `toolUse` block: `arguments` is the `input` object, `rawArguments` its JSON. */
export function toolCallOfBlock(block: Record<string, unknown>, position: number): ToolCall {
  const use = isPlainObject(block.toolUse) ? block.toolUse : {};
  const input = isPlainObject(use.input) ? use.input : {};
  return {
    id: typeof use.toolUseId === "string" && use.toolUseId !== "" ? use.toolUseId : `tooluse_${position}`,
    name: typeof use.name === "string" ? use.name : "",
    arguments: input,
    rawArguments: JSON.stringify(input),
  };
}

/**
 * The `providerData` of a response: `{ bedrock: { content } }` with the whole content array (in order) when
 * it holds reasoning that must go back on the next turn — reasoning with a signature (Claude's extended
 * thinking) or redacted reasoning. The copy leaves out empty text blocks (Converse refuses them) and
 * reasoning without a signature (Converse would refuse it back). Undefined when there is no such reasoning.
 */
export function bedrockProviderData(content: readonly BedrockWireBlock[]): BedrockProviderData | undefined {
  const kept = content.filter((block) => {
    if ("text" in block && block.text === "") return false;
    const reasoning = reasoningOf(block);
    return reasoning === undefined || reasoning.signed;
  });
  if (!kept.some((block) => reasoningOf(block) !== undefined)) return undefined;
  return { bedrock: { content: kept } };
}

/** Text, reasoning and tool calls of a content array. */
export function readBlocks(content: readonly BedrockWireBlock[]): {
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
} {
  let text = "";
  let reasoning = "";
  const toolCalls: ToolCall[] = [];
  content.forEach((block, i) => {
    if ("text" in block && typeof block.text === "string") text += block.text;
    else if ("toolUse" in block) toolCalls.push(toolCallOfBlock(block as Record<string, unknown>, i));
    else reasoning += reasoningOf(block)?.text ?? "";
  });
  return { text, reasoning, toolCalls };
}

/**
 * Parses the text of a 2xx Converse response into a {@link ModelResponse}: the `text` blocks of
 * `output.message.content` concatenated, `toolUse` blocks as tool calls (in order), the shown reasoning as
 * `reasoning`, `stopReason` and `usage` mapped (see `mapBedrockStopReason`, `mapBedrockUsage`), signed
 * reasoning kept in `providerData` (see {@link bedrockProviderData}), and the parsed body as `raw`.
 *
 * Throws a non-retryable {@link ModelCallError} (status 200) when the body is not a JSON object or has no
 * `output.message.content` array.
 */
export function parseBedrockResponse(text: string, url: string): ModelResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalid(`${url} answered 200 with a body that is not JSON: ${bodySnippet(text)}`, text, url, error);
  }
  if (!isPlainObject(parsed))
    throw invalid(`${url} answered 200 with a body that is not a JSON object`, text, url);
  const body = parsed as BedrockWireResponse;
  const content = body.output?.message?.content;
  if (!Array.isArray(content)) {
    throw invalid(`${url} answered 200 without output.message.content: ${bodySnippet(text)}`, text, url);
  }
  const blocks = content.filter(isPlainObject) as BedrockWireBlock[];
  const read = readBlocks(blocks);
  const response: ModelResponse = {
    text: read.text,
    toolCalls: read.toolCalls,
    usage: mapBedrockUsage(body.usage),
    finishReason: mapBedrockStopReason(body.stopReason),
    raw: parsed,
  };
  if (read.reasoning !== "") response.reasoning = read.reasoning;
  const providerData = bedrockProviderData(blocks);
  if (providerData !== undefined) response.providerData = providerData;
  return response;
}

function invalid(message: string, body: string, url: string, cause?: unknown): ModelCallError {
  return new ModelCallError({ message, status: 200, body, isRetryable: false, url, cause });
}
