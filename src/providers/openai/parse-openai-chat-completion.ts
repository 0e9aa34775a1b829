import { ModelCallError } from "../../errors/model-call-error.js";
import { createToolCall, type ToolCall } from "../../models/message.js";
import type { ModelResponse } from "../../models/model.js";
import { readContentChunks } from "../openai-compatible/read-content-chunks.js";
import { mapOpenAIFinishReason } from "./map-openai-finish-reason.js";
import { mapOpenAIUsage } from "./map-openai-usage.js";
import { OpenAICompatibleReasoning } from "./openai-compatible-reasoning.js";
import type { OpenAIWireCompletion } from "./openai-wire-types.js";
import { bodySnippet, errorFromEnvelope, readErrorEnvelope } from "./parse-openai-error.js";

/**
 * Parses the text of a 2xx non-streaming Chat Completions response into a {@link ModelResponse}: choice 0's
 * `content`, `tool_calls` (arguments parsed with `createToolCall`, so invalid JSON becomes `parseError`, never a
 * throw), `refusal`, plus `usage`, `finish_reason` and the parsed body as `raw`. Reasoning
 * (`reasoning_content`, `reasoning`, `reasoning_details`) becomes `reasoning`, and what the server needs back on
 * the next turn (those fields, tool calls' `extra_content`) `providerData.openaiCompatible` (see
 * `OpenAICompatibleReasoning`).
 *
 * Throws {@link ModelCallError} (status 200, `isRetryable: false`) when the body is not JSON, is not an object
 * or has no choice: the server answered in full, so sending the same request again is unlikely to help (a
 * body cut short by the connection surfaces earlier, as a retryable network error of the HTTP client). An
 * error envelope inside a 200 body (sent by some compatible servers) becomes a ModelCallError carrying its
 * message and code.
 */
export function parseOpenAIChatCompletion(text: string, url: string): ModelResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalid(`${url} answered 200 with a body that is not JSON: ${bodySnippet(text)}`, text, url, error);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw invalid(`${url} answered 200 with a body that is not a JSON object`, text, url);
  }
  const body = parsed as OpenAIWireCompletion;
  if (body.error !== undefined && body.error !== null) {
    throw errorFromEnvelope(readErrorEnvelope(body) ?? {}, { url, status: 200, body: text });
  }
  const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
  if (choice === undefined || choice === null || typeof choice !== "object") {
    throw invalid(`${url} answered 200 without a choice: ${bodySnippet(text)}`, text, url);
  }
  const message = choice.message ?? {};
  const reasoning = new OpenAICompatibleReasoning(url);
  // Mistral's reasoning models send `content` as `thinking` / `text` chunks.
  const chunks = Array.isArray(message.content) ? readContentChunks(message.content) : undefined;
  const thought = reasoning.addMessage(message) + (chunks?.thinking ?? "");
  const toolCalls: ToolCall[] = [];
  const wireCalls = message.tool_calls;
  if (Array.isArray(wireCalls)) {
    for (let i = 0; i < wireCalls.length; i++) {
      const call = wireCalls[i];
      const fn = call?.function;
      if (fn === undefined || fn === null) continue;
      const id = typeof call?.id === "string" && call.id !== "" ? call.id : `call_${i}`;
      reasoning.addToolCallExtra(id, call?.extra_content);
      toolCalls.push(
        createToolCall({
          id,
          name: typeof fn.name === "string" ? fn.name : "",
          rawArguments: typeof fn.arguments === "string" ? fn.arguments : "",
        }),
      );
    }
  }
  const response: ModelResponse = {
    text: typeof message.content === "string" ? message.content : (chunks?.text ?? ""),
    toolCalls,
    usage: mapOpenAIUsage(body.usage),
    finishReason: mapOpenAIFinishReason(choice.finish_reason),
    raw: parsed,
  };
  if (typeof message.refusal === "string" && message.refusal !== "") response.refusal = message.refusal;
  if (typeof body.model === "string" && body.model !== "") response.model = body.model;
  if (thought !== "") response.reasoning = thought;
  const providerData = reasoning.providerData();
  if (providerData !== undefined) response.providerData = providerData;
  return response;
}

function invalid(message: string, body: string, url: string, cause?: unknown): ModelCallError {
  return new ModelCallError({ message, status: 200, body, isRetryable: false, url, cause });
}
