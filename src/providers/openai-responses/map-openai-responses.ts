import type { ModelCallError } from "../../errors/model-call-error.js";
import type { ErrorBodyInfo } from "../../http/send-model-request.js";
import type { FinishReason } from "../../models/finish-reason.js";
import { emptyUsage, type Usage } from "../../models/usage.js";
import { errorFromEnvelope, readErrorEnvelope } from "../openai/parse-openai-error.js";
import type {
  OpenAIResponsesProviderData,
  OpenAIResponsesWireEvent,
  OpenAIResponsesWireItem,
  OpenAIResponsesWireResponse,
  OpenAIResponsesWireUsage,
} from "./openai-responses-wire-types.js";

function count(value: number | null | undefined): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/**
 * Maps the Responses `usage` to {@link Usage}: `input_tokens` (cache reads and writes included),
 * `output_tokens`, `total_tokens` (computed when missing), and — when reported —
 * `input_tokens_details.cached_tokens` as `cachedInputTokens`, `input_tokens_details.cache_write_tokens` as
 * `cacheWriteTokens` and `output_tokens_details.reasoning_tokens` as `reasoningTokens`. A missing usage maps
 * to zero tokens.
 */
export function mapOpenAIResponsesUsage(usage: OpenAIResponsesWireUsage | null | undefined): Usage {
  if (usage === null || usage === undefined || typeof usage !== "object") return emptyUsage();
  const inputTokens = count(usage.input_tokens) ?? 0;
  const outputTokens = count(usage.output_tokens) ?? 0;
  const result: Usage = {
    inputTokens,
    outputTokens,
    totalTokens: count(usage.total_tokens) ?? inputTokens + outputTokens,
  };
  const cached = count(usage.input_tokens_details?.cached_tokens);
  if (cached !== undefined) result.cachedInputTokens = cached;
  const written = count(usage.input_tokens_details?.cache_write_tokens);
  if (written !== undefined) result.cacheWriteTokens = written;
  const reasoning = count(usage.output_tokens_details?.reasoning_tokens);
  if (reasoning !== undefined) result.reasoningTokens = reasoning;
  return result;
}

/** Options of {@link mapOpenAIResponsesFinishReason}. */
export interface MapOpenAIResponsesFinishReasonOptions {
  /** The response `status`. */
  status: string | null | undefined;
  /** `incomplete_details.reason` of an incomplete response. */
  incompleteReason?: string | null | undefined;
  /** Whether the response called functions. */
  hasToolCalls: boolean;
}

/**
 * Maps a response's status to the neutral {@link FinishReason}: `completed` → `tool_calls` when functions
 * were called, else `stop` (raw "completed"); `incomplete` → `length` for `max_output_tokens`,
 * `content_filter` for `content_filter`, else `other` (raw = the reason); `failed` → `error`; anything else
 * → `other`.
 */
export function mapOpenAIResponsesFinishReason({
  status,
  incompleteReason,
  hasToolCalls,
}: MapOpenAIResponsesFinishReasonOptions): FinishReason {
  switch (status) {
    case "completed":
      return { unified: hasToolCalls ? "tool_calls" : "stop", raw: status };
    case "incomplete": {
      const reason = incompleteReason ?? undefined;
      if (reason === "max_output_tokens") return { unified: "length", raw: reason };
      if (reason === "content_filter") return { unified: "content_filter", raw: reason };
      return { unified: "other", raw: reason ?? status };
    }
    case "failed":
      return { unified: "error", raw: status };
    default:
      return { unified: "other", raw: status ?? undefined };
  }
}

/** True when the output holds a reasoning item (then it is kept as provider data). */
export function hasReasoningItems(output: readonly OpenAIResponsesWireItem[]): boolean {
  return output.some((item) => item?.type === "reasoning");
}

/** The provider data that carries a response's output to the next turn. */
export function responsesProviderData(output: OpenAIResponsesWireItem[]): OpenAIResponsesProviderData {
  return { openaiResponses: { output } };
}

/**
 * The error of a `response.failed` event or of a 200 body with `status: "failed"`: message and code from
 * `response.error` (`{code, message}`). Retryable only for transient codes (`server_error`,
 * `rate_limit_exceeded`, …; see `errorFromEnvelope`).
 */
export function responseFailure({
  response,
  url,
  status,
  body,
}: {
  response: OpenAIResponsesWireResponse | null | undefined;
  url: string;
  status?: number | undefined;
  body?: string | undefined;
}): ModelCallError {
  const info = readErrorEnvelope({ error: response?.error ?? null }) ?? {};
  if (info.message === undefined) info.message = "the response failed";
  return errorFromEnvelope(info, { url, status, body });
}

/**
 * Message and code of a stream `error` event, in either shape: nested `{error:{type,code,message}}` (what
 * the server sent in the recordings) or `code`/`message` at the top level (what the OpenAPI spec declares).
 */
export function streamErrorInfo(event: OpenAIResponsesWireEvent): ErrorBodyInfo {
  if (event.error !== undefined && event.error !== null)
    return readErrorEnvelope({ error: event.error }) ?? {};
  const info: ErrorBodyInfo = {};
  if (typeof event.message === "string" && event.message !== "") info.message = event.message;
  if (typeof event.code === "string" && event.code !== "") info.code = event.code;
  return info;
}
