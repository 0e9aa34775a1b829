import { AbortError } from "../errors/abort-error.js";
import { AgentloopError } from "../errors/agentloop-error.js";
import { isRetryableStatus, ModelCallError } from "../errors/model-call-error.js";
import { StreamInterruptedError } from "../errors/stream-interrupted-error.js";
import type { RetryInfo } from "../models/model.js";
import { type HttpClient, type HttpResponse, RequestTimeoutError } from "./http-client.js";
import { redactCredentials } from "./redact-credentials.js";
import { computeRetryDelay, parseRetryAfter, type RetryPolicy, sleep } from "./retry-policy.js";

/** What a provider knows about its error envelope. */
export interface ErrorBodyInfo {
  message?: string;
  code?: string;
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
  /** Extracts message and code from an error body (provider-specific envelope). */
  parseErrorBody: (body: string) => ErrorBodyInfo;
  /** Decides retryability of an error status; defaults to 408/409/429/5xx. */
  isRetryable?: (status: number, info: ErrorBodyInfo) => boolean;
}

/** An open streaming response: read `body`, then call `dispose()` (always, also on error). */
export interface OpenStream {
  response: HttpResponse;
  /** The body as text chunks; failures become {@link StreamInterruptedError} or {@link AbortError}. */
  body: AsyncIterable<string>;
  dispose(): void;
}

/**
 * One attempt's timeout state. The transport enforces the timeout until the response headers arrive; after
 * that a plain timer cancels the response (no AbortController per attempt: on Node 20 one costs about as much
 * as the rest of the request bookkeeping).
 */
interface Attempt {
  timer: NodeJS.Timeout | undefined;
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
      attempt.timer = setTimeout(() => {
        attempt.timedOut = true;
        response.cancel();
      }, timeoutMs);
    },
    dispose: () => clearTimeout(attempt.timer),
  };
  return attempt;
}

function toCallError(error: unknown, options: SendModelRequestOptions, attempt: Attempt): AgentloopError {
  const { signal, url, timeoutMs } = options;
  if (signal?.aborted) return AbortError.isInstance(error) ? error : new AbortError({ cause: signal.reason });
  if (attempt.timedOut || error instanceof RequestTimeoutError) {
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
  const text = redactCredentials({
    text: await response.text().catch(() => ""),
    headers: options.headers,
  });
  const info = options.parseErrorBody(text);
  const retryAfterMs = parseRetryAfter(response.header);
  return new ModelCallError({
    message: `${options.url} answered ${response.status}${info.message ? `: ${info.message}` : ""}`,
    status: response.status,
    body: text,
    isRetryable: (options.isRetryable ?? isRetryableStatus)(response.status, info),
    url: options.url,
    ...(info.code !== undefined && { code: info.code }),
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
): Promise<T> {
  const { client, url, headers, body, retry, signal, onRetry } = options;
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
      });
      attempt.watch(response);
      if (response.status >= 200 && response.status < 300) return await use(response, attempt);
      failure = await statusError(response, options);
      attempt.dispose();
    } catch (error) {
      attempt.dispose();
      failure = toCallError(error, options, attempt);
    }
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
  return withRetries(options, async (response, attempt) => {
    try {
      return await options.read(response);
    } finally {
      attempt.dispose();
    }
  });
}

/**
 * Opens a streaming model request with retries (until the headers of a 2xx response arrive). From then on
 * the caller owns the body: `timeoutMs` becomes an idle timeout between chunks, and a broken body raises
 * {@link StreamInterruptedError} (retryable by the agent loop, not here: parts may have been delivered).
 */
export function openModelStream(options: SendModelRequestOptions): Promise<OpenStream> {
  return withRetries(options, async (response, attempt) => {
    const body: AsyncIterable<string> = {
      async *[Symbol.asyncIterator]() {
        try {
          for await (const chunk of response.body) {
            attempt.timer?.refresh();
            yield chunk;
          }
          // A cancelled fetch body can end quietly instead of failing.
          if (attempt.timedOut) throw new Error("stalled");
        } catch (error) {
          const failure = toCallError(error, options, attempt);
          if (attempt.timedOut) {
            throw new StreamInterruptedError({
              message: `Model stream stalled: no data for ${options.timeoutMs} ms`,
              url: options.url,
            });
          }
          if (AbortError.isInstance(failure)) throw failure;
          throw new StreamInterruptedError({
            message: `Model stream broke off: ${failure.message}`,
            url: options.url,
            cause: error,
          });
        }
      },
    };
    return {
      response,
      body,
      dispose: () => {
        attempt.dispose();
        response.cancel();
      },
    };
  });
}
