import { StreamInterruptedError } from "../../errors/stream-interrupted-error.js";
import { readSseEventBatches, type SseEvent } from "../../http/read-sse-events.js";
import type { ResponseLimits } from "../../http/response-limits.js";
import { createToolCall } from "../../models/message.js";
import type { ModelStreamPart } from "../../models/model-stream-part.js";
import { checkToolCallSlot } from "../check-tool-call-slot.js";
import { bodySnippet, errorFromEnvelope } from "../openai/parse-openai-error.js";
import {
  hasReasoningItems,
  mapOpenAIResponsesFinishReason,
  mapOpenAIResponsesUsage,
  responseFailure,
  responsesProviderData,
  streamErrorInfo,
} from "./map-openai-responses.js";
import type {
  OpenAIResponsesWireEvent,
  OpenAIResponsesWireItem,
  OpenAIResponsesWireResponse,
} from "./openai-responses-wire-types.js";

/** A function call being reassembled. */
interface CallState {
  /** The `call_id` (the neutral tool-call id). */
  id: string;
  name: string;
  /** The argument text streamed so far. */
  args: string;
  ended: boolean;
}

/** What one stream has seen so far. */
interface StreamState {
  /** Function calls by item id (`fc_…`) and by output index (deltas carry both). */
  byItemId: Map<string, CallState>;
  byIndex: Map<number, CallState>;
  /** Calls in the order they started. */
  calls: CallState[];
  /** The last `output_item.done` item per output index. */
  doneItems: Map<number, OpenAIResponsesWireItem>;
  /** The most function calls allowed (`limits.maxToolCalls`). */
  maxToolCalls: number | undefined;
  url: string;
}

/** Options of {@link readOpenAIResponsesStream}. */
export interface ReadOpenAIResponsesStreamOptions {
  /** The SSE body as text chunks. */
  body: AsyncIterable<string>;
  /** The URL called, for error messages. */
  url: string;
  /** Bounds: one SSE event (`maxSseEventBytes`) and the function calls of one response (`maxToolCalls`). */
  limits?: Pick<ResponseLimits, "maxSseEventBytes" | "maxToolCalls"> | undefined;
}

/**
 * Turns the text body of a Responses stream (SSE) into {@link ModelStreamPart}s, dispatching on the payload's
 * `type` (the `event:` line is not needed; `sequence_number`, `obfuscation`, `logprobs` and unknown events are
 * ignored):
 * - `response.output_text.delta` → `text_delta` (commentary messages included), `response.refusal.delta` →
 *   `refusal_delta`, reasoning summary (and raw reasoning) text deltas → `reasoning_delta`;
 * - `response.output_item.added` of a `function_call` → `tool_call_start` (id = `call_id`),
 *   `response.function_call_arguments.delta` (matched by `item_id`, else `output_index`) → `tool_call_delta`,
 *   `response.output_item.done` → `tool_call_end` with the done item's `arguments`;
 * - `response.completed` / `response.incomplete` → a `provider_data` part with the final output items when
 *   they include reasoning (a reasoning item's `encrypted_content` differs between `added`, `done` and
 *   `completed`: the last one wins), then `finish` with usage and finish reason. Reading stops there.
 *
 * Throws (never yields an `error` part): a `ModelCallError` with the server's message and code for an `error`
 * event (nested or top-level shape) or `response.failed` — retryable only for transient codes
 * (`server_error`, `rate_limit_exceeded`, `overloaded`, `timeout`), so `insufficient_quota` is final;
 * {@link StreamInterruptedError} for a payload that is not a JSON object, or for a body that ends before
 * `response.completed`/`incomplete`/`failed`; with `limits`, `ResponseTooLargeError` for an event over
 * `maxSseEventBytes` or more function calls than `maxToolCalls`.
 */
export async function* readOpenAIResponsesStream({
  body,
  url,
  limits,
}: ReadOpenAIResponsesStreamOptions): AsyncGenerator<ModelStreamPart, void, undefined> {
  const state: StreamState = {
    byItemId: new Map(),
    byIndex: new Map(),
    calls: [],
    doneItems: new Map(),
    maxToolCalls: limits?.maxToolCalls,
    url,
  };
  // Set while a payload is parsed: one try/catch around the loop, none per event.
  let parsing: string | undefined;
  try {
    // One async step per body chunk; the chunk's events are handled synchronously.
    for await (const batch of readSseEventBatches(body, { maxEventChars: limits?.maxSseEventBytes, url }))
      for (let e = 0; e < batch.length; e++) {
        const sse = batch[e] as SseEvent;
        const data = sse.data;
        if (data === "" || data === "[DONE]") continue;
        parsing = data;
        const event = JSON.parse(data) as OpenAIResponsesWireEvent | null;
        parsing = undefined;
        if (event === null || typeof event !== "object" || Array.isArray(event)) throw malformed(data, url);
        switch (event.type) {
          case "response.output_text.delta":
            if (typeof event.delta === "string" && event.delta !== "") {
              yield { type: "text_delta", delta: event.delta };
            }
            break;
          case "response.refusal.delta":
            if (typeof event.delta === "string" && event.delta !== "") {
              yield { type: "refusal_delta", delta: event.delta };
            }
            break;
          case "response.reasoning_summary_text.delta":
          case "response.reasoning_text.delta":
            if (typeof event.delta === "string" && event.delta !== "") {
              yield { type: "reasoning_delta", delta: event.delta };
            }
            break;
          case "response.reasoning_summary_part.added":
            // Separate summary parts like paragraphs.
            if ((event.summary_index ?? 0) > 0) yield { type: "reasoning_delta", delta: "\n\n" };
            break;
          case "response.output_item.added":
            if (event.item?.type === "function_call") yield* startCall(state, event.item, event.output_index);
            break;
          case "response.function_call_arguments.delta": {
            const call = findCall(state, event);
            if (call !== undefined && !call.ended && typeof event.delta === "string" && event.delta !== "") {
              call.args += event.delta;
              yield { type: "tool_call_delta", id: call.id, delta: event.delta };
            }
            break;
          }
          case "response.output_item.done": {
            const item = event.item;
            if (item === null || item === undefined || typeof item !== "object") break;
            if (typeof event.output_index === "number") state.doneItems.set(event.output_index, item);
            if (item.type === "function_call") {
              const call = findCall(state, { item_id: item.id, output_index: event.output_index });
              yield* endCall(call ?? (yield* startCall(state, item, event.output_index)), item.arguments);
            }
            break;
          }
          case "response.completed":
          case "response.incomplete":
            yield* finishParts(state, event);
            return;
          case "response.failed":
            throw responseFailure({ response: event.response, url, body: data });
          case "error":
            throw errorFromEnvelope(streamErrorInfo(event), { url, body: data });
          default:
            break;
        }
      }
  } catch (error) {
    if (parsing !== undefined) throw malformed(parsing, url, error);
    throw error;
  }
  throw new StreamInterruptedError({
    message: `Model stream from ${url} ended before the response completed (no response.completed event)`,
    url,
  });
}

/** Registers a function call and announces it; returns its state. */
function* startCall(
  state: StreamState,
  item: OpenAIResponsesWireItem,
  outputIndex: number | null | undefined,
): Generator<ModelStreamPart, CallState> {
  checkToolCallSlot({ slot: state.calls.length, maxToolCalls: state.maxToolCalls, url: state.url });
  const fallback = `call_${typeof outputIndex === "number" ? outputIndex : state.calls.length}`;
  const call: CallState = {
    id: typeof item.call_id === "string" && item.call_id !== "" ? item.call_id : fallback,
    name: typeof item.name === "string" ? item.name : "",
    args: "",
    ended: false,
  };
  if (typeof item.id === "string" && item.id !== "") state.byItemId.set(item.id, call);
  if (typeof outputIndex === "number") state.byIndex.set(outputIndex, call);
  state.calls.push(call);
  yield { type: "tool_call_start", id: call.id, name: call.name };
  return call;
}

function findCall(
  state: StreamState,
  ref: { item_id?: string | null | undefined; output_index?: number | null | undefined },
): CallState | undefined {
  const byId = typeof ref.item_id === "string" ? state.byItemId.get(ref.item_id) : undefined;
  if (byId !== undefined) return byId;
  return typeof ref.output_index === "number" ? state.byIndex.get(ref.output_index) : undefined;
}

/**
 * Ends a call with its final argument text (the done item's, else what streamed). Argument text the deltas did
 * not deliver (a server that sends no deltas) is emitted as one last delta first.
 */
function* endCall(call: CallState, finalArgs: string | null | undefined): Generator<ModelStreamPart> {
  if (call.ended) return;
  const args = typeof finalArgs === "string" ? finalArgs : call.args;
  if (args !== call.args && args.startsWith(call.args)) {
    yield { type: "tool_call_delta", id: call.id, delta: args.slice(call.args.length) };
  }
  call.args = args;
  call.ended = true;
  yield {
    type: "tool_call_end",
    toolCall: createToolCall({ id: call.id, name: call.name, rawArguments: args }),
  };
}

/**
 * The output items to keep: the final response's `output` (the last word on every item), with a reasoning
 * item's `encrypted_content` taken from its `output_item.done` only when the final item lacks one; when the
 * final response carries no output, the done items in output order.
 */
function finalOutput(
  state: StreamState,
  response: OpenAIResponsesWireResponse | null | undefined,
): OpenAIResponsesWireItem[] {
  const output = response?.output;
  const done = [...state.doneItems.entries()].sort(([a], [b]) => a - b).map(([, item]) => item);
  if (!Array.isArray(output) || output.length === 0) return done;
  return output.map((item) => {
    if (item?.type !== "reasoning" || typeof item.encrypted_content === "string") return item;
    const previous = done.find((candidate) => candidate.id === item.id);
    return typeof previous?.encrypted_content === "string"
      ? { ...item, encrypted_content: previous.encrypted_content }
      : item;
  });
}

/** Ends calls still open, then emits the provider data (when there is reasoning) and the finish part. */
function* finishParts(state: StreamState, event: OpenAIResponsesWireEvent): Generator<ModelStreamPart> {
  const response = event.response;
  const output = finalOutput(state, response);
  for (let index = 0; index < output.length; index++) {
    const item = output[index];
    if (item?.type !== "function_call") continue;
    const call = findCall(state, { item_id: item.id, output_index: index });
    if (call?.ended) continue;
    yield* endCall(call ?? (yield* startCall(state, item, index)), item.arguments);
  }
  for (const call of state.calls) yield* endCall(call, undefined);
  if (hasReasoningItems(output)) yield { type: "provider_data", data: { ...responsesProviderData(output) } };
  yield {
    type: "finish",
    usage: mapOpenAIResponsesUsage(response?.usage),
    finishReason: mapOpenAIResponsesFinishReason({
      status: response?.status ?? (event.type === "response.incomplete" ? "incomplete" : "completed"),
      incompleteReason: response?.incomplete_details?.reason,
      hasToolCalls: state.calls.length > 0,
    }),
    ...(typeof response?.model === "string" && response.model !== "" && { model: response.model }),
  };
}

function malformed(data: string, url: string, cause?: unknown): StreamInterruptedError {
  return new StreamInterruptedError({
    message: `Model stream from ${url} sent a malformed event: ${bodySnippet(data)}`,
    url,
    body: data,
    cause,
  });
}
