import { AbortError } from "../../errors/abort-error.js";
import { StreamInterruptedError } from "../../errors/stream-interrupted-error.js";
import type { ResponseLimits } from "../../http/response-limits.js";
import type { ModelStreamPart } from "../../models/model-stream-part.js";
import { bodySnippet } from "../openai/parse-openai-error.js";
import { GooglePartsAssembler } from "./google-parts-assembler.js";
import type { GoogleWireCandidate, GoogleWireResponse, GoogleWireUsage } from "./google-wire-types.js";
import { mapGoogleFinishReason, mapGoogleUsage, mergeGoogleUsage } from "./map-google.js";
import { googleErrorFromStatus, promptBlockedError, readGoogleStatus } from "./parse-google-error.js";
import { readGooglePayloads } from "./read-google-payloads.js";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The candidate this provider reads: the one with index 0 (or without an index), else the first. */
export function firstCandidate(response: GoogleWireResponse): GoogleWireCandidate | undefined {
  const candidates = Array.isArray(response.candidates) ? response.candidates.filter(isPlainObject) : [];
  return (
    (candidates.find((c) => c.index === undefined || c.index === 0) as GoogleWireCandidate | undefined) ??
    (candidates[0] as GoogleWireCandidate | undefined)
  );
}

/** What a stream has told so far, besides the parts. */
interface StreamState {
  usage: GoogleWireUsage;
  finishReason: string | undefined;
  model: string | undefined;
  responseId: string | undefined;
}

/**
 * Reads one chunk of the stream into `state` and `assembler`, yielding its parts. Throws the chunk's error
 * (an `error` object, or a refused prompt: `promptFeedback.blockReason` with no candidates).
 */
function* readChunk({
  chunk,
  data,
  state,
  assembler,
  url,
}: {
  chunk: GoogleWireResponse;
  data: string;
  state: StreamState;
  assembler: GooglePartsAssembler;
  url: string;
}): Generator<ModelStreamPart> {
  if (chunk.error !== undefined && chunk.error !== null) {
    const info = readGoogleStatus(chunk.error) ?? {};
    throw googleErrorFromStatus({ info, url, body: data, inStream: true });
  }
  mergeGoogleUsage(state.usage, chunk.usageMetadata);
  state.model = nonEmpty(chunk.modelVersion) ?? state.model;
  state.responseId = nonEmpty(chunk.responseId) ?? state.responseId;
  const candidate = firstCandidate(chunk);
  if (candidate === undefined) {
    const feedback = chunk.promptFeedback;
    if (isPlainObject(feedback) && nonEmpty(feedback.blockReason) !== undefined) {
      throw promptBlockedError({ feedback, url, body: data });
    }
    return;
  }
  const parts = candidate.content?.parts;
  if (Array.isArray(parts)) {
    for (const part of parts) yield* assembler.add(part, state.responseId);
  }
  const reason = nonEmpty(candidate.finishReason);
  if (reason !== undefined) state.finishReason = reason;
}

/**
 * Turns the text body of `streamGenerateContent` (SSE, or the JSON array; see `readGooglePayloads`) into
 * {@link ModelStreamPart}s. Each chunk is a `GenerateContentResponse`: its first candidate's parts go through
 * {@link GooglePartsAssembler} (text, thought summaries as reasoning, function calls, signatures kept);
 * `usageMetadata` is a running snapshot (the last value of each field wins); `modelVersion` names the model.
 * The answer is complete once a candidate has a `finishReason`; then come a `provider_data` part (the parts to
 * send back, when there is a signature or a call) and one `finish`.
 *
 * Throws (never yields an `error` part): the error of an `error` chunk (a transient status as a retryable
 * {@link StreamInterruptedError}); a non-retryable `prompt_blocked` error for a refused prompt; a
 * {@link StreamInterruptedError} for a chunk that is not a JSON object and for a body that ends before any
 * `finishReason`. A failure of the body after the `finishReason` is ignored: the answer is complete. With
 * `limits`, an event over `maxSseEventBytes` or more calls than `maxToolCalls` fails with `ResponseTooLargeError`.
 */
export async function* readGoogleStream(
  body: AsyncIterable<string>,
  url: string,
  limits?: Pick<ResponseLimits, "maxSseEventBytes" | "maxToolCalls">,
): AsyncGenerator<ModelStreamPart, void, undefined> {
  const assembler = new GooglePartsAssembler({ url, maxToolCalls: limits?.maxToolCalls });
  const state: StreamState = { usage: {}, finishReason: undefined, model: undefined, responseId: undefined };
  let parsing: string | undefined;
  try {
    for await (const data of readGooglePayloads(body, { maxEventChars: limits?.maxSseEventBytes, url })) {
      parsing = data;
      const chunk = JSON.parse(data) as unknown;
      parsing = undefined;
      if (!isPlainObject(chunk)) throw malformed(data, url);
      yield* readChunk({ chunk: chunk as GoogleWireResponse, data, state, assembler, url });
    }
  } catch (error) {
    if (parsing !== undefined) throw malformed(parsing, url, error);
    if (state.finishReason === undefined || AbortError.isInstance(error)) throw error;
  }
  if (state.finishReason === undefined) {
    throw new StreamInterruptedError({
      message: `Model stream from ${url} ended before the model finished (no finishReason)`,
      url,
    });
  }
  yield* assembler.finish();
  const providerData = assembler.providerData();
  if (providerData !== undefined) yield { type: "provider_data", data: providerData };
  yield {
    type: "finish",
    usage: mapGoogleUsage(state.usage),
    finishReason: mapGoogleFinishReason({
      raw: state.finishReason,
      hasToolCalls: assembler.toolCalls.length > 0,
    }),
    ...(state.model !== undefined && { model: state.model }),
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
