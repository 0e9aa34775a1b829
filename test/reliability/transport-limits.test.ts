// Item "resource bounds": everything a server sends is bounded (a body, an error body, a stream, one SSE
// line or event, the tool calls of an answer and their indexes). Each limit ends the call with a
// non-retryable ResponseTooLargeError (or a ModelCallError for an invalid index), quickly, without retries,
// in both transports, against a real local server sending the hostile thing.
import { describe, expect, it } from "vitest";
import { Agent } from "../../src/agent.js";
import { InvalidArgumentError } from "../../src/errors/invalid-argument-error.js";
import { ModelCallError } from "../../src/errors/model-call-error.js";
import { ResponseTooLargeError } from "../../src/errors/response-too-large-error.js";
import { DEFAULT_RESPONSE_LIMITS, type ResponseLimits } from "../../src/http/response-limits.js";
import { collectStream } from "../../src/models/collect-stream.js";
import type { Model } from "../../src/models/model.js";
import { createAnthropic } from "../../src/providers/anthropic/create-anthropic.js";
import { createOpenAI } from "../../src/providers/openai/create-openai.js";
import {
  chatChunk,
  type RawHandler,
  startRawServer,
  TRANSPORTS,
  writeLazily,
} from "./transport-test-server.js";

const request = { messages: [{ role: "user" as const, content: "hi" }] };

/** Runs `use` against a raw server answering with `handler`, through an OpenAI model with `limits`. */
async function withServer<T>(
  handler: RawHandler,
  options: {
    fetch?: typeof globalThis.fetch | undefined;
    limits?: Partial<ResponseLimits>;
    api?: "chat" | "responses" | "anthropic";
  },
  use: (model: Model, count: () => number) => Promise<T>,
): Promise<T> {
  const server = await startRawServer(handler);
  try {
    const common = {
      baseURL: server.url,
      apiKey: "sk-test",
      retry: { maxRetries: 2, baseDelayMs: 1 },
      ...(options.fetch !== undefined && { fetch: options.fetch }),
      ...(options.limits !== undefined && { limits: options.limits }),
    };
    const model =
      options.api === "anthropic"
        ? createAnthropic(common)("claude-test")
        : options.api === "responses"
          ? createOpenAI(common).responses("gpt-test")
          : createOpenAI(common)("gpt-test");
    return await use(model, server.count);
  } finally {
    await server.close();
  }
}

async function streamed(model: Model): Promise<unknown> {
  return collectStream(model.stream(request));
}

function expectTooLarge(error: unknown, limit: string, maximum: number): void {
  expect(ResponseTooLargeError.isInstance(error), String(error)).toBe(true);
  const tooLarge = error as ResponseTooLargeError;
  expect(tooLarge.limit).toBe(limit);
  expect(tooLarge.maximum).toBe(maximum);
  expect(tooLarge.isRetryable).toBe(false);
  expect(tooLarge.message).toContain(limit);
}

describe.each(TRANSPORTS)("limits over $transport", ({ fetch }) => {
  it("a non-streamed body over maxResponseBytes (no content-length) fails once, not retried", async () => {
    const handler: RawHandler = ({ res }) => {
      res.writeHead(200, { "content-type": "application/json" });
      writeLazily(res, 200_000, "x", '{"choices":[{"message":{"content":"');
    };
    await withServer(handler, { fetch, limits: { maxResponseBytes: 10_000 } }, async (model, count) => {
      const error = await model.generate(request).catch((e: unknown) => e);
      expectTooLarge(error, "limits.maxResponseBytes", 10_000);
      expect(count()).toBe(1);
    });
  });

  it("a declared content-length over maxResponseBytes fails before the body is read", async () => {
    const handler: RawHandler = ({ res }) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "50000" });
      res.write("{"); // and never the rest: only the header can end this call quickly
    };
    await withServer(handler, { fetch, limits: { maxResponseBytes: 10_000 } }, async (model) => {
      const error = await model.generate(request).catch((e: unknown) => e);
      expectTooLarge(error, "limits.maxResponseBytes", 10_000);
      expect((error as ResponseTooLargeError).received).toBe(50_000);
    });
  });

  it("an error body (500, retryable status) over maxResponseBytes fails once, not retried", async () => {
    const handler: RawHandler = ({ res }) => {
      res.writeHead(500, { "content-type": "text/html" });
      writeLazily(res, 100_000, "<p>upstream error</p>");
    };
    for (const stream of [false, true]) {
      await withServer(handler, { fetch, limits: { maxResponseBytes: 10_000 } }, async (model, count) => {
        const error = await (stream ? streamed(model) : model.generate(request)).catch((e: unknown) => e);
        expectTooLarge(error, "limits.maxResponseBytes", 10_000);
        expect(count()).toBe(1);
      });
    }
  });

  it("a stream over maxStreamBytes (endless small events) fails, not retried", async () => {
    const handler: RawHandler = ({ res }) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      writeLazily(res, 10_000_000, chatChunk({ content: "word " }));
    };
    await withServer(handler, { fetch, limits: { maxStreamBytes: 50_000 } }, async (model, count) => {
      const error = await streamed(model).catch((e: unknown) => e);
      expectTooLarge(error, "limits.maxStreamBytes", 50_000);
      expect(count()).toBe(1);
    });
  });

  it("an SSE line that never ends, and an event that never completes, fail at maxSseEventBytes", async () => {
    const endlessLine: RawHandler = ({ res }) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      writeLazily(res, 5_000_000, "x", "data: ");
    };
    const endlessEvent: RawHandler = ({ res }) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      writeLazily(res, 5_000_000, "data: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n");
    };
    for (const handler of [endlessLine, endlessEvent]) {
      await withServer(handler, { fetch, limits: { maxSseEventBytes: 20_000 } }, async (model) => {
        const error = await streamed(model).catch((e: unknown) => e);
        expectTooLarge(error, "limits.maxSseEventBytes", 20_000);
      });
    }
  });

  it("many small events and keep-alive comments within the limits are fine", async () => {
    const handler: RawHandler = ({ res }) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      let text = "";
      for (let i = 0; i < 2_000; i++) text += `: ping\n\n${chatChunk({ content: "a" })}`;
      res.end(`${text}${chatChunk({}, "stop")}data: [DONE]\n\n`);
    };
    await withServer(handler, { fetch, limits: { maxSseEventBytes: 200 } }, async (model) => {
      const response = (await streamed(model)) as { text: string };
      expect(response.text).toBe("a".repeat(2_000));
    });
  });
});

const toolChunk = (index: number, id: string) =>
  chatChunk({ tool_calls: [{ index, id, type: "function", function: { name: "f", arguments: "{}" } }] });

describe("tool-call slots", () => {
  it("OpenAI Chat: index 4294967294 fails at once (the event loop is not blocked), with the default limits", async () => {
    const handler: RawHandler = ({ res }) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`${toolChunk(4294967294, "call_x")}${chatChunk({}, "tool_calls")}data: [DONE]\n\n`);
    };
    await withServer(handler, {}, async (model, count) => {
      const started = performance.now();
      const error = await streamed(model).catch((e: unknown) => e);
      expect(performance.now() - started).toBeLessThan(1_000);
      expectTooLarge(error, "limits.maxToolCalls", DEFAULT_RESPONSE_LIMITS.maxToolCalls);
      expect((error as ResponseTooLargeError).received).toBe(4294967295);
      expect(count()).toBe(1);
    });
  });

  it.each([-1, 1.5, Number.MAX_SAFE_INTEGER + 2])(
    "OpenAI Chat: index %s is refused as invalid, not retried",
    async (index) => {
      const handler: RawHandler = ({ res }) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(`${toolChunk(index, "call_x")}${chatChunk({}, "tool_calls")}data: [DONE]\n\n`);
      };
      await withServer(handler, {}, async (model) => {
        const error = (await streamed(model).catch((e: unknown) => e)) as ModelCallError;
        expect(ModelCallError.isInstance(error)).toBe(true);
        expect(error.isRetryable).toBe(false);
        expect(["invalid_tool_call_index", "response_too_large"]).toContain(error.code);
      });
    },
  );

  it("OpenAI Chat: more tool calls than maxToolCalls (streamed and not) fail", async () => {
    const streamHandler: RawHandler = ({ res }) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      let text = "";
      for (let i = 0; i < 4; i++) text += toolChunk(i, `call_${i}`);
      res.end(`${text}${chatChunk({}, "tool_calls")}data: [DONE]\n\n`);
    };
    await withServer(streamHandler, { limits: { maxToolCalls: 3 } }, async (model) => {
      expectTooLarge(await streamed(model).catch((e: unknown) => e), "limits.maxToolCalls", 3);
    });
    const jsonHandler: RawHandler = ({ res }) => {
      const toolCalls = Array.from({ length: 4 }, (_, i) => ({
        id: `call_${i}`,
        type: "function",
        function: { name: "f", arguments: "{}" },
      }));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          choices: [
            { index: 0, message: { content: null, tool_calls: toolCalls }, finish_reason: "tool_calls" },
          ],
        }),
      );
    };
    await withServer(jsonHandler, { limits: { maxToolCalls: 3 } }, async (model) => {
      expectTooLarge(await model.generate(request).catch((e: unknown) => e), "limits.maxToolCalls", 3);
    });
  });

  it("Responses and Anthropic streams: more function calls / tool_use blocks than maxToolCalls fail", async () => {
    const responsesHandler: RawHandler = ({ res }) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (let i = 0; i < 4; i++) {
        const item = { type: "function_call", id: `fc_${i}`, call_id: `call_${i}`, name: "f", arguments: "" };
        res.write(
          `data: ${JSON.stringify({ type: "response.output_item.added", output_index: 4294967290 + i, item })}\n\n`,
        );
      }
      res.end();
    };
    await withServer(responsesHandler, { api: "responses", limits: { maxToolCalls: 3 } }, async (model) => {
      expectTooLarge(await streamed(model).catch((e: unknown) => e), "limits.maxToolCalls", 3);
    });
    const anthropicHandler: RawHandler = ({ res }) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(
        `event: message_start\ndata: ${JSON.stringify({ type: "message_start", message: { usage: {} } })}\n\n`,
      );
      for (let i = 0; i < 4; i++) {
        const start = {
          type: "content_block_start",
          index: 4294967290 + i,
          content_block: { type: "tool_use", id: `toolu_${i}`, name: "f", input: {} },
        };
        res.write(`event: content_block_start\ndata: ${JSON.stringify(start)}\n\n`);
      }
      res.end();
    };
    await withServer(anthropicHandler, { api: "anthropic", limits: { maxToolCalls: 3 } }, async (model) => {
      expectTooLarge(await streamed(model).catch((e: unknown) => e), "limits.maxToolCalls", 3);
    });
  });
});

describe("defaults and options", () => {
  it("the default maxResponseBytes stops a body a little over it (generated lazily by the server)", async () => {
    const limit = DEFAULT_RESPONSE_LIMITS.maxResponseBytes;
    const handler: RawHandler = ({ res }) => {
      res.writeHead(200, { "content-type": "application/json" });
      writeLazily(res, limit + 1024 * 1024, "x", '{"choices":[{"message":{"content":"');
    };
    await withServer(handler, {}, async (model, count) => {
      const error = await model.generate(request).catch((e: unknown) => e);
      expectTooLarge(error, "limits.maxResponseBytes", limit);
      expect(count()).toBe(1);
    });
  });

  it("a run ends with stop reason error and the ResponseTooLargeError, through the Agent", async () => {
    const handler: RawHandler = ({ res }) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      writeLazily(res, 10_000_000, chatChunk({ content: "word " }));
    };
    await withServer(handler, { limits: { maxStreamBytes: 50_000 } }, async (model, count) => {
      const stream = new Agent({ model }).stream("hi");
      for await (const _ of stream) {
        // drain
      }
      const result = await stream.result;
      expect(result.stopReason).toBe("error");
      expectTooLarge(result.error, "limits.maxStreamBytes", 50_000);
      expect(count()).toBe(1);
    });
  });

  it("limits are validated at construction", () => {
    expect(() => createOpenAI({ limits: { maxToolCalls: 0 } })).toThrow(InvalidArgumentError);
    expect(() => createOpenAI({ limits: { maxStreamBytes: 1.5 } })).toThrow(/limits.maxStreamBytes/);
    expect(() => createAnthropic({ limits: { maxBytes: 1 } as Partial<ResponseLimits> })).toThrow(
      /limits.maxBytes/,
    );
    expect(() => createOpenAI({ limits: { maxStreamDurationMs: 2 ** 31 } })).toThrow(/maxStreamDurationMs/);
  });
});
