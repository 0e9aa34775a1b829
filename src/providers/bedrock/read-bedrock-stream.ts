import { AbortError } from "../../errors/abort-error.js";
import { StreamInterruptedError } from "../../errors/stream-interrupted-error.js";
import type { ResponseLimits } from "../../http/response-limits.js";
import { createToolCall } from "../../models/message.js";
import type { ModelStreamPart } from "../../models/model-stream-part.js";
import { latin1Bytes } from "../../util/base64.js";
import { checkToolCallSlot } from "../check-tool-call-slot.js";
import type {
  BedrockWireBlock,
  BedrockWireBlockDelta,
  BedrockWireBlockStart,
  BedrockWireMessageStop,
  BedrockWireMetadata,
  BedrockWireUsage,
} from "./bedrock-wire-types.js";
import { EventStreamDecoder, type EventStreamMessage } from "./decode-event-stream.js";
import { mapBedrockStopReason, mapBedrockUsage } from "./map-bedrock.js";
import { bedrockStreamError, bodySnippet } from "./parse-bedrock-error.js";
import { bedrockProviderData } from "./parse-bedrock-response.js";

/** One content block being rebuilt from its events. */
interface BlockState {
  kind: "text" | "tool" | "reasoning";
  text: string;
  /** Tool blocks: the call id, its name and the `toolUse.input` text so far. */
  toolId: string;
  name: string;
  json: string;
  /** Reasoning blocks: the signature, or the redacted (encrypted) reasoning. */
  signature: string;
  redacted: string | undefined;
  ended: boolean;
}

/** What the reader knows so far. */
interface StreamState {
  url: string;
  limits: Pick<ResponseLimits, "maxSseEventBytes" | "maxToolCalls"> | undefined;
  blocks: Map<number, BlockState>;
  toolBlocks: number;
  usage: BedrockWireUsage | undefined;
  stopReason: string | undefined;
  stopped: boolean;
}

const utf8 = new TextDecoder();

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function newBlock(kind: BlockState["kind"]): BlockState {
  return { kind, text: "", toolId: "", name: "", json: "", signature: "", redacted: undefined, ended: false };
}

/**
 * Turns the body of a ConverseStream response (AWS event-stream frames, read as binary strings) into
 * {@link ModelStreamPart}s. The frames are decoded incrementally from chunks split anywhere, both CRCs
 * checked (see `EventStreamDecoder`); the event type is the `:event-type` header and the payload a JSON
 * object (its `p` padding field is ignored).
 *
 * - `contentBlockStart` with `start.toolUse` → `tool_call_start` (text and reasoning blocks have no start:
 *   they begin with their first delta);
 * - `contentBlockDelta`: `text` → `text_delta`; `toolUse.input` → `tool_call_delta`; `reasoningContent.text`
 *   → `reasoning_delta`, its `signature` / `redactedContent` kept for `providerData`;
 * - `contentBlockStop` of a tool block → `tool_call_end` with the parsed arguments;
 * - `messageStop`: the stop reason; `metadata` (it comes after `messageStop`): the usage.
 *
 * At the end of the body: a tool block never stopped ends with its partial text (and a `parseError`); a
 * `provider_data` part carries the rebuilt content when it holds signed or redacted reasoning; then one
 * `finish`. Throws (never yields an `error` part) the stream's own exception (`:message-type: exception`:
 * `throttlingException`, `modelStreamErrorException`, … as a retryable {@link StreamInterruptedError},
 * `validationException` as a final `ModelCallError`); a {@link StreamInterruptedError} for a damaged frame, a
 * payload that is not a JSON object, or a body that ends before `messageStop` (also inside a frame). Once
 * `messageStop` has arrived, a later failure of the body is ignored: the answer is complete.
 */
export async function* readBedrockStream(
  body: AsyncIterable<string>,
  url: string,
  limits?: Pick<ResponseLimits, "maxSseEventBytes" | "maxToolCalls">,
): AsyncGenerator<ModelStreamPart, void, undefined> {
  const state: StreamState = {
    url,
    limits,
    blocks: new Map(),
    toolBlocks: 0,
    usage: undefined,
    stopReason: undefined,
    stopped: false,
  };
  const decoder = new EventStreamDecoder({ url, maxMessageBytes: limits?.maxSseEventBytes });
  try {
    for await (const chunk of body) {
      for (const message of decoder.push(latin1Bytes(chunk))) yield* handleMessage(state, message);
    }
  } catch (error) {
    if (!state.stopped || AbortError.isInstance(error)) throw error;
  }
  if (!state.stopped) {
    const cut =
      decoder.pendingBytes > 0 ? ` (it broke off inside a frame, ${decoder.pendingBytes} bytes in)` : "";
    throw new StreamInterruptedError({
      message: `Model stream from ${url} ended before the model finished (no messageStop)${cut}`,
      url,
    });
  }
  yield* finish(state);
}

/** The end of a stream: unfinished tool calls, the provider data, and the `finish` part. */
function* finish(state: StreamState): Generator<ModelStreamPart> {
  const ordered = [...state.blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
  for (const block of ordered) if (!block.ended) yield* endBlock(block);
  const providerData = bedrockProviderData(ordered.map(wireBlock));
  if (providerData !== undefined) yield { type: "provider_data", data: providerData };
  yield {
    type: "finish",
    usage: mapBedrockUsage(state.usage),
    finishReason: mapBedrockStopReason(state.stopReason),
  };
}

/** A rebuilt block in its Converse form (as the non-streaming response has it). */
function wireBlock(block: BlockState): BedrockWireBlock {
  switch (block.kind) {
    case "text":
      return { text: block.text };
    case "tool": {
      const call = createToolCall({ id: block.toolId, name: block.name, rawArguments: block.json });
      const input = isPlainObject(call.arguments) ? call.arguments : {};
      return { toolUse: { toolUseId: block.toolId, name: block.name, input } };
    }
    case "reasoning":
      if (block.redacted !== undefined) return { reasoningContent: { redactedContent: block.redacted } };
      return {
        reasoningContent: {
          reasoningText: { text: block.text, ...(block.signature !== "" && { signature: block.signature }) },
        },
      };
  }
}

function stringHeader(message: EventStreamMessage, name: string): string | undefined {
  const value = message.headers[name];
  return typeof value === "string" ? value : undefined;
}

/** Parses a payload as a JSON object; a damaged one is a malformed stream. */
function payloadOf(
  message: EventStreamMessage,
  url: string,
): { text: string; value: Record<string, unknown> } {
  const text = utf8.decode(message.payload);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw malformed(text, url, error);
  }
  if (!isPlainObject(value)) throw malformed(text, url);
  return { text, value };
}

function* handleMessage(state: StreamState, message: EventStreamMessage): Generator<ModelStreamPart> {
  const { url } = state;
  const messageType = stringHeader(message, ":message-type") ?? "event";
  if (messageType === "exception") {
    const { text, value } = payloadOf(message, url);
    const said = [value.message, value.Message].find((m): m is string => typeof m === "string");
    throw bedrockStreamError({
      type: stringHeader(message, ":exception-type"),
      message: said,
      url,
      body: text,
    });
  }
  if (messageType === "error") {
    const code = stringHeader(message, ":error-code");
    const text = stringHeader(message, ":error-message");
    throw bedrockStreamError({ type: code, message: text, url, body: utf8.decode(message.payload) });
  }
  if (messageType !== "event" || (state.stopped && stringHeader(message, ":event-type") !== "metadata"))
    return;
  const { value } = payloadOf(message, url);
  switch (stringHeader(message, ":event-type")) {
    case "contentBlockStart":
      yield* startBlock(state, value as BedrockWireBlockStart);
      break;
    case "contentBlockDelta":
      yield* applyDelta(state, value as BedrockWireBlockDelta);
      break;
    case "contentBlockStop": {
      const block = blockAt(state, value.contentBlockIndex);
      if (block !== undefined && !block.ended) yield* endBlock(block);
      break;
    }
    case "messageStop": {
      const stop = value as BedrockWireMessageStop;
      if (typeof stop.stopReason === "string") state.stopReason = stop.stopReason;
      state.stopped = true;
      break;
    }
    case "metadata": {
      const usage = (value as BedrockWireMetadata).usage;
      if (isPlainObject(usage)) state.usage = usage;
      break;
    }
    default:
      // messageStart, and event types added later.
      break;
  }
}

function blockAt(state: StreamState, index: unknown): BlockState | undefined {
  return typeof index === "number" ? state.blocks.get(index) : undefined;
}

/** Opens a tool block (`contentBlockStart` with `start.toolUse`) or one that starts with a tool delta. */
function* openToolBlock(
  state: StreamState,
  index: number,
  id: unknown,
  name: unknown,
): Generator<ModelStreamPart> {
  checkToolCallSlot({ slot: state.toolBlocks++, maxToolCalls: state.limits?.maxToolCalls, url: state.url });
  const block = newBlock("tool");
  block.toolId = typeof id === "string" && id !== "" ? id : `tooluse_${index}`;
  block.name = typeof name === "string" ? name : "";
  state.blocks.set(index, block);
  yield { type: "tool_call_start", id: block.toolId, name: block.name };
}

function* startBlock(state: StreamState, start: BedrockWireBlockStart): Generator<ModelStreamPart> {
  const index = start.contentBlockIndex;
  const toolUse = start.start?.toolUse;
  if (typeof index !== "number" || !isPlainObject(toolUse) || state.blocks.has(index)) return;
  yield* openToolBlock(state, index, toolUse.toolUseId, toolUse.name);
}

/** The block at `index`, created as a `kind` block when it is new (text and reasoning blocks have no start). */
function blockFor(state: StreamState, index: number, kind: "text" | "reasoning"): BlockState {
  const existing = state.blocks.get(index);
  if (existing !== undefined) return existing;
  const block = newBlock(kind);
  state.blocks.set(index, block);
  return block;
}

/** Applies one `contentBlockDelta` to its block, creating text and reasoning blocks on their first delta. */
function* applyDelta(state: StreamState, event: BedrockWireBlockDelta): Generator<ModelStreamPart> {
  const index = event.contentBlockIndex;
  const delta = event.delta;
  if (typeof index !== "number" || !isPlainObject(delta) || state.blocks.get(index)?.ended) return;
  if (typeof delta.text === "string") {
    const block = blockFor(state, index, "text");
    block.text += delta.text;
    if (delta.text !== "") yield { type: "text_delta", delta: delta.text };
  } else if (isPlainObject(delta.toolUse)) {
    if (!state.blocks.has(index)) yield* openToolBlock(state, index, undefined, undefined);
    const block = state.blocks.get(index) as BlockState;
    const input = delta.toolUse.input;
    if (typeof input !== "string" || block.kind !== "tool") return;
    block.json += input;
    if (input !== "") yield { type: "tool_call_delta", id: block.toolId, delta: input };
  } else if (isPlainObject(delta.reasoningContent)) {
    const block = blockFor(state, index, "reasoning");
    const { text, signature, redactedContent } = delta.reasoningContent;
    if (typeof text === "string" && text !== "") {
      block.text += text;
      yield { type: "reasoning_delta", delta: text };
    }
    if (typeof signature === "string") block.signature += signature;
    if (typeof redactedContent === "string") block.redacted = (block.redacted ?? "") + redactedContent;
  }
}

/** Ends a block; a tool block emits `tool_call_end` with its raw argument text as sent. */
function* endBlock(block: BlockState): Generator<ModelStreamPart> {
  block.ended = true;
  if (block.kind !== "tool") return;
  yield {
    type: "tool_call_end",
    toolCall: createToolCall({ id: block.toolId, name: block.name, rawArguments: block.json }),
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
