import { isRetryableStatus, ModelCallError } from "../../errors/model-call-error.js";
import type { ErrorBodyInfo } from "../../http/send-model-request.js";
import type { OpenAIWireErrorEnvelope } from "./openai-wire-types.js";

export { isRetryableOpenAIStatus } from "./is-retryable-openai-status.js";

const SNIPPET_LENGTH = 200;

/** The first characters of a non-JSON body, whitespace collapsed, for error messages. */
export function bodySnippet(text: string): string {
  const collapsed = text.replace(/\s+/g, " ").trim();
  return collapsed.length > SNIPPET_LENGTH ? `${collapsed.slice(0, SNIPPET_LENGTH)}…` : collapsed;
}

/**
 * Reads message and code from a parsed error envelope. OpenAI sends
 * `{"error":{"message","type","param","code"}}`; compatible servers also send `{"error":"text"}`,
 * `{"message":"…"}` or `{"detail":"…"}`. `code` is the string `error.code`, else `error.type`, else a numeric
 * `error.code` as text (llama.cpp sends `"code": 400` with `"type": "exceed_context_size_error"`); `type`
 * and `rawCode` keep the envelope's values as sent. Returns undefined when the value carries none of these.
 */
export function readErrorEnvelope(envelope: OpenAIWireErrorEnvelope): ErrorBodyInfo | undefined {
  const error = envelope.error;
  if (typeof error === "string") return { message: error };
  if (error !== null && typeof error === "object") {
    const info: ErrorBodyInfo = {};
    if (typeof error.message === "string" && error.message !== "") info.message = error.message;
    const upstream = upstreamError(error.metadata);
    if (upstream !== undefined) info.message = `${info.message ?? "error"} (${upstream})`;
    return withTypeAndCode(info, error);
  }
  if (typeof envelope.message === "string") {
    // vLLM: {"object":"error","message","type","param","code"} — type and code at the top level.
    return withTypeAndCode({ message: envelope.message }, envelope as { type?: unknown; code?: unknown });
  }
  if (typeof envelope.detail === "string") return { message: envelope.detail };
  return undefined;
}

/**
 * OpenRouter's `error.metadata`: the provider it routed to and that provider's own error text (`raw`), which
 * says more than its "Provider returned error" (e.g. "google/gemini-2.0-flash-exp:free is temporarily
 * rate-limited upstream").
 */
function upstreamError(metadata: unknown): string | undefined {
  if (metadata === null || typeof metadata !== "object") return undefined;
  const { provider_name: provider, raw } = metadata as { provider_name?: unknown; raw?: unknown };
  if (typeof raw !== "string" || raw === "") return undefined;
  const text = bodySnippet(raw);
  return typeof provider === "string" && provider !== "" ? `${provider}: ${text}` : text;
}

/** Adds `type`, `rawCode` and `code` read from a top-level envelope (vLLM's shape). */
function withTypeAndCode(
  info: ErrorBodyInfo,
  { type, code }: { type?: unknown; code?: unknown },
): ErrorBodyInfo {
  if (typeof type === "string" && type !== "") info.type = type;
  if ((typeof code === "string" && code !== "") || (typeof code === "number" && Number.isFinite(code))) {
    info.rawCode = code;
  }
  if (typeof code === "string" && code !== "") info.code = code;
  else if (info.type !== undefined) info.code = info.type;
  else if (typeof code === "number" && Number.isFinite(code)) info.code = String(code);
  return info;
}

/**
 * Parses an error response body (any status) into {@link ErrorBodyInfo}. Never throws: a body that is not
 * a JSON envelope (an HTML page from a proxy, plain text) becomes a short snippet as the message.
 */
export function parseOpenAIErrorBody(text: string): ErrorBodyInfo {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const snippet = bodySnippet(text);
    return snippet === "" ? {} : { message: snippet };
  }
  if (parsed !== null && typeof parsed === "object") {
    const info = readErrorEnvelope(parsed as OpenAIWireErrorEnvelope);
    if (info !== undefined) return info;
  }
  return {};
}

/** Error codes reported inside a 200 response (body or stream) for which a new attempt can help. */
const RETRYABLE_IN_BODY_CODES = new Set(["server_error", "rate_limit_exceeded", "overloaded", "timeout"]);

/**
 * Builds the {@link ModelCallError} for an error envelope the server sent inside a 2xx response (a JSON
 * body or a stream chunk). Retryable only for transient codes (`server_error`, `rate_limit_exceeded`, …) and
 * for numeric codes that are transient HTTP statuses (OpenRouter reports an upstream 429 or 502 met
 * mid-stream as `{"error": {"code": 502, …}}`).
 */
export function errorFromEnvelope(
  info: ErrorBodyInfo,
  { url, status, body }: { url: string; status?: number | undefined; body?: string | undefined },
): ModelCallError {
  return new ModelCallError({
    message: `${url} reported an error${info.message !== undefined ? `: ${info.message}` : ""}`,
    isRetryable:
      (info.code !== undefined && RETRYABLE_IN_BODY_CODES.has(info.code)) ||
      (typeof info.rawCode === "number" && isRetryableStatus(info.rawCode)),
    url,
    ...(status !== undefined && { status }),
    ...(body !== undefined && { body }),
    ...(info.code !== undefined && { code: info.code }),
    ...(info.type !== undefined && { errorType: info.type }),
    ...(info.rawCode !== undefined && { errorCode: info.rawCode }),
  });
}
