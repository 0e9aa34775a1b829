import { ModelCallError } from "../../errors/model-call-error.js";
import type { ModelResponse } from "../../models/model.js";
import { bodySnippet } from "../openai/parse-openai-error.js";
import { GooglePartsAssembler } from "./google-parts-assembler.js";
import type { GoogleWireResponse } from "./google-wire-types.js";
import { mapGoogleFinishReason, mapGoogleUsage } from "./map-google.js";
import { googleErrorFromStatus, promptBlockedError, readGoogleStatus } from "./parse-google-error.js";
import { firstCandidate } from "./read-google-stream.js";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Options of {@link parseGoogleResponse}. */
export interface ParseGoogleResponseOptions {
  /** The body of a 2xx `generateContent` response. */
  text: string;
  /** The URL called (without credentials), for errors. */
  url: string;
}

/**
 * Parses a 2xx `generateContent` body into a {@link ModelResponse}: the first candidate's parts through the
 * same assembler as streams (text, thought summaries as `reasoning`, function calls, the parts to send back as
 * `providerData`), its `finishReason` mapped (STOP with calls → tool_calls; SAFETY and the other filters →
 * content_filter, with whatever text came), `usageMetadata` mapped, `modelVersion` as `model`, the parsed body
 * as `raw`. A candidate without parts (an answer blocked by a safety filter) gives an empty answer with that
 * finish reason, which the agent loop reports as an `EmptyResponseError` naming the content filter.
 *
 * Throws a non-retryable `prompt_blocked` {@link ModelCallError} when the prompt was refused (no candidates,
 * `promptFeedback.blockReason`), the body's `error` when it has one, and a non-retryable error (status 200)
 * for a body that is not a JSON object.
 */
export function parseGoogleResponse({ text, url }: ParseGoogleResponseOptions): ModelResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalid(`${url} answered 200 with a body that is not JSON: ${bodySnippet(text)}`, text, url, error);
  }
  if (!isPlainObject(parsed))
    throw invalid(`${url} answered 200 with a body that is not a JSON object`, text, url);
  const body = parsed as GoogleWireResponse;
  if (body.error !== undefined && body.error !== null) {
    throw googleErrorFromStatus({
      info: readGoogleStatus(body.error) ?? {},
      url,
      body: text,
      inStream: false,
    });
  }
  const candidate = firstCandidate(body);
  const feedback = body.promptFeedback;
  if (candidate === undefined && isPlainObject(feedback) && nonEmpty(feedback.blockReason) !== undefined) {
    throw promptBlockedError({ feedback, url, body: text });
  }
  const responseId = nonEmpty(body.responseId);
  const assembler = new GooglePartsAssembler({ url });
  const parts = candidate?.content?.parts;
  for (const part of Array.isArray(parts) ? parts : []) drain(assembler.add(part, responseId));
  drain(assembler.finish());
  const response: ModelResponse = {
    text: assembler.text,
    toolCalls: assembler.toolCalls,
    usage: mapGoogleUsage(body.usageMetadata),
    finishReason: mapGoogleFinishReason({
      raw: candidate?.finishReason,
      hasToolCalls: assembler.toolCalls.length > 0,
    }),
    raw: parsed,
  };
  if (assembler.reasoning !== "") response.reasoning = assembler.reasoning;
  const providerData = assembler.providerData();
  if (providerData !== undefined) response.providerData = providerData;
  const model = nonEmpty(body.modelVersion);
  if (model !== undefined) response.model = model;
  return response;
}

/** Runs a part generator to its end (the answer is read from the assembler afterwards). */
function drain(parts: Iterable<unknown>): void {
  for (const _part of parts) {
    // nothing to do per part
  }
}

function invalid(message: string, body: string, url: string, cause?: unknown): ModelCallError {
  return new ModelCallError({ message, status: 200, body, isRetryable: false, url, cause });
}
