import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { AbortError } from "../errors/abort-error.js";
import { sleep } from "../http/retry-policy.js";
import { buildErrorEnvelope, createMockChatAnswer } from "./mock-chat-answer.js";
import type { MockChatRequest, MockReply, MockScript } from "./mock-reply.js";
import { sendMockReply } from "./send-mock-reply.js";
import { validateChunkSize } from "./split-text.js";

/** One request the mock server received (any path, valid or not), recorded before it is answered. */
export interface RecordedRequest {
  method: string;
  /** The request target, query included (e.g. "/v1/chat/completions"). */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; `undefined` when the body is empty or not JSON. */
  body: unknown;
  /** The body as text. */
  rawBody: string;
}

/** Options of {@link startMockOpenAIServer}. */
export interface MockOpenAIServerOptions {
  /** The replies; without one, every request is answered "You said: <last user message>". */
  script?: MockScript;
  /** Port to listen on (on 127.0.0.1). Default 0: a free port. */
  port?: number;
  /** Words per streamed content delta. Default 3. */
  wordsPerEvent?: number;
}

/** A running mock OpenAI server (see {@link startMockOpenAIServer}). */
export interface MockOpenAIServer {
  /** The base URL to give a client, ending in `/v1` (e.g. "http://127.0.0.1:53122/v1"). */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order. `requests.length` counts them. */
  readonly requests: RecordedRequest[];
  /** Replaces the script (`undefined`: the echo reply) and starts it from its first reply. */
  setScript(script: MockScript | undefined): void;
  /**
   * Stops the server: destroys every open connection (idle keep-alive sockets, streams in progress, hanging
   * requests) and resolves once it is closed. Safe to call twice.
   */
  close(): Promise<void>;
}

/**
 * Starts a real HTTP server on 127.0.0.1 that speaks the OpenAI Chat Completions wire format
 * (`POST /v1/chat/completions`, JSON or SSE with `stream: true`) and answers from a script of
 * {@link MockReply}s, one per request, including injected faults (error statuses with retry headers,
 * dropped sockets, truncated or malformed streams, hangs, slow streams). Invalid requests (body not JSON,
 * no `model`, no `messages`) get a 400 OpenAI error envelope and do not consume a reply. `GET /v1/models`
 * lists one model; other paths get a 404 envelope.
 *
 * @example
 * const server = await startMockOpenAIServer({ script: [{ fault: { status: 429, retryAfter: "0" } }, { text: "Hi" }] });
 * const model = createOpenAI({ baseURL: server.url, apiKey: "test" })("gpt-4o-mini");
 * // ...
 * await server.close();
 */
export async function startMockOpenAIServer(
  options: MockOpenAIServerOptions = {},
): Promise<MockOpenAIServer> {
  const wordsPerEvent = options.wordsPerEvent ?? 3;
  validateChunkSize({ argument: "wordsPerEvent", value: wordsPerEvent });
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let script = options.script;
  let replyIndex = 0;

  const answer = async (
    request: IncomingMessage,
    res: ServerResponse,
    recorded: RecordedRequest,
  ): Promise<void> => {
    // Cancels waits (delayMs, slow_drip) when the client goes away or the server closes.
    const controller = new AbortController();
    res.once("close", () => controller.abort());
    const path = (request.url ?? "/").split("?")[0];
    if (request.method === "GET" && path === "/v1/models") {
      sendJson({
        res,
        status: 200,
        body: { object: "list", data: [{ id: "mock-model", object: "model", owned_by: "mock" }] },
      });
      return;
    }
    if (request.method !== "POST" || path !== "/v1/chat/completions") {
      sendError({ res, status: 404, message: `Unknown request URL: ${request.method} ${path}.` });
      return;
    }
    const parsed = checkChatRequest(recorded.body);
    if (typeof parsed === "string") {
      sendError({ res, status: 400, message: parsed });
      return;
    }
    const index = replyIndex++;
    let reply: MockReply;
    try {
      const current = script;
      if (current === undefined) reply = echoReply(parsed);
      else if (typeof current === "function") reply = await current(parsed, index);
      else {
        const next = current[index];
        if (next === undefined) {
          const message = `Mock OpenAI server: chat completion request #${index + 1} has no scripted reply (${current.length} scripted).`;
          sendError({ res, status: 400, message, type: "mock_script_exhausted" });
          return;
        }
        reply = next;
      }
    } catch (error) {
      const message = `Mock OpenAI server: the script threw: ${error instanceof Error ? error.message : String(error)}`;
      sendError({ res, status: 400, message, type: "mock_script_error" });
      return;
    }
    if (reply.delayMs !== undefined && reply.delayMs > 0) await sleep(reply.delayMs, controller.signal);
    await sendMockReply({
      res,
      reply,
      answer: createMockChatAnswer({
        reply,
        model: parsed.model,
        index,
        requestLength: recorded.rawBody.length,
      }),
      stream: parsed.stream === true,
      includeUsage: parsed.stream_options?.include_usage === true,
      wordsPerEvent,
      signal: controller.signal,
    });
  };

  const server = createServer((request, res) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8");
      const recorded: RecordedRequest = {
        method: request.method ?? "",
        path: request.url ?? "/",
        headers: request.headers,
        body: parseJson(rawBody),
        rawBody,
      };
      requests.push(recorded);
      answer(request, res, recorded).catch((error: unknown) => {
        if (AbortError.isInstance(error)) return; // the client went away or the server closed
        if (res.headersSent) {
          res.destroy();
          return;
        }
        sendError({ res, status: 500, message: `Mock OpenAI server failed: ${String(error)}` });
      });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    setScript(next) {
      script = next;
      replyIndex = 0;
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}

/** Checks a parsed chat completion body; returns the 400 message when it is invalid. */
function checkChatRequest(body: unknown): MockChatRequest | string {
  if (body === undefined) {
    return "We could not parse the JSON body of your request. The OpenAI API expects a JSON payload.";
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return "The request body must be a JSON object.";
  const fields = body as Record<string, unknown>;
  if (typeof fields.model !== "string" || fields.model === "") return "you must provide a model parameter";
  if (!Array.isArray(fields.messages) || fields.messages.length === 0) {
    return "Missing required parameter: 'messages' (a non-empty array).";
  }
  if (fields.stream !== undefined && typeof fields.stream !== "boolean") return "'stream' must be a boolean.";
  return fields as MockChatRequest;
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The reply without a script: echoes the last user message. */
function echoReply(body: MockChatRequest): MockReply {
  const lastUser = body.messages.findLast(
    (message): message is { role: "user"; content: unknown } =>
      typeof message === "object" && message !== null && (message as { role?: unknown }).role === "user",
  );
  return {
    text: lastUser === undefined ? "You said nothing." : `You said: ${contentText(lastUser.content)}`,
  };
}

/** The text of a message `content`: a string, or the `text` of its text parts. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) =>
      typeof part === "object" && part !== null && typeof (part as { text?: unknown }).text === "string"
        ? (part as { text: string }).text
        : "",
    )
    .join("");
}

function sendJson({ res, status, body }: { res: ServerResponse; status: number; body: unknown }): void {
  const text = JSON.stringify(body, null, 2);
  res
    .writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
    .end(text);
}

function sendError({
  res,
  status,
  message,
  type,
}: {
  res: ServerResponse;
  status: number;
  message: string;
  type?: string;
}): void {
  const envelope = buildErrorEnvelope({ status, message });
  if (type !== undefined) envelope.error.type = type;
  sendJson({ res, status, body: envelope });
}
