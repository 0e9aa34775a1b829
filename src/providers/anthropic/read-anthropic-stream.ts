import { AbortError } from "../../errors/abort-error.js";
import { StreamInterruptedError } from "../../errors/stream-interrupted-error.js";
import { readSseEventBatches, type SseEvent } from "../../http/read-sse-events.js";
import type { ResponseLimits } from "../../http/response-limits.js";
import { createToolCall, parseToolArguments } from "../../models/message.js";
import type { ModelStreamPart } from "../../models/model-stream-part.js";
import { checkToolCallSlot } from "../check-tool-call-slot.js";
import type {
  AnthropicWireBlock,
  AnthropicWireBlockDelta,
  AnthropicWireStreamEvent,
  AnthropicWireUsage,
} from "./anthropic-wire-types.js";
import { mapAnthropicStopReason, mapAnthropicUsage, mergeAnthropicUsage } from "./map-anthropic.js";
import {
  anthropicErrorFromEnvelope,
  bodySnippet,
  readAnthropicErrorEnvelope,
} from "./parse-anthropic-error.js";
import { anthropicProviderData } from "./parse-anthropic-message.js";

/** One content block being rebuilt from its events. */
interface BlockState {
  /** The block as it will appear in the content array: the `content_block_start` object, filled in. */
  block: AnthropicWireBlock;
  /** For blocks with an `input` (tool_use, server tools): the `input_json_delta` text so far. */
  json: string | undefined;
  /** For `tool_use` blocks: the call id announced with `tool_call_start`. */
  toolId: string | undefined;
  /** `content_block_stop` was seen. */
  ended: boolean;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isBlock(value: unknown): value is AnthropicWireBlock {
  return isPlainObject(value) && typeof value.type === "string";
}

function appendString(block: AnthropicWireBlock, key: string, text: string): void {
  const current = block[key];
  block[key] = (typeof current === "string" ? current : "") + text;
}

/**
 * Turns the text body of a Messages stream (SSE with `event:` + `data:` lines) into {@link ModelStreamPart}s.
 * Events are dispatched on the payload's `type`; padded payloads are ordinary JSON.
 *
 * - `message_start`: usage (input and cache tokens, a provisional output count).
 * - `content_block_start`: a `tool_use` block emits `tool_call_start` (its placeholder `input: {}` is not
 *   argument text); `thinking`, `redacted_thinking` (complete at start) and other blocks are kept.
 * - `content_block_delta`: `text_delta` → `text_delta`; `input_json_delta` → `tool_call_delta` (empty
 *   fragments skipped; an empty accumulated string means `{}`); `thinking_delta` → `reasoning_delta`;
 *   `signature_delta` is kept on its thinking block.
 * - `content_block_stop`: a `tool_use` block emits `tool_call_end` with its parsed arguments.
 * - `message_delta`: `stop_reason`, `stop_sequence`, and usage with replace semantics (the final cumulative
 *   `output_tokens`; input and cache fields when repeated).
 * - `message_stop`: the answer is complete. At the end of the body, a tool_use block that never got its
 *   `content_block_stop` (max_tokens inside tool input) ends with its partial raw text and a `parseError`;
 *   then a `provider_data` part carries the rebuilt content array (same shape as the non-streaming one) when
 *   it has thinking blocks, or the stop sequence; then one `finish`.
 * - `ping` and unknown events are ignored.
 *
 * Throws (never yields an `error` part): the envelope's error for an `error` event (a transient type such as
 * `overloaded_error` as a retryable {@link StreamInterruptedError}); a {@link StreamInterruptedError} for a
 * payload that is not a JSON object or for a body that ends before `message_stop`. A failure of the body after
 * `message_stop` is ignored: the answer is complete. With `limits`, an event over `maxSseEventBytes` or more
 * tool_use blocks than `maxToolCalls` fails with `ResponseTooLargeError`.
 */
export async function* readAnthropicStream(
  body: AsyncIterable<string>,
  url: string,
  limits?: Pick<ResponseLimits, "maxSseEventBytes" | "maxToolCalls">,
): AsyncGenerator<ModelStreamPart, void, undefined> {
  const blocks = new Map<number, BlockState>();
  let toolBlocks = 0;
  const usage: AnthropicWireUsage = {};
  let stopReason: string | undefined;
  let stopSequence: string | undefined;
  let model: string | undefined;
  let stopped = false;
  // Set while a payload is parsed: one try/catch around the loop, none per event.
  let parsing: string | undefined;
  try {
    // One async step per body chunk; the chunk's events are handled synchronously.
    for await (const batch of readSseEventBatches(body, { maxEventChars: limits?.maxSseEventBytes, url }))
      for (let e = 0; e < batch.length; e++) {
        const event = batch[e] as SseEvent;
        if (stopped) continue;
        const data = event.data;
        if (data.trim() === "") continue;
        parsing = data;
        const payload = JSON.parse(data) as AnthropicWireStreamEvent | null;
        parsing = undefined;
        if (payload === null || typeof payload !== "object" || Array.isArray(payload))
          throw malformed(data, url);
        switch (payload.type) {
          case "message_start":
            mergeAnthropicUsage(usage, payload.message?.usage);
            model = nonEmpty(payload.message?.model) ?? model;
            break;
          case "content_block_start": {
            const start = payload.content_block;
            if (typeof payload.index !== "number" || !isBlock(start)) throw malformed(data, url);
            if (start.type === "tool_use") {
              checkToolCallSlot({ slot: toolBlocks++, maxToolCalls: limits?.maxToolCalls, url });
            }
            yield* startBlock(blocks, payload.index, { ...start });
            break;
          }
          case "content_block_delta": {
            const state = typeof payload.index === "number" ? blocks.get(payload.index) : undefined;
            if (
              state !== undefined &&
              !state.ended &&
              typeof payload.delta === "object" &&
              payload.delta !== null
            ) {
              yield* applyDelta(state, payload.delta);
            }
            break;
          }
          case "content_block_stop": {
            const state = typeof payload.index === "number" ? blocks.get(payload.index) : undefined;
            if (state !== undefined && !state.ended) yield* endBlock(state);
            break;
          }
          case "message_delta": {
            const delta = payload.delta;
            if (typeof delta?.stop_reason === "string") stopReason = delta.stop_reason;
            if (typeof delta?.stop_sequence === "string") stopSequence = delta.stop_sequence;
            mergeAnthropicUsage(usage, payload.usage);
            break;
          }
          case "message_stop":
            stopped = true;
            break;
          case "error":
            throw anthropicErrorFromEnvelope(readAnthropicErrorEnvelope({ error: payload.error }) ?? {}, {
              url,
              body: data,
              inStream: true,
            });
          default:
            // `ping`, and event types added later.
            break;
        }
      }
  } catch (error) {
    if (parsing !== undefined) throw malformed(parsing, url, error);
    if (!stopped || AbortError.isInstance(error)) throw error;
  }
  if (!stopped) {
    throw new StreamInterruptedError({
      message: `Model stream from ${url} ended before the model finished (no message_stop)`,
      url,
    });
  }
  const ordered = [...blocks.entries()].sort(([a], [b]) => a - b).map(([, state]) => state);
  for (const state of ordered) if (!state.ended) yield* endBlock(state);
  const providerData = anthropicProviderData({ content: ordered.map((state) => state.block), stopSequence });
  if (providerData !== undefined) yield { type: "provider_data", data: providerData };
  yield {
    type: "finish",
    usage: mapAnthropicUsage(usage),
    finishReason: mapAnthropicStopReason(stopReason),
    ...(model !== undefined && { model }),
  };
}

/** The string itself when it is a non-empty string (a model id the server named), else undefined. */
function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Registers a block from `content_block_start`, announcing tool calls and any text the start carries. */
function* startBlock(
  blocks: Map<number, BlockState>,
  index: number,
  block: AnthropicWireBlock,
): Generator<ModelStreamPart> {
  const state: BlockState = { block, json: undefined, toolId: undefined, ended: false };
  blocks.set(index, state);
  if ("input" in block) {
    // The placeholder `input: {}` is not argument text; a non-empty start input (not seen from the API) is.
    const input = block.input;
    state.json = isPlainObject(input) && Object.keys(input).length > 0 ? JSON.stringify(input) : "";
  }
  if (block.type === "tool_use") {
    const id = typeof block.id === "string" && block.id !== "" ? block.id : `toolu_${index}`;
    state.toolId = id;
    yield { type: "tool_call_start", id, name: typeof block.name === "string" ? block.name : "" };
    if (state.json !== undefined && state.json !== "")
      yield { type: "tool_call_delta", id, delta: state.json };
  } else if (block.type === "text" && typeof block.text === "string" && block.text !== "") {
    yield { type: "text_delta", delta: block.text };
  } else if (block.type === "thinking" && typeof block.thinking === "string" && block.thinking !== "") {
    yield { type: "reasoning_delta", delta: block.thinking };
  }
}

/** Applies one `content_block_delta` to its block. */
function* applyDelta(state: BlockState, delta: AnthropicWireBlockDelta): Generator<ModelStreamPart> {
  const { block } = state;
  switch (delta.type) {
    case "text_delta":
      if (typeof delta.text !== "string") return;
      appendString(block, "text", delta.text);
      if (delta.text !== "") yield { type: "text_delta", delta: delta.text };
      return;
    case "input_json_delta":
      if (typeof delta.partial_json !== "string" || state.json === undefined) return;
      state.json += delta.partial_json;
      if (state.toolId !== undefined && delta.partial_json !== "") {
        yield { type: "tool_call_delta", id: state.toolId, delta: delta.partial_json };
      }
      return;
    case "thinking_delta":
      if (typeof delta.thinking !== "string") return;
      appendString(block, "thinking", delta.thinking);
      if (delta.thinking !== "") yield { type: "reasoning_delta", delta: delta.thinking };
      return;
    case "signature_delta":
      if (typeof delta.signature === "string") appendString(block, "signature", delta.signature);
      return;
    case "citations_delta":
      block.citations = [...(Array.isArray(block.citations) ? block.citations : []), delta.citation];
      return;
    default:
      return;
  }
}

/**
 * Ends a block: its accumulated input JSON becomes `input` (`{}` when empty, or when it does not parse to an
 * object, e.g. cut off by max_tokens), and a tool_use block emits `tool_call_end` with the raw text as sent.
 */
function* endBlock(state: BlockState): Generator<ModelStreamPart> {
  state.ended = true;
  if (state.json === undefined) return;
  if (state.toolId !== undefined) {
    const name = typeof state.block.name === "string" ? state.block.name : "";
    const call = createToolCall({ id: state.toolId, name, rawArguments: state.json });
    state.block.input = isPlainObject(call.arguments) ? call.arguments : {};
    yield { type: "tool_call_end", toolCall: call };
    return;
  }
  const parsed = parseToolArguments(state.json).arguments;
  state.block.input = isPlainObject(parsed) ? parsed : {};
}

function malformed(data: string, url: string, cause?: unknown): StreamInterruptedError {
  return new StreamInterruptedError({
    message: `Model stream from ${url} sent a malformed event: ${bodySnippet(data)}`,
    url,
    body: data,
    cause,
  });
}
