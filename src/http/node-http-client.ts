import type { IncomingMessage, RequestOptions } from "node:http";
import type { Agent as HttpsAgent } from "node:https";
import type { Socket } from "node:net";
import type { StringDecoder } from "node:string_decoder";
import { AbortError } from "../errors/abort-error.js";
import { RequestTimeoutError } from "../errors/request-timeout-error.js";
import { ResponseTooLargeError } from "../errors/response-too-large-error.js";
import { setDeadline } from "../util/deadline.js";
import { listenForAbort } from "../util/listen-for-abort.js";
import { findNodeBuiltin, nodeBuiltin } from "../util/node-builtin.js";
import { bodyLimitGuard } from "./body-limit-guard.js";
import type { HttpClient, HttpRequest, HttpResponse } from "./http-transport-types.js";

const FEATURE = "createNodeHttpClient";

/** How a request is sent: node:http's or node:https's `request` with its keep-alive agent. */
interface Transport {
  request: typeof import("node:http").request;
  agent: RequestOptions["agent"] | HttpsAgent;
}

/** How many distinct URLs keep their parsed request options (a model sends to one or two). */
const MAX_CACHED_TARGETS = 64;

let decoderClass: typeof StringDecoder | undefined;

/** Sockets that already carry {@link ignoreSocketError} (each pooled socket gets it once, not per request). */
const guardedSockets = new WeakSet<Socket>();

function ignoreSocketError(): void {
  // Reported through the request's own "error" event, or too late to matter (the response was complete).
}

/**
 * Gives a socket one permanent "error" listener for its whole life. Node's client removes its own listener
 * when a keep-alive response ends and the agent adds its listener only a tick later (see the TODO in Node's
 * `responseKeepAlive`); a `destroy(error)` in that gap (an abort racing the end of a response the caller
 * stopped reading) emits an "error" nobody listens to, and the process dies of an uncaught exception. With
 * this listener such a late error is dropped; every error during a request still reaches the request.
 */
function guardSocket(socket: Socket): void {
  if (guardedSockets.has(socket)) return;
  guardedSockets.add(socket);
  socket.on("error", ignoreSocketError);
}

const INCOMPLETE = "Connection closed before the response body was complete";

/** Wraps a node:http response as an {@link HttpResponse} that counts its bytes against the request's limit. */
function wrapResponse(res: IncomingMessage, request: HttpRequest): HttpResponse {
  const { signal } = request;
  const status = res.statusCode ?? 0;
  const guard = bodyLimitGuard({ request, status });
  const { tooLarge } = guard;
  const declared = Number(res.headers["content-length"]);
  /** A body the server declared too large fails before a byte of it is read. */
  const declaredTooLarge = guard.exceeds(declared);
  let received = 0;
  decoderClass ??= nodeBuiltin({ id: "node:string_decoder", feature: FEATURE }).StringDecoder;
  const decoder = new decoderClass(
    request.binary === true && status >= 200 && status < 300 ? "latin1" : "utf8",
  );
  /** Counts a chunk and decodes it; throws once the body is over its limit. */
  const accept = (chunk: Buffer): string => {
    received += chunk.length;
    if (guard.exceeds(received)) throw tooLarge(received);
    return decoder.write(chunk);
  };
  const body: AsyncIterable<string> = {
    async *[Symbol.asyncIterator]() {
      if (declaredTooLarge) {
        res.destroy();
        throw tooLarge(declared);
      }
      try {
        for await (const chunk of res) {
          const text = accept(chunk as Buffer);
          if (text !== "") yield text;
        }
      } catch (error) {
        if (ResponseTooLargeError.isInstance(error)) throw error;
        if (signal?.aborted) throw new AbortError({ cause: signal.reason });
        throw error;
      }
      if (!res.complete) throw new Error(INCOMPLETE);
      const tail = decoder.end();
      if (tail !== "") yield tail;
    },
  };
  // Event-based: a whole body without async-iterator promises per chunk (the non-streaming hot path).
  const text = () =>
    new Promise<string>((resolveText, rejectText) => {
      if (declaredTooLarge) {
        res.destroy();
        rejectText(tooLarge(declared));
        return;
      }
      let result = "";
      res.on("data", (chunk: Buffer) => {
        try {
          result += accept(chunk);
        } catch (error) {
          res.destroy();
          rejectText(error);
        }
      });
      res.on("end", () => {
        if (res.complete) resolveText(result + decoder.end());
        else rejectText(new Error(INCOMPLETE));
      });
      // Destroyed (cancelled, timed out, over the limit) before the end: no "end" event comes.
      res.on("close", () => {
        if (!res.complete) rejectText(new Error(INCOMPLETE));
      });
      res.on("error", (error) => {
        rejectText(signal?.aborted ? new AbortError({ cause: signal.reason }) : error);
      });
    });
  return {
    status: res.statusCode ?? 0,
    header: (name) => {
      const value = res.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(", ") : value;
    },
    body,
    text,
    cancel: () => {
      if (!res.complete) res.destroy();
      else res.resume();
    },
  };
}

/**
 * The default transport on Node: `node:http`/`node:https` with keep-alive agents. It costs about a third of
 * `fetch` (undici) per request on small agent turns (see docs/performance.md). Every socket keeps an "error"
 * listener for its whole life, so an abort or a cancel at any moment never becomes an uncaught exception.
 * Node's modules are read when the client is made (`process.getBuiltinModule`), not imported: where there is
 * no `node:http` this throws `UnsupportedRuntimeError`, and the default transport is `fetch`.
 */
export function createNodeHttpClient(): HttpClient {
  const http = nodeBuiltin({ id: "node:http", feature: FEATURE });
  const httpAgent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  // node:https (and TLS) is loaded on the first https request, not at import.
  let secureTransport: Transport | undefined;
  const loadSecure = (): Transport => {
    if (secureTransport === undefined) {
      const https = nodeBuiltin({ id: "node:https", feature: FEATURE });
      const agent = new https.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
      secureTransport = { request: https.request, agent };
    }
    return secureTransport;
  };
  // What node:http would derive from each URL (host, port, path, auth), parsed once per URL, not per request
  // (runtimes without `urlToHttpOptions` pass the URL itself, as before).
  const urlOptions = findNodeBuiltin("node:url")?.urlToHttpOptions;
  const targets = new Map<string, RequestOptions | URL>();
  const targetOf = (url: string): RequestOptions | URL => {
    let target = targets.get(url);
    if (target === undefined) {
      const parsed = new URL(url);
      target = typeof urlOptions === "function" ? (urlOptions(parsed) as RequestOptions) : parsed;
      if (targets.size >= MAX_CACHED_TARGETS) targets.clear();
      targets.set(url, target);
    }
    return target;
  };
  return (request) => {
    const secure = request.url.startsWith("https:");
    const transport = secure ? loadSecure() : { request: http.request, agent: httpAgent };
    return new Promise<HttpResponse>((resolve, reject) => {
      const { signal } = request;
      if (signal?.aborted) {
        reject(new AbortError({ cause: signal.reason }));
        return;
      }
      const target = targetOf(request.url);
      const payload = request.body === undefined ? undefined : Buffer.from(request.body);
      const headers: Record<string, string | number> =
        payload === undefined
          ? request.headers
          : Object.assign({}, request.headers, { "content-length": payload.length });
      const { method } = request;
      const req =
        target instanceof URL
          ? transport.request(target, { method, headers, agent: transport.agent })
          : transport.request({ ...target, method, headers, agent: transport.agent });
      req.on("socket", guardSocket);
      let settled = false;
      const fail = (error: Error) => {
        req.destroy(error);
        if (!settled) {
          settled = true;
          reject(error);
        }
      };
      const stopListening =
        signal === undefined
          ? undefined
          : listenForAbort({ signal, listener: () => fail(new AbortError({ cause: signal.reason })) });
      const { timeoutMs } = request;
      const timer =
        timeoutMs === undefined
          ? undefined
          : setDeadline({ ms: timeoutMs, onExpire: () => fail(new RequestTimeoutError({ timeoutMs })) });
      req.on("error", (error) => {
        timer?.cancel();
        stopListening?.();
        if (!settled) {
          settled = true;
          reject(error);
        }
      });
      req.on("response", (res) => {
        timer?.cancel();
        settled = true;
        if (stopListening !== undefined) res.on("close", stopListening);
        resolve(wrapResponse(res, request));
      });
      req.end(payload);
    });
  };
}
