import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { GoogleWireResponse } from "../google-wire-types.js";
import { encodeGoogleSse } from "./encode-google-sse.js";

/** One scripted answer of the {@link startGoogleMockServer} server. */
export interface GoogleMockReply {
  /** The answer: sent as JSON to `:generateContent`, as SSE chunks (see `encodeGoogleSse`) to streams. */
  response?: GoogleWireResponse;
  /** Recorded bodies to send as they are instead: `json` to `:generateContent`, `sse` to streams. */
  recorded?: { json?: string | Uint8Array; sse?: string | Uint8Array };
  /** An error status, answered with `errorBody` (default: an `INTERNAL` status envelope). */
  status?: number;
  errorBody?: string;
}

/** A request the mock server received. */
export interface GoogleMockRequest {
  method: string;
  /** The path with its query, e.g. `/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when it is not JSON). */
  body: Record<string, unknown> | undefined;
}

/** A running mock Gemini server. */
export interface GoogleMockServer {
  /** Base URL ending in `/v1beta`. */
  baseURL: string;
  /** Every request received, in order. */
  requests: GoogleMockRequest[];
  close(): Promise<void>;
}

const ROUTE = /^\/v1beta\/models\/[^/:?]+:(generateContent|streamGenerateContent)(\?alt=sse)?$/;

function answer(res: http.ServerResponse, reply: GoogleMockReply, stream: boolean): void {
  if (reply.status !== undefined && reply.status >= 300) {
    res.writeHead(reply.status, { "content-type": "application/json" });
    res.end(
      reply.errorBody ??
        JSON.stringify({ error: { code: reply.status, message: "Internal error", status: "INTERNAL" } }),
    );
    return;
  }
  const recorded = stream ? reply.recorded?.sse : reply.recorded?.json;
  const body =
    recorded ?? (stream ? encodeGoogleSse(reply.response ?? {}) : JSON.stringify(reply.response ?? {}));
  res.writeHead(200, { "content-type": stream ? "text/event-stream" : "application/json" });
  res.end(body);
}

/**
 * Starts a real `node:http` server on 127.0.0.1 that speaks the Gemini API: `POST
 * /v1beta/models/{model}:generateContent` answered with JSON and `:streamGenerateContent?alt=sse` with SSE, from
 * `script` (request n gets `script[n]`, the last entry once exhausted). Other paths get a 404 `NOT_FOUND`
 * status. Every request is recorded.
 */
export async function startGoogleMockServer(script: readonly GoogleMockReply[]): Promise<GoogleMockServer> {
  const requests: GoogleMockRequest[] = [];
  const sockets = new Set<Socket>();
  let next = 0;
  const server = http.createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      raw += chunk;
    });
    req.on("end", () => {
      let body: GoogleMockRequest["body"];
      try {
        body = JSON.parse(raw) as GoogleMockRequest["body"];
      } catch {
        body = undefined;
      }
      const path = req.url ?? "";
      requests.push({ method: req.method ?? "", path, headers: req.headers, body });
      const route = ROUTE.exec(path);
      if (req.method !== "POST" || route === null) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { code: 404, message: `Not found: ${path}`, status: "NOT_FOUND" } }));
        return;
      }
      const reply = script[Math.min(next, script.length - 1)] ?? {};
      next++;
      answer(res, reply, route[1] === "streamGenerateContent");
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1beta`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
