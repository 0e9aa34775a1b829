import { AbortError } from "../errors/abort-error.js";
import { AgentloopError } from "../errors/agentloop-error.js";
import { isRetryableStatus, ModelCallError } from "../errors/model-call-error.js";
import { StreamInterruptedError } from "../errors/stream-interrupted-error.js";
import type { ModelRequest, ModelResponse } from "../models/model.js";
import type { ModelStreamPart } from "../models/model-stream-part.js";
import { describeFailure } from "../util/to-error.js";
import type { RecordedError, RecordedModelRequest } from "./recorded-call.js";

/**
 * The recorded form of a request: the fields the model sees, with `messages` (and `tools`) copied as arrays.
 * The messages themselves are shared, not copied: the loop never changes a message once it is in the history.
 */
export function toRecordedRequest(request: ModelRequest): RecordedModelRequest {
  const recorded: RecordedModelRequest = { messages: [...request.messages] };
  if (request.tools !== undefined) recorded.tools = [...request.tools];
  if (request.toolChoice !== undefined) recorded.toolChoice = request.toolChoice;
  if (request.temperature !== undefined) recorded.temperature = request.temperature;
  if (request.maxOutputTokens !== undefined) recorded.maxOutputTokens = request.maxOutputTokens;
  if (request.parallelToolCalls !== undefined) recorded.parallelToolCalls = request.parallelToolCalls;
  if (request.output !== undefined) recorded.output = request.output;
  return recorded;
}

/** The recorded form of a response: everything but the provider's `raw` body. */
export function toRecordedResponse(response: ModelResponse): Omit<ModelResponse, "raw"> {
  const { raw: _raw, ...rest } = response;
  return rest;
}

/** The recorded form of a thrown value: its name, message and, when present, HTTP status and code. */
export function toRecordedError(error: unknown): RecordedError {
  // Safe for any thrown value (a Proxy, a throwing getter): described by the loop's own normaliser.
  const recorded: RecordedError = describeFailure(error);
  if (recorded.name === "ThrownValueError") return recorded;
  const { status, code } = error as { status?: unknown; code?: unknown };
  if (typeof status === "number") recorded.status = status;
  if (typeof code === "string") recorded.code = code;
  return recorded;
}

/**
 * An error of the same kind as the recorded one, so the agent loop reacts as it did: a
 * `StreamInterruptedError` is retried, a `ModelCallError` with a context-length status or code triggers
 * compaction, an `AbortError` stops the run. Other names become an `AgentloopError` carrying that name.
 */
export function toReplayedError(recorded: RecordedError): Error {
  const { name, message, status, code } = recorded;
  const details = {
    message,
    ...(status !== undefined && { status }),
    ...(code !== undefined && { code }),
  };
  if (name === "StreamInterruptedError") return new StreamInterruptedError(details);
  if (name === "ModelCallError") {
    return new ModelCallError({ ...details, isRetryable: status !== undefined && isRetryableStatus(status) });
  }
  if (name === "AbortError") return new AbortError({ message });
  const error = new AgentloopError({ message });
  error.name = name;
  return error;
}

/**
 * The stream parts a provider would send for `response`: its reasoning, its text, its refusal, each tool call
 * (start, its raw arguments in one delta, end), its provider data and a `finish`. Folding them with `StreamCollector`
 * gives `response` back.
 */
export function responseToParts(response: Omit<ModelResponse, "raw">): ModelStreamPart[] {
  const parts: ModelStreamPart[] = [];
  if (response.reasoning !== undefined && response.reasoning !== "") {
    parts.push({ type: "reasoning_delta", delta: response.reasoning });
  }
  if (response.text !== "") parts.push({ type: "text_delta", delta: response.text });
  if (response.refusal !== undefined && response.refusal !== "") {
    parts.push({ type: "refusal_delta", delta: response.refusal });
  }
  for (const toolCall of response.toolCalls) {
    parts.push({ type: "tool_call_start", id: toolCall.id, name: toolCall.name });
    if (toolCall.rawArguments !== "") {
      parts.push({ type: "tool_call_delta", id: toolCall.id, delta: toolCall.rawArguments });
    }
    parts.push({ type: "tool_call_end", toolCall });
  }
  if (response.providerData !== undefined) parts.push({ type: "provider_data", data: response.providerData });
  parts.push({
    type: "finish",
    usage: response.usage,
    finishReason: response.finishReason,
    ...(response.model !== undefined && { model: response.model }),
  });
  return parts;
}
