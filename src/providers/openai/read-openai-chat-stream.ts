import { StreamInterruptedError } from "../../errors/stream-interrupted-error.js";
import { readSseEventBatches, type SseEvent } from "../../http/read-sse-events.js";
import type { ResponseLimits } from "../../http/response-limits.js";
import { createToolCall } from "../../models/message.js";
import type { ModelStreamPart } from "../../models/model-stream-part.js";
import { checkToolCallSlot } from "../check-tool-call-slot.js";
import { readContentChunks } from "../openai-compatible/read-content-chunks.js";
import { mapOpenAIFinishReason } from "./map-openai-finish-reason.js";
import { mapOpenAIUsage } from "./map-openai-usage.js";
import { OpenAICompatibleReasoning } from "./openai-compatible-reasoning.js";
import type { OpenAIWireChunk, OpenAIWireToolCallDelta, OpenAIWireUsage } from "./openai-wire-types.js";
import { bodySnippet, errorFromEnvelope, readErrorEnvelope } from "./parse-openai-error.js";

/** A tool call of choice 0 being reassembled from its fragments. */
interface ToolCallState {
  id: string;
  name: string;
  /** The argument text so far (concatenated fragments). */
  args: string;
  /** `tool_call_start` was emitted. */
  started: boolean;
  /** The call's `extra_content` (Gemini's thought signature), when a fragment carried one. */
  extra?: unknown;
}

/**
 * The slot of a fragment: its `index`, or — for servers that omit it — a new slot when the fragment names a
 * new call id, else the last slot.
 */
function slotOf(calls: ToolCallState[], fragment: OpenAIWireToolCallDelta): number {
  if (typeof fragment.index === "number") return fragment.index;
  const last = calls[calls.length - 1];
  if (last === undefined) return 0;
  const id = fragment.id;
  return typeof id === "string" && id !== "" && last.id !== "" && id !== last.id
    ? calls.length
    : calls.length - 1;
}

/**
 * Turns the text body of a Chat Completions stream (SSE, `data: <json>` events, `data: [DONE]`) into
 * {@link ModelStreamPart}s.
 *
 * Only choice 0 is surfaced (with `n > 1` the other choices are skipped). Text becomes `text_delta`,
 * `delta.refusal` becomes `refusal_delta`, reasoning (`reasoning_content`, else `reasoning`, else the text of
 * `reasoning_details`) becomes `reasoning_delta`. Tool-call fragments are reassembled per
 * `tool_calls[].index`: the first fragment (id + name) emits `tool_call_start`, every non-empty `arguments`
 * fragment a `tool_call_delta`, and when choice 0 reports its `finish_reason` (or, failing that, at `[DONE]`)
 * each call gets a `tool_call_end` with its parsed arguments. What the server needs back on the next turn
 * (reasoning, reasoning details, tool calls' `extra_content`: see `OpenAICompatibleReasoning`) comes in one
 * `provider_data` part before the `finish`. Exactly one `finish` part (usage from the `choices: []` usage
 * chunk, or the last non-null `usage`; finish reason of choice 0) ends the stream. Unknown fields
 * (`obfuscation`, `service_tier`, …) are ignored.
 *
 * Throws (never yields an `error` part): {@link StreamInterruptedError} for a chunk that is not a JSON object,
 * or for a body that ends with neither a `finish_reason` for choice 0 nor `[DONE]` (connection closed early);
 * a `ModelCallError` carrying the server's message and code for an in-stream `{"error": {...}}` chunk;
 * with `limits`, a `ResponseTooLargeError` for an event over `maxSseEventBytes` or a tool-call index at or above
 * `maxToolCalls`, and a non-retryable `ModelCallError` for an index that is not a non-negative integer.
 */
export async function* readOpenAIChatStream(
  body: AsyncIterable<string>,
  url: string,
  limits?: Pick<ResponseLimits, "maxSseEventBytes" | "maxToolCalls">,
): AsyncGenerator<ModelStreamPart, void, undefined> {
  const calls: ToolCallState[] = [];
  const reasoning = new OpenAICompatibleReasoning(url);
  let usage: OpenAIWireUsage | undefined;
  let model: string | undefined;
  let finishRaw: string | undefined;
  let finished = false;
  let sawDone = false;
  // Set while a payload is parsed: one try/catch around the loop, none per chunk.
  let parsing: string | undefined;
  try {
    // One async step per body chunk; the chunk's events are handled synchronously.
    for await (const batch of readSseEventBatches(body, { maxEventChars: limits?.maxSseEventBytes, url }))
      for (let e = 0; e < batch.length; e++) {
        const data = (batch[e] as SseEvent).data;
        if (data === "[DONE]") {
          sawDone = true;
          continue;
        }
        if (data === "") continue;
        parsing = data;
        const chunk = JSON.parse(data) as OpenAIWireChunk | null;
        parsing = undefined;
        if (chunk === null || typeof chunk !== "object") throw malformed(data, url);
        if (chunk.error !== undefined && chunk.error !== null) {
          throw errorFromEnvelope(readErrorEnvelope(chunk) ?? {}, { url, body: data });
        }
        if (chunk.usage !== undefined && chunk.usage !== null) usage = chunk.usage;
        else if (chunk.x_groq?.usage !== undefined && chunk.x_groq.usage !== null) usage = chunk.x_groq.usage;
        if (typeof chunk.model === "string" && chunk.model !== "") model = chunk.model;
        const choices = chunk.choices;
        if (choices === undefined || choices === null || finished) continue;
        for (let c = 0; c < choices.length; c++) {
          const choice = choices[c];
          if (choice === undefined || (choice.index ?? 0) !== 0) continue;
          const delta = choice.delta;
          if (delta !== undefined && delta !== null) {
            const thought = reasoning.addDelta(delta);
            if (thought !== "") yield { type: "reasoning_delta", delta: thought };
            const content = delta.content;
            if (typeof content === "string") {
              if (content !== "") yield { type: "text_delta", delta: content };
            } else if (Array.isArray(content)) {
              const chunks = readContentChunks(content);
              if (chunks.thinking !== "") yield { type: "reasoning_delta", delta: chunks.thinking };
              if (chunks.text !== "") yield { type: "text_delta", delta: chunks.text };
            }
            const refusal = delta.refusal;
            if (typeof refusal === "string" && refusal !== "")
              yield { type: "refusal_delta", delta: refusal };
            const fragments = delta.tool_calls;
            if (Array.isArray(fragments)) {
              for (let f = 0; f < fragments.length; f++) {
                const fragment = fragments[f];
                if (fragment === undefined || fragment === null) continue;
                const slot = slotOf(calls, fragment);
                // Before `calls[slot]`: a huge index would make a sparse array that later loops walk in full.
                if (calls[slot] === undefined)
                  checkToolCallSlot({ slot, maxToolCalls: limits?.maxToolCalls, url });
                let state = calls[slot];
                if (state === undefined) {
                  state = { id: "", name: "", args: "", started: false };
                  calls[slot] = state;
                }
                const fn = fragment.function;
                if (fragment.extra_content !== undefined && fragment.extra_content !== null) {
                  state.extra = fragment.extra_content;
                }
                if (!state.started) {
                  if (typeof fragment.id === "string" && fragment.id !== "") state.id = fragment.id;
                  const name = fn?.name;
                  if (typeof name === "string" && name !== "") state.name = name;
                  if (state.name !== "") {
                    if (state.id === "") state.id = `call_${slot}`;
                    state.started = true;
                    yield { type: "tool_call_start", id: state.id, name: state.name };
                    // Argument text that arrived before the header (seen from some compatible servers).
                    if (state.args !== "") yield { type: "tool_call_delta", id: state.id, delta: state.args };
                  }
                }
                const args = fn?.arguments;
                if (typeof args === "string" && args !== "") {
                  state.args += args;
                  if (state.started) yield { type: "tool_call_delta", id: state.id, delta: args };
                }
              }
            }
          }
          const reason = choice.finish_reason;
          if (typeof reason === "string" && reason !== "") {
            finishRaw = reason;
            finished = true;
            yield* endToolCalls(calls, reasoning);
            break;
          }
        }
      }
  } catch (error) {
    if (parsing !== undefined) throw malformed(parsing, url, error);
    throw error;
  }
  if (!finished) {
    if (!sawDone) {
      throw new StreamInterruptedError({
        message: `Model stream from ${url} ended before the model finished (no finish_reason, no [DONE])`,
        url,
      });
    }
    yield* endToolCalls(calls, reasoning);
  }
  const data = reasoning.providerData();
  if (data !== undefined) yield { type: "provider_data", data };
  yield {
    type: "finish",
    usage: mapOpenAIUsage(usage),
    finishReason: mapOpenAIFinishReason(finishRaw),
    ...(model !== undefined && { model }),
  };
}

/**
 * Emits `tool_call_end` for every call (in index order), announcing calls whose header never came, and keeps
 * each call's `extra_content` under its final id.
 */
function* endToolCalls(
  calls: ToolCallState[],
  reasoning: OpenAICompatibleReasoning,
): Generator<ModelStreamPart> {
  for (let slot = 0; slot < calls.length; slot++) {
    const state = calls[slot];
    if (state === undefined) continue;
    if (!state.started) {
      if (state.id === "") state.id = `call_${slot}`;
      state.started = true;
      yield { type: "tool_call_start", id: state.id, name: state.name };
      if (state.args !== "") yield { type: "tool_call_delta", id: state.id, delta: state.args };
    }
    if (state.extra !== undefined) reasoning.addToolCallExtra(state.id, state.extra);
    yield {
      type: "tool_call_end",
      toolCall: createToolCall({ id: state.id, name: state.name, rawArguments: state.args }),
    };
  }
  calls.length = 0;
}

function malformed(data: string, url: string, cause?: unknown): StreamInterruptedError {
  return new StreamInterruptedError({
    message: `Model stream from ${url} sent a malformed chunk: ${bodySnippet(data)}`,
    url,
    body: data,
    cause,
  });
}
