import { ModelCallError } from "../../errors/model-call-error.js";
import { createToolCall, type ToolCall } from "../../models/message.js";
import type { ModelResponse } from "../../models/model.js";
import { bodySnippet, errorFromEnvelope, readErrorEnvelope } from "../openai/parse-openai-error.js";
import {
  hasReasoningItems,
  mapOpenAIResponsesFinishReason,
  mapOpenAIResponsesUsage,
  responseFailure,
  responsesProviderData,
} from "./map-openai-responses.js";
import type { OpenAIResponsesWireItem, OpenAIResponsesWireResponse } from "./openai-responses-wire-types.js";

/** Text, refusal and tool calls folded from a response's output items. */
export interface FoldedOpenAIResponsesOutput {
  text: string;
  refusal: string;
  toolCalls: ToolCall[];
}

/**
 * Folds output items: the `output_text` parts of every message item are concatenated (commentary messages
 * included: text and tool calls can come in one response), `refusal` parts likewise, and every
 * `function_call` item becomes a {@link ToolCall} whose id is the item's `call_id` (not its `fc_…` id), with
 * the arguments parsed by `createToolCall`. Other items (reasoning, …) carry no text.
 */
export function foldOpenAIResponsesOutput(
  output: readonly OpenAIResponsesWireItem[],
): FoldedOpenAIResponsesOutput {
  let text = "";
  let refusal = "";
  const toolCalls: ToolCall[] = [];
  for (let i = 0; i < output.length; i++) {
    const item = output[i];
    if (item === null || typeof item !== "object") continue;
    if (item.type === "message" && Array.isArray(item.content)) {
      for (const part of item.content) {
        if (part?.type === "output_text" && typeof part.text === "string") text += part.text;
        else if (part?.type === "refusal" && typeof part.refusal === "string") refusal += part.refusal;
      }
    } else if (item.type === "function_call") {
      const id = typeof item.call_id === "string" && item.call_id !== "" ? item.call_id : `call_${i}`;
      toolCalls.push(
        createToolCall({
          id,
          name: typeof item.name === "string" ? item.name : "",
          rawArguments: typeof item.arguments === "string" ? item.arguments : "",
        }),
      );
    }
  }
  return { text, refusal, toolCalls };
}

/**
 * The reasoning summary text of the output's reasoning items, as a stream shows it: the parts of one item
 * separated by a blank line ("" when there is none).
 */
function reasoningSummaryOf(output: readonly OpenAIResponsesWireItem[]): string {
  let text = "";
  for (const item of output) {
    if (item === null || typeof item !== "object" || item.type !== "reasoning") continue;
    const parts = Array.isArray(item.summary) ? (item.summary as unknown[]) : [];
    const texts: string[] = [];
    for (const part of parts) {
      const partText = (part as { text?: unknown } | null)?.text;
      if (typeof partText === "string") texts.push(partText);
    }
    text += texts.join("\n\n");
  }
  return text;
}

/** Options of {@link parseOpenAIResponse}. */
export interface ParseOpenAIResponseOptions {
  /** The 2xx response body. */
  text: string;
  /** The URL called, for error messages. */
  url: string;
}

/**
 * Parses the text of a 2xx non-streaming Responses body into a {@link ModelResponse}: text, refusal and tool
 * calls from the output items ({@link foldOpenAIResponsesOutput}), usage, the finish reason from `status`
 * (and `incomplete_details.reason`), the reasoning summaries as `reasoning`, and the parsed body as `raw`. When
 * the output holds reasoning items, the whole output is kept as `providerData.openaiResponses.output` so the
 * next turn can send it back.
 *
 * Throws a non-retryable {@link ModelCallError} (status 200) for a body that is not a JSON object or has no
 * `output`; a body with `status: "failed"` or a non-null `error` throws a ModelCallError with the server's
 * message and code (retryable only for transient codes such as `server_error`).
 */
export function parseOpenAIResponse({ text, url }: ParseOpenAIResponseOptions): ModelResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalid({
      message: `${url} answered 200 with a body that is not JSON: ${bodySnippet(text)}`,
      text,
      url,
      cause: error,
    });
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw invalid({ message: `${url} answered 200 with a body that is not a JSON object`, text, url });
  }
  const body = parsed as OpenAIResponsesWireResponse;
  if (body.status === "failed") throw responseFailure({ response: body, url, status: 200, body: text });
  if (body.error !== undefined && body.error !== null) {
    throw errorFromEnvelope(readErrorEnvelope(body) ?? {}, { url, status: 200, body: text });
  }
  const output = body.output;
  if (!Array.isArray(output)) {
    throw invalid({ message: `${url} answered 200 without an output: ${bodySnippet(text)}`, text, url });
  }
  const folded = foldOpenAIResponsesOutput(output);
  const response: ModelResponse = {
    text: folded.text,
    toolCalls: folded.toolCalls,
    usage: mapOpenAIResponsesUsage(body.usage),
    finishReason: mapOpenAIResponsesFinishReason({
      status: body.status,
      incompleteReason: body.incomplete_details?.reason,
      hasToolCalls: folded.toolCalls.length > 0,
    }),
    raw: parsed,
  };
  if (folded.refusal !== "") response.refusal = folded.refusal;
  const reasoning = reasoningSummaryOf(output);
  if (reasoning !== "") response.reasoning = reasoning;
  if (hasReasoningItems(output)) response.providerData = { ...responsesProviderData(output) };
  if (typeof body.model === "string" && body.model !== "") response.model = body.model;
  return response;
}

function invalid({
  message,
  text,
  url,
  cause,
}: {
  message: string;
  text: string;
  url: string;
  cause?: unknown;
}): ModelCallError {
  return new ModelCallError({ message, status: 200, body: text, isRetryable: false, url, cause });
}
