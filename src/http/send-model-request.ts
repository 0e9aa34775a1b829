import { AbortError } from "../errors/abort-error.js";
import { AgentloopError } from "../errors/agentloop-error.js";
import { isRetryableStatus, ModelCallError } from "../errors/model-call-error.js";
import { RequestTimeoutError } from "../errors/request-timeout-error.js";
import { StreamInterruptedError } from "../errors/stream-interrupted-error.js";
import type { RetryInfo } from "../models/model.js";
import { type Deadline, setDeadline } from "../util/deadline.js";
import { displayUrl } from "./display-url.js";
import type { HttpClient, HttpResponse } from "./http-client.js";
import { redactCallError, redactCredentials } from "./redact-credentials.js";
import { DEFAULT_RESPONSE_LIMITS, type ResponseLimits } from "./response-limits.js";
import { computeRetryDelay, parseRetryAfter, type RetryPolicy, sleep } from "./retry-policy.js";
import { startStreamWatchdog } from "./stream-watchdog.js";

/** What a provider knows about its error envelope. */
export interface ErrorBodyInfo {
  message?: string;
  /** The error's code: the envelope's string `code`, else its `type` (e.g. `context_length_exceeded`). */
  code?: string;
  /** The envelope's `type`, as sent (e.g. `invalid_request_error`, `exceed_context_size_error`). */
  type?: string;
  /** The envelope's `code`, as sent (a string, or a number such as llama.cpp's `400`). */
  rawCode?: string | number;
  /**
   * A wait the body asks for (Google's `RetryInfo.retryDelay`), in ms. A `retry-after-ms` / `Retry-After` header
   * wins over it.
   */
  retryAfterMs?: number;
}

/** Options of {@link sendModelRequest} and {@link openModelStream}. */
export interface SendModelRequestOptions {
  client: HttpClient;
  url: string;
  headers: Record<string, string>;
  body: string;
  retry: RetryPolicy;
  /**
   * Per-attempt timeout. Non-streaming: until the whole body is read. Streaming: until the headers arrive,
   * then the longest allowed gap between two body chunks.
   */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  onRetry?: ((info: RetryInfo) => void) | undefined;
  /**
   * Extracts message and code from an error body (provider-specific envelope); `header` reads the error
   * response's headers (Bedrock sends the error type in `x-amzn-errortype`).
   */
  parseErrorBody: (body: string, header: (name: string) => string | undefined) => ErrorBodyInfo;
  /** Decides retryability of an error status; defaults to 408/409/429/5xx. */
  isRetryable?: (status: number, info: ErrorBodyInfo) => boolean;
  /** Bounds on what the server may send (see {@link ResponseLimits}). Default {@link DEFAULT_RESPONSE_LIMITS}. */
  limits?: ResponseLimits | undefined;
  /** Read a 2xx body as bytes (binary strings, see `HttpRequest.binary`), for binary stream framings. */
  binary?: boolean | undefined;
}

/** An open streaming response: read `body`, then call `dispose()` (always, also on error). */
export interface OpenStream {
  response: HttpResponse;
  /**
   * The body as text chunks; failures become {@link StreamInterruptedError} (a stall, a broken connection),
   * {@link AbortError}, a non-retryable `ModelCallError` (the stream outlasted `limits.maxStreamDurationMs`)
   * or `ResponseTooLargeError`.
   */
  body: AsyncIterable<string>;
  /**
   * Reports real progress (a content, tool or usage part was read): only this resets the idle timeout, so
   * keep-alive comments and `ping` events cannot hold a stalled stream open.
   */
  progress(): void;
  /** The error to throw for a failure while reading: credentials removed (see `redactCallError`). */
  fail(error: unknown): unknown;
  dispose(): void;
}

/** The URL as messages print it (no credentials). */
function shownUrl(options: SendModelRequestOptions): string {
  return displayUrl(options.url);
}

/** Removes the request's credentials from an error (see `redactCallError`). */
function clean<T>(error: T, options: SendModelRequestOptions): T {
  return redactCallError(error, { headers: options.headers, url: options.url });
}

/**
 * One attempt's timeout state. The transport enforces the timeout until the response headers arrive; after
 * that a plain timer cancels the response (no AbortController per attempt: on Node 20 one costs about as much
 * as the rest of the request bookkeeping).
 */
interface Attempt {
  timer: Deadline | undefined;
  timedOut: boolean;
  /** Starts the body-phase timer: when it fires, the response is cancelled and the attempt counts as timed out. */
  watch(response: HttpResponse): void;
  dispose(): void;
}

function startAttempt(timeoutMs: number): Attempt {
  const attempt: Attempt = {
    timer: undefined,
    timedOut: false,
    watch: (response) => {
      attempt.timer = setDeadline({
        ms: timeoutMs,
        onExpire: () => {
          attempt.timedOut = true;
          response.cancel();
        },
      });
    },
    dispose: () => attempt.timer?.cancel(),
  };
  return attempt;
}

function toCallError(error: unknown, options: SendModelRequestOptions, attempt: Attempt): AgentloopError {
  const { signal, timeoutMs } = options;
  const url = shownUrl(options);
  if (signal?.aborted) return AbortError.isInstance(error) ? error : new AbortError({ cause: signal.reason });
  if (attempt.timedOut || RequestTimeoutError.isInstance(error)) {
    return new ModelCallError({
      message: `Model request timed out after ${timeoutMs} ms`,
      isRetryable: true,
      url,
    });
  }
  if (AgentloopError.isInstance(error)) return error;
  const raw = error instanceof Error ? error.message : String(error);
  // node:http says only "aborted" when the server closes the connection before the body is complete.
  const message =
    raw === "aborted" ? "the connection closed before the response was complete (aborted)" : raw;
  return new ModelCallError({
    message: `Network error calling ${url}: ${message}`,
    isRetryable: true,
    url,
    cause: error,
  });
}

async function statusError(
  response: HttpResponse,
  options: SendModelRequestOptions,
): Promise<ModelCallError> {
  // An error body may echo the request's key ("Incorrect API key provided: sk-..."): remove it before the body
  // becomes the error's message and `body` (which reach events, traces and logs).
  // An error body over `limits.maxResponseBytes` fails the call with ResponseTooLargeError (not retried).
  const raw = await response.text().catch((error: unknown) => {
    if (ModelCallError.isInstance(error)) throw error;
    return "";
  });
  const text = redactCredentials({ text: raw, headers: options.headers, url: options.url });
  const info = options.parseErrorBody(text, response.header);
  const retryAfterMs = parseRetryAfter(response.header) ?? info.retryAfterMs;
  const url = shownUrl(options);
  return new ModelCallError({
    message: `${url} answered ${response.status}${info.message ? `: ${info.message}` : ""}`,
    status: response.status,
    body: text,
    isRetryable: (options.isRetryable ?? isRetryableStatus)(response.status, info),
    url,
    ...(info.code !== undefined && { code: info.code }),
    ...(info.type !== undefined && { errorType: info.type }),
    ...(info.rawCode !== undefined && { errorCode: info.rawCode }),
    ...(retryAfterMs !== undefined && { retryAfterMs }),
  });
}

/**
 * The retry loop shared by both modes: `use` runs once per attempt with a 2xx response; a retryable failure
 * (network, timeout, 408/409/429/5xx) is retried with backoff (honouring Retry-After) and reported through
 * `onRetry`; an abort stops at once, also during a backoff wait.
 */
async function withRetries<T>(
  options: SendModelRequestOptions,
  use: (response: HttpResponse, attempt: Attempt) => Promise<T>,
  stream: boolean,
): Promise<T> {
  const { client, url, headers, body, retry, signal, onRetry } = options;
  const limits = options.limits ?? DEFAULT_RESPONSE_LIMITS;
  const bodyLimit = stream
    ? { maxBytes: limits.maxStreamBytes, option: "limits.maxStreamBytes" }
    : { maxBytes: limits.maxResponseBytes, option: "limits.maxResponseBytes" };
  const errorBodyLimit = { maxBytes: limits.maxResponseBytes, option: "limits.maxResponseBytes" };
  const shown = shownUrl(options);
  for (let n = 0; ; n++) {
    const attempt = startAttempt(options.timeoutMs);
    let failure: AgentloopError;
    try {
      const response = await client({
        url,
        method: "POST",
        headers,
        body,
        signal,
        timeoutMs: options.timeoutMs,
        bodyLimit,
        errorBodyLimit,
        displayUrl: shown,
        ...(options.binary === true && { binary: true }),
      });
      attempt.watch(response);
      if (response.status >= 200 && response.status < 300) return await use(response, attempt);
      failure = await statusError(response, options);
      attempt.dispose();
    } catch (error) {
      attempt.dispose();
      failure = toCallError(error, options, attempt);
    }
    failure = clean(failure, options);
    if (!ModelCallError.isInstance(failure) || !failure.isRetryable || n >= retry.maxRetries) throw failure;
    const delayMs = computeRetryDelay({ policy: retry, attempt: n + 1, retryAfterMs: failure.retryAfterMs });
    try {
      onRetry?.({ attempt: n + 1, delayMs, error: failure });
    } catch {
      // onRetry may not throw; a throwing observer must not change the retry behaviour.
    }
    await sleep(delayMs, signal);
  }
}

/**
 * Sends a non-streaming model request with retries and returns what `read` made of the 2xx response. Body
 * read failures are retried like request failures (nothing was delivered yet).
 */
export function sendModelRequest<T>(
  options: SendModelRequestOptions & { read: (response: HttpResponse) => Promise<T> },
): Promise<T> {
  return withRetries(
    options,
    async (response, attempt) => {
      try {
        return await options.read(response);
      } finally {
        attempt.dispose();
      }
    },
    false,
  );
}

/**
 * Opens a streaming model request with retries (until the headers of a 2xx response arrive). From then on
 * the caller owns the body: `timeoutMs` becomes the longest allowed time without progress (reported with
 * `progress()`; bytes alone, such as keep-alive comments, do not count) and `limits.maxStreamDurationMs`
 * bounds the whole stream. A broken body raises {@link StreamInterruptedError} (retryable by the agent loop,
 * not here: parts may have been delivered); a limit raises a non-retryable error.
 */
export function openModelStream(options: SendModelRequestOptions): Promise<OpenStream> {
  const limits = options.limits ?? DEFAULT_RESPONSE_LIMITS;
  return withRetries(
    options,
    async (response, attempt) => {
      attempt.dispose();
      const watchdog = startStreamWatchdog({
        idleMs: options.timeoutMs,
        maxDurationMs: limits.maxStreamDurationMs,
        onExpire: () => response.cancel(),
      });
      const url = shownUrl(options);
      const expired = (): ModelCallError | undefined => {
        if (watchdog.overran) {
          return new ModelCallError({
            message:
              `Model stream from ${url} was stopped after limits.maxStreamDurationMs = ` +
              `${limits.maxStreamDurationMs} ms (it was still sending)`,
            isRetryable: false,
            code: "stream_duration_exceeded",
            url,
          });
        }
        if (watchdog.stalled) {
          return new StreamInterruptedError({
            message: `Model stream stalled: no progress for ${options.timeoutMs} ms`,
            url,
          });
        }
        return undefined;
      };
      const body: AsyncIterable<string> = {
        async *[Symbol.asyncIterator]() {
          try {
            yield* response.body;
          } catch (error) {
            const timedOut = expired();
            if (timedOut !== undefined) throw timedOut;
            const failure = toCallError(error, options, attempt);
            // Final errors (a limit) pass as they are; only a broken connection is an interruption.
            if (AbortError.isInstance(failure)) throw failure;
            if (ModelCallError.isInstance(failure) && !failure.isRetryable) throw failure;
            throw new StreamInterruptedError({
              message: `Model stream broke off: ${failure.message}`,
              url,
              cause: error,
            });
          }
          // A cancelled body can end quietly instead of failing.
          const timedOut = expired();
          if (timedOut !== undefined) throw timedOut;
        },
      };
      return {
        response,
        body,
        progress: () => watchdog.progress(),
        fail: (error: unknown) => {
          // A reader that saw the body end early after a stall reports a truncated stream: say why.
          const timedOut = AbortError.isInstance(error) ? undefined : expired();
          return clean(timedOut ?? error, options);
        },
        dispose: () => {
          watchdog.dispose();
          response.cancel();
        },
      };
    },
    true,
  );
}
