import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { AnthropicWireResponse } from "../anthropic-wire-types.js";
import { encodeAnthropicSse } from "./encode-anthropic-sse.js";

/** One scripted answer of the {@link startAnthropicMockServer} server. */
export interface AnthropicMockReply {
  /** The answer: sent as JSON, or as an SSE stream when the request has `stream: true`. */
  message?: AnthropicWireResponse;
  /** An error status, answered with `errorBody` (default: an `api_error` envelope). */
  status?: number;
  errorBody?: string;
  /** Streaming only: after this many events, an `error` event of this type replaces the rest. */
  streamError?: { afterEvents: number; type: string; message: string };
  /** With `status`: the `retry-after` header (seconds). */
  retryAfter?: string;
  /**
   * A broken answer: `drop_before_headers` destroys the socket unanswered; `hang` never answers; streaming
   * only: `drop-after-events` sends that many SSE events then destroys the socket, `end-after-events` sends
   * them and ends the response cleanly (no `message_stop`), `malformed-after-events` sends them, then a data
   * line that is not JSON.
   */
  fault?:
    | { type: "drop_before_headers" }
    | { type: "hang" }
    | { type: "drop-after-events" | "end-after-events" | "malformed-after-events"; afterEvents: number };
}

/** A request the mock server received. */
export interface AnthropicMockRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when it is not JSON). */
  body: { stream?: boolean; messages?: unknown[]; system?: unknown; [key: string]: unknown } | undefined;
}

/** A running mock Anthropic server. */
export interface AnthropicMockServer {
  /** Base URL ending in `/v1`. */
  baseURL: string;
  /** Every request received, in order. */
  requests: AnthropicMockRequest[];
  close(): Promise<void>;
}

const envelope = (type: string, message: string) =>
  JSON.stringify({ type: "error", error: { type, message }, request_id: "req_mock" });

function answer(res: http.ServerResponse, reply: AnthropicMockReply, stream: boolean): void {
  const { fault } = reply;
  if (fault?.type === "hang") return;
  if (fault?.type === "drop_before_headers") {
    res.destroy();
    return;
  }
  if (reply.status !== undefined && reply.status >= 300) {
    const headers: http.OutgoingHttpHeaders = { "content-type": "application/json" };
    if (reply.retryAfter !== undefined) headers["retry-after"] = reply.retryAfter;
    res.writeHead(reply.status, headers);
    res.end(reply.errorBody ?? envelope("api_error", "Internal server error"));
    return;
  }
  const message = reply.message ?? { content: [{ type: "text", text: "" }], stop_reason: "end_turn" };
  if (!stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ type: "message", role: "assistant", ...message }));
    return;
  }
  const { streamError } = reply;
  const body = encodeAnthropicSse({
    message,
    chunkChars: 5,
    ...(streamError !== undefined && {
      errorAfterEvents: {
        count: streamError.afterEvents,
        error: { type: streamError.type, message: streamError.message },
      },
    }),
  });
  res.writeHead(200, { "content-type": "text/event-stream" });
  if (fault === undefined) {
    res.end(body);
    return;
  }
  const head = body.split("\n\n").slice(0, fault.afterEvents).join("\n\n");
  if (fault.type === "drop-after-events") {
    res.write(`${head}\n\n`, () => res.destroy()); // once the events are out, so they arrive before the drop
    return;
  }
  res.write(`${head}\n\n`);
  if (fault.type === "end-after-events") res.end();
  else res.end("event: content_block_delta\ndata: {not json\n\n");
}

/**
 * Starts a real `node:http` server on 127.0.0.1 that speaks the Messages wire format: `POST /v1/messages`
 * answered from `script` (request n gets `script[n]`, the last entry once exhausted) as JSON, or as SSE when
 * the request body says `stream: true`. Other paths get a 404 envelope. Every request is recorded.
 */
export async function startAnthropicMockServer(
  script: readonly AnthropicMockReply[],
): Promise<AnthropicMockServer> {
  const requests: AnthropicMockRequest[] = [];
  const sockets = new Set<Socket>();
  let next = 0;
  const server = http.createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      raw += chunk;
    });
    req.on("end", () => {
      let body: AnthropicMockRequest["body"];
      try {
        body = JSON.parse(raw) as AnthropicMockRequest["body"];
      } catch {
        body = undefined;
      }
      const path = req.url ?? "";
      requests.push({ path, headers: req.headers, body });
      if (req.method !== "POST" || path.split("?")[0] !== "/v1/messages") {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(envelope("not_found_error", `Not found: ${path}`));
        return;
      }
      const reply = script[Math.min(next, script.length - 1)] ?? {};
      next++;
      answer(res, reply, body?.stream === true);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
