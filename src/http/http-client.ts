import http from "node:http";
import https from "node:https";
import { AbortError } from "../errors/abort-error.js";

/** One HTTP request as the model layer sends it. */
export interface HttpRequest {
  url: string;
  method: "POST" | "GET";
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
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
  const agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY }),
    https: new https.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY }),
  };
  return (request) =>
    new Promise<HttpResponse>((resolve, reject) => {
      const { signal } = request;
      if (signal?.aborted) {
        reject(new AbortError({ cause: signal.reason }));
        return;
      }
      const url = new URL(request.url);
      const secure = url.protocol === "https:";
      const headers: Record<string, string | number> = { ...request.headers };
      const payload = request.body === undefined ? undefined : Buffer.from(request.body);
      if (payload !== undefined) headers["content-length"] = payload.length;
      const req = (secure ? https : http).request(url, {
        method: request.method,
        headers,
        agent: secure ? agents.https : agents.http,
      });
      let settled = false;
      const onAbort = () => {
        const error = new AbortError({ cause: signal?.reason });
        req.destroy(error);
        if (!settled) {
          settled = true;
          reject(error);
        }
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      req.on("error", (error) => {
        signal?.removeEventListener("abort", onAbort);
        if (!settled) {
          settled = true;
          reject(error);
        }
      });
      req.on("response", (res) => {
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
          text: () => readAll(body),
          cancel: () => {
            if (!res.complete) res.destroy();
            else res.resume();
          },
        });
      });
      req.end(payload);
    });
}

/** A transport over a user-supplied `fetch` (for custom agents, proxies, or non-Node runtimes). */
export function createFetchHttpClient(fetchImpl: typeof globalThis.fetch): HttpClient {
  return async (request) => {
    let response: Response;
    try {
      const init: RequestInit = { method: request.method, headers: request.headers };
      if (request.body !== undefined) init.body = request.body;
      if (request.signal !== undefined) init.signal = request.signal;
      response = await fetchImpl(request.url, init);
    } catch (error) {
      if (request.signal?.aborted) throw new AbortError({ cause: request.signal.reason });
      throw error;
    }
    const stream = response.body;
    const body: AsyncIterable<string> = {
      async *[Symbol.asyncIterator]() {
        if (stream === null) return;
        const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
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
        stream?.cancel().catch(() => undefined);
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
