import { isRetryableStatus, ModelCallError } from "../../errors/model-call-error.js";
import { StreamInterruptedError } from "../../errors/stream-interrupted-error.js";
import type { ErrorBodyInfo } from "../../http/send-model-request.js";
import type { AnthropicWireErrorEnvelope } from "./anthropic-wire-types.js";

const SNIPPET_LENGTH = 200;

/** The first characters of a body, whitespace collapsed, for error messages. */
export function bodySnippet(text: string): string {
  const collapsed = text.replace(/\s+/g, " ").trim();
  return collapsed.length > SNIPPET_LENGTH ? `${collapsed.slice(0, SNIPPET_LENGTH)}…` : collapsed;
}

/**
 * Reads message and code from a parsed error envelope. Anthropic sends
 * `{"type":"error","error":{"type":"invalid_request_error","message":"…"},"request_id":"req_…"}`; the code is
 * `error.type` (e.g. `overloaded_error`, `rate_limit_error`). Proxies also send `{"error":"text"}` or
 * `{"message":"…"}`. Undefined when the value carries none of these.
 */
export function readAnthropicErrorEnvelope(envelope: AnthropicWireErrorEnvelope): ErrorBodyInfo | undefined {
  const error = envelope.error;
  if (typeof error === "string") return { message: error };
  if (error !== null && typeof error === "object") {
    const info: ErrorBodyInfo = {};
    if (typeof error.message === "string" && error.message !== "") info.message = error.message;
    if (typeof error.type === "string" && error.type !== "") {
      info.code = error.type;
      info.type = error.type;
    }
    return info;
  }
  if (typeof envelope.message === "string") return { message: envelope.message };
  return undefined;
}

/**
 * Parses an error response body (any status) into {@link ErrorBodyInfo}. Never throws: a body that is not a
 * JSON envelope (an HTML page from a proxy) becomes a short snippet as the message. The message keeps the
 * server's words, so a 400 "prompt is too long: … tokens > … maximum" is recognised by `isContextLengthError`.
 */
export function parseAnthropicErrorBody(text: string): ErrorBodyInfo {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const snippet = bodySnippet(text);
    return snippet === "" ? {} : { message: snippet };
  }
  if (parsed !== null && typeof parsed === "object") {
    return readAnthropicErrorEnvelope(parsed as AnthropicWireErrorEnvelope) ?? {};
  }
  return {};
}

/** Error types for which the same request may succeed later. */
const RETRYABLE_ERROR_TYPES = new Set(["overloaded_error", "rate_limit_error", "api_error", "timeout_error"]);

/**
 * Retryability of an error status for Anthropic: 408/409/429/5xx (529 `overloaded_error` included), plus any
 * status whose envelope says `overloaded_error` or `rate_limit_error`. 400/401/403/404/413/422 are final.
 */
export function isRetryableAnthropicStatus(status: number, info: ErrorBodyInfo): boolean {
  if (isRetryableStatus(status)) return true;
  return info.code === "overloaded_error" || info.code === "rate_limit_error";
}

/**
 * The error for an `error` event inside a 200 stream (or an error envelope in a 200 body). A transient type
 * (`overloaded_error`, `rate_limit_error`, `api_error`, `timeout_error`) inside a stream becomes a
 * {@link StreamInterruptedError} — a retryable `ModelCallError` that the agent loop retries as a whole call
 * (parts may already have been delivered, so the provider does not retry it itself). Other types become a
 * non-retryable {@link ModelCallError}. Both carry the server's message and `code` (the error type).
 */
export function anthropicErrorFromEnvelope(
  info: ErrorBodyInfo,
  { url, body, inStream }: { url: string; body: string; inStream: boolean },
): ModelCallError {
  const options = {
    message: `${url} reported an error${info.message !== undefined ? `: ${info.message}` : ""}`,
    url,
    body,
    ...(info.code !== undefined && { code: info.code }),
    ...(info.type !== undefined && { errorType: info.type }),
  };
  const transient = info.code !== undefined && RETRYABLE_ERROR_TYPES.has(info.code);
  if (transient && inStream) return new StreamInterruptedError(options);
  return new ModelCallError({ ...options, isRetryable: transient, ...(!inStream && { status: 200 }) });
}
