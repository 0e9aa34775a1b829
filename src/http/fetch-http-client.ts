import { AbortError } from "../errors/abort-error.js";
import { RequestTimeoutError } from "../errors/request-timeout-error.js";
import { ResponseTooLargeError } from "../errors/response-too-large-error.js";
import { base64 } from "../util/base64.js";
import { bodyLimitGuard } from "./body-limit-guard.js";
import type { HttpClient, HttpRequest, HttpResponse } from "./http-transport-types.js";

const ignore = (): void => undefined;

/** Bytes as a "binary string", one character per byte (see `HttpRequest.binary`). */
function binaryString(bytes: Uint8Array): string {
  let text = "";
  for (let at = 0; at < bytes.length; at += 8192) {
    text += String.fromCharCode(...bytes.subarray(at, at + 8192));
  }
  return text;
}

/** What one read of a body reader gives. */
type ReadResult = { done: true; value?: undefined } | { done: false; value: Uint8Array };

/**
 * Settles with `promise`, or rejects with {@link AbortError} as soon as `signal` aborts, whichever comes
 * first: a `fetch` that ignores its signal must not leave the caller waiting. A value that arrives after the
 * abort is handed to `late` (to release it).
 */
function untilAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  late: (value: T) => void,
): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    let aborted = false;
    const onAbort = () => {
      aborted = true;
      reject(new AbortError({ cause: signal.reason }));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        if (aborted) late(value);
        else resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Wraps a fetch `Response` as an {@link HttpResponse}. The body is read from the response's own reader
 * (decoded here, bytes counted against the request's limit). Every pending read settles when the request's
 * signal aborts or `cancel()` is called, whatever the `fetch` implementation does with its body.
 */
function wrapResponse(response: Response, request: HttpRequest): HttpResponse {
  const { signal } = request;
  const status = response.status;
  const guard = bodyLimitGuard({ request, status });
  const stream = response.body;
  const { tooLarge } = guard;
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  const binary = request.binary === true && status >= 200 && status < 300;
  /** Ends the body being read (its pending read settles at once); set while the body is read. */
  let stopReading: (() => void) | undefined;
  let cancelled = false;
  const body: AsyncIterable<string> = {
    async *[Symbol.asyncIterator]() {
      if (stream === null || cancelled) return;
      if (guard.exceeds(declared)) {
        stream.cancel().catch(ignore);
        throw tooLarge(declared);
      }
      const reader = stream.getReader();
      const decoder = new TextDecoder();
      let stopped = false;
      const stoppedRead = new Promise<ReadResult>((resolve) => {
        stopReading = () => {
          stopped = true;
          resolve({ done: true, value: undefined });
          reader.cancel().catch(ignore);
        };
      });
      const stop = stopReading;
      signal?.addEventListener("abort", stop as () => void, { once: true });
      let received = 0;
      let finished = false;
      try {
        while (true) {
          const result: ReadResult = await Promise.race([reader.read() as Promise<ReadResult>, stoppedRead]);
          if (stopped) {
            finished = true;
            if (signal?.aborted) throw new AbortError({ cause: signal.reason });
            return; // cancelled: the body ends here
          }
          if (result.done) {
            finished = true;
            const tail = decoder.decode();
            if (tail !== "") yield tail;
            return;
          }
          received += result.value.byteLength;
          if (guard.exceeds(received)) throw tooLarge(received);
          const text = binary ? binaryString(result.value) : decoder.decode(result.value, { stream: true });
          if (text !== "") yield text;
        }
      } catch (error) {
        if (!finished && !ResponseTooLargeError.isInstance(error) && signal?.aborted) {
          finished = true;
          throw new AbortError({ cause: signal.reason });
        }
        throw error;
      } finally {
        signal?.removeEventListener("abort", stop as () => void);
        stopReading = undefined;
        // Stopped early (the caller broke off, or the limit): cancel, so the connection is released.
        if (!finished) reader.cancel().catch(ignore);
        try {
          reader.releaseLock();
        } catch {
          // An implementation that refuses to release with a read pending: the cancel above released it.
        }
      }
    },
  };
  return {
    status: response.status,
    header: (name) => response.headers.get(name) ?? undefined,
    body,
    text: async () => {
      let text = "";
      for await (const chunk of body) text += chunk;
      return text;
    },
    cancel: () => {
      cancelled = true;
      if (stopReading !== undefined) stopReading();
      else if (stream !== null && !stream.locked) stream.cancel().catch(ignore);
    },
  };
}

/**
 * The URL and headers to hand to `fetch`: `fetch` refuses a URL with `user:password@`, so the credentials move
 * to an `Authorization: Basic` header (unless the request has one), as node:http does.
 */
function withoutUserinfo(request: HttpRequest): { url: string; headers: Record<string, string> } {
  const { url, headers } = request;
  if (!url.includes("@")) return { url, headers };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url, headers };
  }
  if (parsed.username === "" && parsed.password === "") return { url, headers };
  const credentials = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
  parsed.username = "";
  parsed.password = "";
  const hasAuthorization = Object.keys(headers).some((name) => name.toLowerCase() === "authorization");
  return {
    url: parsed.toString(),
    headers: hasAuthorization ? headers : { ...headers, authorization: `Basic ${base64(credentials)}` },
  };
}

/**
 * A transport over a user-supplied `fetch` (for custom agents, proxies, or non-Node runtimes). Waits for the
 * response and reads its body only as long as the request's signal allows, even with a `fetch` that ignores
 * its signal.
 */
export function createFetchHttpClient(fetchImpl: typeof globalThis.fetch): HttpClient {
  return async (request) => {
    let response: Response;
    // fetch has no headers-only timeout: a controller aborts it when the timer fires first.
    const { timeoutMs } = request;
    const timeout = timeoutMs === undefined ? undefined : new AbortController();
    const timer =
      timeout === undefined
        ? undefined
        : setTimeout(() => timeout.abort(new RequestTimeoutError({ timeoutMs: timeoutMs ?? 0 })), timeoutMs);
    try {
      const target = withoutUserinfo(request);
      const init: RequestInit = { method: request.method, headers: target.headers };
      if (request.body !== undefined) init.body = request.body;
      const signals = [request.signal, timeout?.signal].filter((s): s is AbortSignal => s !== undefined);
      if (signals.length > 0) init.signal = signals.length === 1 ? signals[0] : AbortSignal.any(signals);
      response = await untilAborted(fetchImpl(target.url, init), init.signal ?? undefined, (late) => {
        late.body?.cancel().catch(ignore);
      });
    } catch (error) {
      if (request.signal?.aborted) throw new AbortError({ cause: request.signal.reason });
      if (timeout?.signal.aborted) throw timeout.signal.reason;
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return wrapResponse(response, request);
  };
}
