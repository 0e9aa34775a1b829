import type { ServerResponse } from "node:http";
import type { AgentStream } from "../agent-stream.js";
import type { DurableStream } from "./durable-stream.js";
import { openSSESource } from "./open-sse-source.js";
import { DEFAULT_HEARTBEAT_MS, SSE_PING, sseHeaders } from "./sse-format.js";
import type { SSEChunk } from "./sse-source.js";
import type { SSEStreamOptions } from "./sse-stream-options.js";

const noop = (): void => undefined;

/** Resolves on the first of `events` emitted by `res` (or at once when `res` is already closed). */
function once(res: ServerResponse, events: readonly string[]): Promise<void> {
  if (res.closed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      for (const event of events) res.off(event, done);
      resolve();
    };
    for (const event of events) res.on(event, done);
  });
}

/**
 * Writes a run to a node:http `ServerResponse` (also Express's `res`, Fastify's `reply.raw`) as server-sent
 * events in the agentloop wire format, like `toSSEResponse`: writes the SSE headers (unless already sent),
 * then one message per agent event, then `event: result` (or `event: error`), with `: ping` comments while
 * idle. Resolves when the response has ended or the client has gone; never rejects for a socket failure.
 *
 * ```ts
 * createServer(async (req, res) => {
 *   const { input } = JSON.parse(await readBody(req));
 *   await pipeToNodeResponse(agent.stream(input), res);
 * });
 * ```
 *
 * Respects backpressure: when `res.write` returns false the next event is not read before `drain`, so a client
 * that stops reading pauses the run. When the client goes away (`close` before the end) the run is aborted, or
 * detached when it is durable (`runId`, or a `durableStream(...)`). Rejects with `InvalidArgumentError` for
 * bad options.
 */
export async function pipeToNodeResponse(
  stream: AgentStream<unknown> | DurableStream,
  res: ServerResponse,
  options: SSEStreamOptions = {},
): Promise<void> {
  const source = openSSESource(stream, options);
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  let ended = false;
  let gone = false;
  /** Wakes the wait for the next message when the client goes (no promise outlives one message). */
  let wake: (() => void) | undefined;
  const onClose = () => {
    if (ended || gone) return;
    gone = true;
    source.close();
    wake?.();
  };
  res.on("close", onClose);
  res.on("error", noop); // a dead socket must not become an unhandled 'error'
  try {
    if (res.closed || res.destroyed) return onClose();
    if (!res.headersSent)
      res.writeHead(200, { ...sseHeaders(source.runId), ...keepAlive(res), ...options.headers });
    res.flushHeaders();
    while (!gone) {
      const heartbeat =
        heartbeatMs > 0
          ? setInterval(() => {
              if (!gone && !res.writableNeedDrain) res.write(SSE_PING);
            }, heartbeatMs)
          : undefined;
      let chunk: SSEChunk | undefined;
      try {
        chunk = await new Promise<SSEChunk | undefined>((resolve) => {
          wake = () => resolve(undefined);
          source.next().then(resolve);
        });
      } finally {
        wake = undefined;
        clearInterval(heartbeat);
      }
      if (chunk === undefined || gone) break;
      const flushed = res.write(chunk.text);
      if (chunk.done) {
        ended = true;
        const finished = once(res, ["finish", "close"]);
        res.end();
        await finished;
        break;
      }
      if (!flushed) await once(res, ["drain", "close"]);
    }
  } catch {
    // A failed write: the client is gone (or going); the run is aborted or detached.
    if (!ended) {
      onClose();
      res.destroy();
    }
  } finally {
    res.off("close", onClose);
  }
}

/** `connection: keep-alive` on HTTP/1.1 (HTTP/2 forbids the header). */
function keepAlive(res: ServerResponse): Record<string, string> {
  const request = res.req as { httpVersionMajor?: number; httpVersionMinor?: number } | undefined;
  return request?.httpVersionMajor === 1 && request.httpVersionMinor === 1
    ? { connection: "keep-alive" }
    : {};
}
