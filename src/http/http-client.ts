import http from "node:http";
import type { Agent as HttpsAgent } from "node:https";
import { AbortError } from "../errors/abort-error.js";

/** One HTTP request as the model layer sends it. */
export interface HttpRequest {
  url: string;
  method: "POST" | "GET";
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal | undefined;
  /** Rejects with {@link RequestTimeoutError} when the response headers have not arrived within this time. */
  timeoutMs?: number | undefined;
}

/** The response headers did not arrive within the request's `timeoutMs` (internal: providers map it). */
export class RequestTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no response within ${timeoutMs} ms`);
    this.name = "RequestTimeoutError";
  }
}

/** An HTTP response whose body is read as UTF-8 text chunks (multi-byte sequences never split). */
export interface HttpResponse {
  status: number;
  /** Header lookup, case-insensitive. */
  header(name: string): string | undefined;
  /** The body as text chunks. Iterate it once. */
  body: AsyncIterable<string>;
  /** Reads the whole body as text. */
  text(): Promise<string>;
  /** Stops reading and releases the connection. Safe to call twice. */
  cancel(): void;
}

/** Sends one request. Rejects on network failures (and with {@link AbortError} on abort). */
export type HttpClient = (request: HttpRequest) => Promise<HttpResponse>;

async function readAll(body: AsyncIterable<string>): Promise<string> {
  let text = "";
  for await (const chunk of body) text += chunk;
  return text;
}

/**
 * The default transport on Node: `node:http`/`node:https` with keep-alive agents. It costs about a third of
 * `fetch` (undici) per request on small agent turns (see docs/performance.md).
 */
export function createNodeHttpClient(): HttpClient {
  const httpAgent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  // node:https (and TLS) is loaded on the first https request, not at import.
  let secureTransport: Promise<{ request: typeof http.request; agent: HttpsAgent }> | undefined;
  const loadSecure = () => {
    secureTransport ??= import("node:https").then((https) => ({
      request: https.request,
      agent: new https.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY }),
    }));
    return secureTransport;
  };
  return async (request) => {
    const secure = request.url.startsWith("https:");
    const transport = secure ? await loadSecure() : { request: http.request, agent: httpAgent };
    return new Promise<HttpResponse>((resolve, reject) => {
      const { signal } = request;
      if (signal?.aborted) {
        reject(new AbortError({ cause: signal.reason }));
        return;
      }
      const url = new URL(request.url);
      const headers: Record<string, string | number> = { ...request.headers };
      const payload = request.body === undefined ? undefined : Buffer.from(request.body);
      if (payload !== undefined) headers["content-length"] = payload.length;
      const req = transport.request(url, { method: request.method, headers, agent: transport.agent });
      let settled = false;
      const fail = (error: Error) => {
        req.destroy(error);
        if (!settled) {
          settled = true;
          reject(error);
        }
      };
      const onAbort = () => fail(new AbortError({ cause: signal?.reason }));
      signal?.addEventListener("abort", onAbort, { once: true });
      const { timeoutMs } = request;
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(() => fail(new RequestTimeoutError(timeoutMs)), timeoutMs);
      req.on("error", (error) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        if (!settled) {
          settled = true;
          reject(error);
        }
      });
      req.on("response", (res) => {
        clearTimeout(timer);
        settled = true;
        res.setEncoding("utf8");
        res.on("close", () => signal?.removeEventListener("abort", onAbort));
        const body: AsyncIterable<string> = {
          async *[Symbol.asyncIterator]() {
            try {
              for await (const chunk of res) yield chunk as string;
            } catch (error) {
              if (signal?.aborted) throw new AbortError({ cause: signal.reason });
              throw error;
            }
            // `aborted` is set when the connection closed before the body was complete.
            if (!res.complete) throw new Error("Connection closed before the response body was complete");
          },
        };
        resolve({
          status: res.statusCode ?? 0,
          header: (name) => {
            const value = res.headers[name.toLowerCase()];
            return Array.isArray(value) ? value.join(", ") : value;
          },
          body,
          // Event-based: a whole body without async-iterator promises per chunk (the non-streaming hot path).
          text: () =>
            new Promise<string>((resolveText, rejectText) => {
              let text = "";
              res.on("data", (chunk: string) => {
                text += chunk;
              });
              const incomplete = () =>
                rejectText(new Error("Connection closed before the response body was complete"));
              res.on("end", () => {
                if (res.complete) resolveText(text);
                else incomplete();
              });
              // Destroyed (cancelled, timed out) before the end: no "end" event comes.
              res.on("close", () => {
                if (!res.complete) incomplete();
              });
              res.on("error", (error) => {
                rejectText(signal?.aborted ? new AbortError({ cause: signal.reason }) : error);
              });
            }),
          cancel: () => {
            if (!res.complete) res.destroy();
            else res.resume();
          },
        });
      });
      req.end(payload);
    });
  };
}

/** A transport over a user-supplied `fetch` (for custom agents, proxies, or non-Node runtimes). */
export function createFetchHttpClient(fetchImpl: typeof globalThis.fetch): HttpClient {
  return async (request) => {
    let response: Response;
    // fetch has no headers-only timeout: a controller aborts it when the timer fires first.
    const { timeoutMs } = request;
    const timeout = timeoutMs === undefined ? undefined : new AbortController();
    const timer =
      timeout === undefined
        ? undefined
        : setTimeout(() => timeout.abort(new RequestTimeoutError(timeoutMs ?? 0)), timeoutMs);
    try {
      const init: RequestInit = { method: request.method, headers: request.headers };
      if (request.body !== undefined) init.body = request.body;
      const signals = [request.signal, timeout?.signal].filter((s): s is AbortSignal => s !== undefined);
      if (signals.length > 0) init.signal = signals.length === 1 ? signals[0] : AbortSignal.any(signals);
      response = await fetchImpl(request.url, init);
    } catch (error) {
      if (request.signal?.aborted) throw new AbortError({ cause: request.signal.reason });
      if (timeout?.signal.aborted) throw timeout.signal.reason;
      throw error;
    } finally {
      clearTimeout(timer);
    }
    const stream = response.body;
    let activeReader: ReadableStreamDefaultReader<string> | undefined;
    const body: AsyncIterable<string> = {
      async *[Symbol.asyncIterator]() {
        if (stream === null) return;
        const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
        activeReader = reader;
        let finished = false;
        try {
          while (true) {
            const { done, value } = await reader.read();
            if (done) {
              finished = true;
              return;
            }
            yield value;
          }
        } catch (error) {
          finished = true;
          if (request.signal?.aborted) throw new AbortError({ cause: request.signal.reason });
          throw error;
        } finally {
          // Stopped early: cancel through the pipe so the connection is released (`stream` itself is locked by
          // pipeThrough, so `cancel()` below cannot reach it once reading started).
          if (!finished) reader.cancel().catch(() => undefined);
          activeReader = undefined;
          reader.releaseLock();
        }
      },
    };
    return {
      status: response.status,
      header: (name) => response.headers.get(name) ?? undefined,
      body,
      text: () => readAll(body),
      cancel: () => {
        // While a read is pending the body is locked by the pipe: cancel through the reader.
        (activeReader ?? stream)?.cancel().catch(() => undefined);
      },
    };
  };
}

let defaultClient: HttpClient | undefined;

/** The shared default client (created on first use, so importing costs nothing). */
export function getDefaultHttpClient(): HttpClient {
  defaultClient ??= createNodeHttpClient();
  return defaultClient;
}
