import { isRetryableStatus, ModelCallError } from "../../errors/model-call-error.js";
import { StreamInterruptedError } from "../../errors/stream-interrupted-error.js";
import type { ErrorBodyInfo } from "../../http/send-model-request.js";
import { bodySnippet } from "../openai/parse-openai-error.js";
import type { GoogleWirePromptFeedback, GoogleWireStatus } from "./google-wire-types.js";

/** `google.rpc.Status` values for which the same request may succeed later. */
const TRANSIENT_STATUSES = new Set(["RESOURCE_EXHAUSTED", "UNAVAILABLE", "INTERNAL", "DEADLINE_EXCEEDED"]);

/** What Gemini says when the prompt does not fit: "The input token count (N) exceeds the maximum number of tokens allowed (M)." */
const CONTEXT_OVERFLOW = /input token count.*exceeds the maximum number of tokens/i;

/** The `@type` of the detail that says how long to wait. */
const RETRY_INFO_TYPE = "type.googleapis.com/google.rpc.RetryInfo";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A protobuf `Duration` in its JSON form (`"12s"`, `"0.5s"`) in ms; undefined when it is not one. */
export function parseGoogleDuration(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)s\s*$/.exec(value);
  if (match?.[1] === undefined) return undefined;
  return Math.round(Number(match[1]) * 1000);
}

/**
 * Reads a `google.rpc.Status` (`{code, message, status, details}`): the message, `code` = the string
 * `status` (`INVALID_ARGUMENT`, `RESOURCE_EXHAUSTED`, …), or `context_length_exceeded` for a prompt that does
 * not fit (so the loop compacts and retries), `type` = `status`, `rawCode` = the numeric `code`, and
 * `retryAfterMs` from a `RetryInfo` detail's `retryDelay`. Undefined when the value is not such an object.
 */
export function readGoogleStatus(status: unknown): ErrorBodyInfo | undefined {
  if (!isPlainObject(status)) return undefined;
  const error = status as GoogleWireStatus;
  const info: ErrorBodyInfo = {};
  if (typeof error.message === "string" && error.message !== "") info.message = error.message;
  if (typeof error.status === "string" && error.status !== "") {
    info.code = error.status;
    info.type = error.status;
  }
  if (typeof error.code === "number" || typeof error.code === "string") info.rawCode = error.code;
  if (info.message !== undefined && CONTEXT_OVERFLOW.test(info.message))
    info.code = "context_length_exceeded";
  for (const detail of Array.isArray(error.details) ? error.details : []) {
    if (!isPlainObject(detail) || detail["@type"] !== RETRY_INFO_TYPE) continue;
    const delay = parseGoogleDuration(detail.retryDelay);
    if (delay !== undefined) info.retryAfterMs = delay;
  }
  return info;
}

/**
 * Parses an error response body (any status) into {@link ErrorBodyInfo}. Gemini sends `{"error": Status}` (see
 * {@link readGoogleStatus}); a stream without `alt=sse` wraps it in an array; proxies may send `{"message"}`.
 * Never throws: a body that is not JSON (an HTML page from a proxy) becomes a short snippet as the message.
 */
export function parseGoogleErrorBody(text: string): ErrorBodyInfo {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const snippet = bodySnippet(text);
    return snippet === "" ? {} : { message: snippet };
  }
  const envelope = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!isPlainObject(envelope)) return {};
  if (typeof envelope.error === "string") return { message: envelope.error };
  const info = readGoogleStatus(envelope.error);
  if (info !== undefined) return info;
  return typeof envelope.message === "string" ? { message: envelope.message } : {};
}

/** Retryability of an error status: 408/409/429/5xx, plus a transient `status` under any HTTP status. */
export function isRetryableGoogleStatus(status: number, info: ErrorBodyInfo): boolean {
  if (isRetryableStatus(status)) return true;
  return info.type !== undefined && TRANSIENT_STATUSES.has(info.type);
}

/** Options of {@link googleErrorFromStatus}. */
export interface GoogleErrorFromStatusOptions {
  info: ErrorBodyInfo;
  url: string;
  /** The body or event that held the error. */
  body: string;
  /** True inside a stream (parts may have been delivered). */
  inStream: boolean;
}

/**
 * The error for an `error` object inside a 200 body or stream. A transient status (`UNAVAILABLE`,
 * `RESOURCE_EXHAUSTED`, `INTERNAL`, `DEADLINE_EXCEEDED`) inside a stream becomes a {@link StreamInterruptedError}
 * (the agent loop retries the whole call); otherwise a {@link ModelCallError}, retryable when transient.
 */
export function googleErrorFromStatus({
  info,
  url,
  body,
  inStream,
}: GoogleErrorFromStatusOptions): ModelCallError {
  const options = {
    message: `${url} reported an error${info.message !== undefined ? `: ${info.message}` : ""}`,
    url,
    body,
    ...(info.code !== undefined && { code: info.code }),
    ...(info.type !== undefined && { errorType: info.type }),
    ...(info.rawCode !== undefined && { errorCode: info.rawCode }),
    ...(info.retryAfterMs !== undefined && { retryAfterMs: info.retryAfterMs }),
  };
  const transient = info.type !== undefined && TRANSIENT_STATUSES.has(info.type);
  if (transient && inStream) return new StreamInterruptedError(options);
  return new ModelCallError({ ...options, isRetryable: transient, ...(!inStream && { status: 200 }) });
}

/** Options of {@link promptBlockedError}. */
export interface PromptBlockedErrorOptions {
  feedback: GoogleWirePromptFeedback;
  url: string;
  body: string;
}

/**
 * The error for a refused prompt (`promptFeedback.blockReason` and no candidates, HTTP 200): a non-retryable
 * {@link ModelCallError} with code `prompt_blocked` and the block reason (`SAFETY`, `BLOCKLIST`,
 * `PROHIBITED_CONTENT`, `MODEL_ARMOR`, …) as `errorType`. Sending the same prompt again gets the same answer.
 */
export function promptBlockedError({ feedback, url, body }: PromptBlockedErrorOptions): ModelCallError {
  const reason = typeof feedback.blockReason === "string" ? feedback.blockReason : "unknown reason";
  const said =
    typeof feedback.blockReasonMessage === "string" && feedback.blockReasonMessage !== ""
      ? `: ${feedback.blockReasonMessage}`
      : "";
  const categories = (feedback.safetyRatings ?? [])
    .filter((rating) => rating?.blocked === true && typeof rating.category === "string")
    .map((rating) => rating.category);
  const which = categories.length > 0 ? ` [${categories.join(", ")}]` : "";
  return new ModelCallError({
    message: `Gemini blocked the prompt (${reason})${which}${said}; the request was not answered (${url})`,
    status: 200,
    body,
    isRetryable: false,
    code: "prompt_blocked",
    errorType: reason,
    url,
  });
}
