// Item "stall detection": only real progress (a text, reasoning, tool-call or usage part) resets the idle
// timeout, so keep-alive comments, Anthropic `ping` events and empty events cannot hold a stalled stream
// open; and limits.maxStreamDurationMs bounds a stream that drips real data too slowly overall.
import { describe, expect, it } from "vitest";
import { ModelCallError } from "../../src/errors/model-call-error.js";
import { StreamInterruptedError } from "../../src/errors/stream-interrupted-error.js";
import { collectStream } from "../../src/models/collect-stream.js";
import type { Model } from "../../src/models/model.js";
import { createAnthropic } from "../../src/providers/anthropic/create-anthropic.js";
import { createOpenAI } from "../../src/providers/openai/create-openai.js";
import { chatChunk, type RawHandler, startRawServer, TRANSPORTS } from "./transport-test-server.js";

const request = { messages: [{ role: "user" as const, content: "hi" }] };

/** Writes `write()` every `everyMs` until the client goes away. */
function every(res: import("node:http").ServerResponse, everyMs: number, write: (i: number) => string): void {
  let i = 0;
  const timer = setInterval(() => res.write(write(i++)), everyMs);
  res.on("close", () => clearInterval(timer));
}

async function run(
  handler: RawHandler,
  options: {
    fetch?: typeof globalThis.fetch | undefined;
    anthropic?: boolean;
    timeoutMs: number;
    maxStreamDurationMs?: number;
  },
): Promise<{ error: unknown; elapsedMs: number }> {
  const server = await startRawServer(handler);
  try {
    const common = {
      baseURL: server.url,
      apiKey: "sk-test",
      timeoutMs: options.timeoutMs,
      ...(options.fetch !== undefined && { fetch: options.fetch }),
      ...(options.maxStreamDurationMs !== undefined && {
        limits: { maxStreamDurationMs: options.maxStreamDurationMs },
      }),
    };
    const model: Model = options.anthropic
      ? createAnthropic(common)("claude-test")
      : createOpenAI(common)("gpt-test");
    const started = performance.now();
    const error = await collectStream(model.stream(request)).then(
      () => undefined,
      (e: unknown) => e,
    );
    return { error, elapsedMs: performance.now() - started };
  } finally {
    await server.close();
  }
}

const sse = { "content-type": "text/event-stream" };

describe.each(TRANSPORTS)("stalls over $transport", ({ fetch }) => {
  it("keep-alive comments every 20 ms do not hold a stream that stopped progressing (OpenAI)", async () => {
    const handler: RawHandler = ({ res }) => {
      res.writeHead(200, sse);
      res.write(chatChunk({ role: "assistant", content: "Hello" }));
      every(res, 20, () => ": ping\n\n");
    };
    const { error, elapsedMs } = await run(handler, { fetch, timeoutMs: 300 });
    expect(StreamInterruptedError.isInstance(error), String(error)).toBe(true);
    expect((error as Error).message).toMatch(/stalled: no progress for 300 ms/);
    expect(elapsedMs).toBeLessThan(2_000);
  });

  it("empty events and empty deltas do not count as progress either (OpenAI)", async () => {
    const handler: RawHandler = ({ res }) => {
      res.writeHead(200, sse);
      every(res, 20, (i) => (i % 2 === 0 ? "data: \n\n" : chatChunk({ content: "" })));
    };
    const { error } = await run(handler, { fetch, timeoutMs: 300 });
    expect(StreamInterruptedError.isInstance(error), String(error)).toBe(true);
    expect((error as Error).message).toMatch(/stalled/);
  });

  it("Anthropic `ping` events forever do not hold the stream", async () => {
    const handler: RawHandler = ({ res }) => {
      res.writeHead(200, sse);
      res.write(
        `event: message_start\ndata: ${JSON.stringify({ type: "message_start", message: { usage: {} } })}\n\n`,
      );
      every(res, 20, () => `event: ping\ndata: {"type": "ping"}\n\n`);
    };
    const { error, elapsedMs } = await run(handler, { fetch, anthropic: true, timeoutMs: 300 });
    expect(StreamInterruptedError.isInstance(error), String(error)).toBe(true);
    expect((error as Error).message).toMatch(/stalled/);
    expect(elapsedMs).toBeLessThan(2_000);
  });

  it("real data dripping within the idle timeout is stopped at maxStreamDurationMs, not retryable", async () => {
    const handler: RawHandler = ({ res }) => {
      res.writeHead(200, sse);
      every(res, 50, () => chatChunk({ content: "drip " }));
    };
    const { error, elapsedMs } = await run(handler, { fetch, timeoutMs: 300, maxStreamDurationMs: 600 });
    expect(ModelCallError.isInstance(error), String(error)).toBe(true);
    expect((error as ModelCallError).code).toBe("stream_duration_exceeded");
    expect((error as ModelCallError).isRetryable).toBe(false);
    expect(elapsedMs).toBeGreaterThanOrEqual(550);
    expect(elapsedMs).toBeLessThan(2_000);
  });

  it("a stream that progresses steadily within both bounds completes", async () => {
    const handler: RawHandler = ({ res }) => {
      res.writeHead(200, sse);
      let i = 0;
      const timer = setInterval(() => {
        if (i++ < 10) {
          res.write(`: ping\n\n${chatChunk({ content: "a" })}`);
          return;
        }
        clearInterval(timer);
        res.end(`${chatChunk({}, "stop")}data: [DONE]\n\n`);
      }, 30);
    };
    const { error } = await run(handler, { fetch, timeoutMs: 300, maxStreamDurationMs: 5_000 });
    expect(error).toBeUndefined();
  });
});
