import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { DEFAULT_HEARTBEAT_MS, SSE_PING } from "./sse-format.js";
import {
  type ToUIMessageStreamOptions,
  toUIMessageStream,
  type UIMessageStreamSource,
} from "./ui-message-stream.js";
import type { UIMessageChunk } from "./ui-message-types.js";

/**
 * The headers of a UI message stream response: SSE, never cached or buffered by a proxy, and the protocol's
 * version header (`x-vercel-ai-ui-message-stream: v1`) the AI SDK client expects.
 */
export const UI_MESSAGE_STREAM_RESPONSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
  "x-vercel-ai-ui-message-stream": "v1",
});

/** Options of {@link toUIMessageStreamResponse}: the stream's, and the response's. */
export interface ToUIMessageStreamResponseOptions extends ToUIMessageStreamOptions {
  /** The status (default 200). */
  status?: number;
  /** More headers (they may not replace the protocol's). */
  headers?: Record<string, string>;
  /** A `: ping` comment after this many ms without a chunk (default 15 000; 0 turns it off). */
  heartbeatMs?: number;
}

/**
 * A run as a Web `Response` in the Vercel AI SDK UI message stream protocol, for `useChat` (any fetch-style
 * server: Next.js route handlers, Hono, Bun, Deno, edge runtimes): each chunk is an SSE message
 * `data: <JSON>\n\n`, the stream ends with `data: [DONE]\n\n`, with the protocol's headers. When the client goes
 * (the body is cancelled), the run is aborted. See {@link toUIMessageStream} for what is sent.
 *
 * @example
 * export async function POST(request: Request) {
 *   const { messages } = await request.json();
 *   // ... pick the input, then:
 *   return toUIMessageStreamResponse(agent.stream(input, { signal: request.signal }));
 * }
 */
export function toUIMessageStreamResponse(
  stream: UIMessageStreamSource,
  options: ToUIMessageStreamResponseOptions = {},
): Response {
  return uiChunkStreamResponse(toUIMessageStream(stream, options), options);
}

/** A stream of UI message chunks as an SSE `Response` (see {@link toUIMessageStreamResponse}). */
export function uiChunkStreamResponse(
  chunks: ReadableStream<UIMessageChunk>,
  options: Pick<ToUIMessageStreamResponseOptions, "status" | "headers" | "heartbeatMs"> = {},
): Response {
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  if (!Number.isFinite(heartbeatMs) || heartbeatMs < 0 || heartbeatMs > 2_147_483_647) {
    throw new InvalidArgumentError({
      argument: "heartbeatMs",
      message: `expected 0 or more ms, got ${heartbeatMs}`,
    });
  }
  const headers = new Headers(options.headers);
  for (const [name, value] of Object.entries(UI_MESSAGE_STREAM_RESPONSE_HEADERS)) headers.set(name, value);
  return new Response(sseBody(chunks, heartbeatMs), { status: options.status ?? 200, headers });
}

/** The SSE bytes of the chunks: `data: <JSON>` per chunk, pings while idle, `data: [DONE]` at the end. */
function sseBody(chunks: ReadableStream<UIMessageChunk>, heartbeatMs: number): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const reader = chunks.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const stopPings = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (heartbeatMs > 0) {
        stopPings();
        const ping = () => {
          if (closed) return;
          controller.enqueue(encoder.encode(SSE_PING));
          timer = setTimeout(ping, heartbeatMs);
        };
        timer = setTimeout(ping, heartbeatMs);
      }
      try {
        const next = await reader.read();
        stopPings();
        if (closed) return;
        if (next.done) {
          closed = true;
          controller.enqueue(encoder.encode("data: [DONE]\n\n"));
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
      } catch (error) {
        stopPings();
        closed = true;
        controller.error(error);
      }
    },
    async cancel(reason) {
      closed = true;
      stopPings();
      await reader.cancel(reason);
    },
  });
}
