import type { AgentStream } from "../agent-stream.js";
import type { DurableStream } from "./durable-stream.js";
import { openSSESource } from "./open-sse-source.js";
import { DEFAULT_HEARTBEAT_MS, SSE_PING, sseHeaders } from "./sse-format.js";
import type { SSEStreamOptions } from "./sse-stream-options.js";

const encoder = new TextEncoder();
const PING = encoder.encode(SSE_PING);

/**
 * A run as a standard Web `Response` streaming server-sent events in the agentloop wire format (docs/web.md):
 * one `id:`/`data:` message per agent event, then `event: result` with the run's summary (or `event: error`
 * when it could not run), and `: ping` comments while idle. For any fetch-style server: Node (Hono, Next.js
 * route handlers), Bun, Deno, edge runtimes.
 *
 * ```ts
 * export async function POST(request: Request) {
 *   const { input } = await request.json();
 *   return toSSEResponse(agent.stream(input));
 * }
 * ```
 *
 * The body is pulled one event at a time: a client that reads slowly pauses the run instead of filling memory.
 * When the client goes away (the body is cancelled) the run is aborted, or detached when it is durable
 * (`runId`, or a `durableStream(...)`): it runs on to its end, and a reconnect with `Last-Event-ID` picks up
 * what it missed. Throws `InvalidArgumentError` for bad options.
 */
export function toSSEResponse(
  stream: AgentStream<unknown> | DurableStream,
  options: SSEStreamOptions = {},
): Response {
  const source = openSSESource(stream, options);
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  let closed = false;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // A ping while this message is awaited, if the queue has room (a client that does not read gets none).
        const heartbeat =
          heartbeatMs > 0
            ? setInterval(() => {
                if (!closed && (controller.desiredSize ?? 0) > 0) controller.enqueue(PING);
              }, heartbeatMs)
            : undefined;
        try {
          const { text, done } = await source.next();
          if (closed) return;
          controller.enqueue(encoder.encode(text));
          if (done) {
            closed = true;
            controller.close();
          }
        } finally {
          clearInterval(heartbeat);
        }
      },
      cancel() {
        closed = true;
        source.close();
      },
    },
    { highWaterMark: 1 },
  );
  const headers = { ...sseHeaders(source.runId), ...options.headers };
  return new Response(body, { status: 200, headers });
}
