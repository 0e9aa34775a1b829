import { isRetryableStatus, ModelCallError } from "../../errors/model-call-error.js";
import { StreamInterruptedError } from "../../errors/stream-interrupted-error.js";
import type { ErrorBodyInfo } from "../../http/send-model-request.js";

const SNIPPET_LENGTH = 200;

/** The first characters of a body, whitespace collapsed, for error messages. */
export function bodySnippet(text: string): string {
  const collapsed = text.replace(/\s+/g, " ").trim();
  return collapsed.length > SNIPPET_LENGTH ? `${collapsed.slice(0, SNIPPET_LENGTH)}…` : collapsed;
}

/**
 * Error types (lower-cased, as HTTP errors spell them `ThrottlingException` and stream exceptions
 * `throttlingException`) for which the same request may succeed later.
 */
const TRANSIENT_TYPES = new Set([
  "throttlingexception",
  "serviceunavailableexception",
  "internalserverexception",
  "modelstreamerrorexception",
  "modelnotreadyexception",
  "modeltimeoutexception",
]);

/** What Bedrock (and the models behind it) say when the prompt does not fit the model's context window. */
const CONTEXT_LENGTH_MESSAGE =
  /input is too long|too many input tokens|input tokens? exceeds?|prompt is too long|exceeds? the (?:model'?s? )?(?:maximum )?(?:context|input) (?:length|window|size)/i;

/** The error type without the namespace or suffix Bedrock may add (`…#ThrottlingException`, `X:http://…`). */
export function cleanErrorType(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const withoutSuffix = raw.split(":")[0] ?? "";
  const type = (withoutSuffix.split("#").pop() ?? "").trim();
  return type === "" ? undefined : type;
}

/**
 * The info of an error: its message and type; `code` is the type, except that a `ValidationException` whose
 * message says the input does not fit (Claude's "Input is too long for requested model.", "prompt is too
 * long: …", Nova's "too many input tokens") gets the code `context_length_exceeded`, so the agent loop
 * compacts the history and tries again (see `isContextLengthError`). `type` keeps the type as sent.
 */
export function bedrockErrorInfo({
  type,
  message,
}: {
  type?: string | undefined;
  message?: string;
}): ErrorBodyInfo {
  const info: ErrorBodyInfo = {};
  if (message !== undefined && message !== "") info.message = message;
  if (type !== undefined) {
    info.type = type;
    info.code = type;
    if (type.toLowerCase() === "validationexception" && CONTEXT_LENGTH_MESSAGE.test(message ?? "")) {
      info.code = "context_length_exceeded";
    }
  }
  return info;
}

function field(record: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = record[name];
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

/**
 * Parses a Bedrock error response into {@link ErrorBodyInfo}. Never throws. The body is `{"message": "…"}`
 * (some gateways send `Message`, `__type` or `code` too) and the type comes in the `x-amzn-errortype` header
 * (`ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/`: the part before the first
 * `:`), else from the body's `__type`. A body that is not JSON becomes a short snippet as the message.
 */
export function parseBedrockErrorBody(
  text: string,
  header?: (name: string) => string | undefined,
): ErrorBodyInfo {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const record =
    parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  const type = cleanErrorType(
    header?.("x-amzn-errortype") ?? (record && field(record, "__type", "code", "Code")),
  );
  const snippet = bodySnippet(text);
  const message = record !== undefined ? field(record, "message", "Message") : snippet || undefined;
  return bedrockErrorInfo({ type, ...(message !== undefined && { message }) });
}

/**
 * Retryability of an error status for Bedrock: 408/409/429/5xx, plus any status whose type is transient
 * (`ThrottlingException`, `ServiceUnavailableException`, `ModelNotReadyException`, …). A
 * `ValidationException` (400), `AccessDeniedException` (403), `ResourceNotFoundException` (404) and
 * `ModelErrorException` (424) are final.
 */
export function isRetryableBedrockStatus(status: number, info: ErrorBodyInfo): boolean {
  if (isRetryableStatus(status)) return true;
  return info.type !== undefined && TRANSIENT_TYPES.has(info.type.toLowerCase());
}

/**
 * The error of an exception message inside a 200 stream (`:message-type: exception`, type in
 * `:exception-type`, payload `{"message": …}`). A transient type (`throttlingException`,
 * `modelStreamErrorException`, `internalServerException`, `serviceUnavailableException`, …) becomes a
 * {@link StreamInterruptedError}, which the agent loop retries as a whole call (parts may already have been
 * delivered); others (`validationException`) a non-retryable {@link ModelCallError}. Both carry the message,
 * the type as `errorType` and the code (see {@link bedrockErrorInfo}).
 */
export function bedrockStreamError({
  type,
  message,
  url,
  body,
}: {
  type: string | undefined;
  message: string | undefined;
  url: string;
  body: string;
}): ModelCallError {
  const info = bedrockErrorInfo({ type, ...(message !== undefined && { message }) });
  const options = {
    message: `${url} reported ${type ?? "an error"} in the stream${info.message !== undefined ? `: ${info.message}` : ""}`,
    url,
    body,
    ...(info.code !== undefined && { code: info.code }),
    ...(info.type !== undefined && { errorType: info.type }),
  };
  if (type !== undefined && TRANSIENT_TYPES.has(type.toLowerCase()))
    return new StreamInterruptedError(options);
  return new ModelCallError({ ...options, isRetryable: false });
}
