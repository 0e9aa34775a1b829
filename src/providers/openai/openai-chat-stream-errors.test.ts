import { afterEach, describe, expect, it } from "vitest";
import { AbortError } from "../../errors/abort-error.js";
import { ModelCallError } from "../../errors/model-call-error.js";
import { StreamInterruptedError } from "../../errors/stream-interrupted-error.js";
import type { ModelRequest } from "../../models/model.js";
import type { ModelStreamPart } from "../../models/model-stream-part.js";
import { createOpenAI } from "./create-openai.js";
import { weather } from "./test-utils/expected-results.js";
import {
  type FixtureServer,
  type ScriptedResponse,
  startFixtureServer,
} from "./test-utils/fixture-server.js";
import { streamBody } from "./test-utils/fixtures.js";
import { foldParts, readParts, streamContractViolation } from "./test-utils/stream-parts.js";

const request: ModelRequest = { messages: [{ role: "user", content: "hi" }] };

/** The `data:` payloads of a recorded `.sse` fixture, in order (`[DONE]` included). */
function events(name: string): string[] {
  return streamBody(name)
    .toString("utf8")
    .split("\n\n")
    .filter((event) => event.startsWith("data: "))
    .map((event) => event.slice("data: ".length));
}

/** An SSE body from payloads, plus the byte offsets between events (to write one event at a time). */
function sse(payloads: readonly string[]): { body: Buffer; splitAt: number[] } {
  const splitAt: number[] = [];
  let text = "";
  for (const payload of payloads) {
    text += `data: ${payload}\n\n`;
    splitAt.push(Buffer.byteLength(text));
  }
  return { body: Buffer.from(text), splitAt };
}

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function open(script: ScriptedResponse, timeoutMs?: number, transport: "node" | "fetch" = "node") {
  server = await startFixtureServer(script);
  return createOpenAI({
    baseURL: server.baseURL,
    apiKey: "sk-test",
    retry: { baseDelayMs: 1 },
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(transport === "fetch" && { fetch: globalThis.fetch }),
  })("gpt-4o");
}

/** Reads a stream until it throws; returns the parts seen before and the error. */
async function readUntilError(parts: AsyncIterable<ModelStreamPart>) {
  const seen: ModelStreamPart[] = [];
  try {
    for await (const part of parts) seen.push(part);
  } catch (error) {
    return { seen, error };
  }
  throw new Error(`expected the stream to throw; got ${seen.length} parts`);
}

const textEvents = events("stream-text.sse");
const halfway = sse(textEvents.slice(0, 12));

describe("OpenAI Chat streams that go wrong", () => {
  it.each(["node", "fetch"] as const)(
    "throws StreamInterruptedError when the connection drops mid-stream, after text was yielded (%s transport)",
    async (transport) => {
      const whole = sse(textEvents);
      const model = await open(
        { ...whole, destroyAfterBytes: halfway.body.length, writeDelayMs: 2 },
        undefined,
        transport,
      );
      const { seen, error } = await readUntilError(model.stream(request));
      expect(StreamInterruptedError.isInstance(error)).toBe(true);
      expect((error as StreamInterruptedError).isRetryable).toBe(true);
      expect((error as Error).message).toContain("Model stream broke off");
      expect(seen.filter((part) => part.type === "text_delta").length).toBeGreaterThan(5);
      expect(seen.some((part) => part.type === "finish")).toBe(false);
      expect(server?.requests).toHaveLength(1);
    },
  );

  it.each(["node", "fetch"] as const)(
    "throws StreamInterruptedError when the stream stalls longer than timeoutMs (%s transport)",
    async (transport) => {
      const model = await open({ ...sse(textEvents), stallAfterBytes: halfway.body.length }, 150, transport);
      const started = performance.now();
      const { seen, error } = await readUntilError(model.stream(request));
      expect(StreamInterruptedError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain("stalled");
      expect(seen.some((part) => part.type === "text_delta")).toBe(true);
      expect(performance.now() - started).toBeLessThan(2000);
    },
  );

  it.each(["node", "fetch"] as const)(
    "throws AbortError when aborted mid-stream, and closes the connection (%s transport)",
    async (transport) => {
      const model = await open(
        { ...sse(textEvents), stallAfterBytes: halfway.body.length },
        undefined,
        transport,
      );
      const controller = new AbortController();
      const seen: ModelStreamPart[] = [];
      const error = await (async () => {
        for await (const part of model.stream(request, { signal: controller.signal })) {
          seen.push(part);
          if (part.type === "text_delta") controller.abort();
        }
      })().catch((e: unknown) => e);
      expect(AbortError.isInstance(error)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server?.requests[0]?.closedEarly).toBe(true);
    },
  );

  it.each(["node", "fetch"] as const)(
    "releases the connection when the consumer stops iterating early (%s transport)",
    async (transport) => {
      server = await startFixtureServer({ ...sse(textEvents), writeDelayMs: 20 });
      const model = createOpenAI({
        baseURL: server.baseURL,
        apiKey: "sk-test",
        ...(transport === "fetch" && { fetch: globalThis.fetch }),
      })("gpt-4o");
      for await (const part of model.stream(request)) {
        if (part.type === "text_delta") break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.requests[0]?.closedEarly).toBe(true);
    },
  );

  it("throws StreamInterruptedError for a malformed JSON chunk (and yields no finish)", async () => {
    const model = await open(
      sse([textEvents[1] ?? "", '{"choices":[{"index":0,"delta":{"content":"x"', "[DONE]"]),
    );
    const { seen, error } = await readUntilError(model.stream(request));
    expect(StreamInterruptedError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("malformed chunk");
    expect(seen).toEqual([{ type: "text_delta", delta: "I'm" }]);
  });

  it("throws StreamInterruptedError when the body ends cleanly with no finish_reason and no [DONE]", async () => {
    const model = await open(halfway);
    const { seen, error } = await readUntilError(model.stream(request));
    expect(StreamInterruptedError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("ended before the model finished");
    expect(seen.length).toBeGreaterThan(5);
  });

  it("throws the server's error for an in-stream error chunk (synthetic: no recording has one)", async () => {
    const errorChunk =
      '{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}';
    const model = await open(sse([textEvents[1] ?? "", errorChunk, "[DONE]"]));
    const { seen, error } = await readUntilError(model.stream(request));
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(StreamInterruptedError.isInstance(error)).toBe(false);
    expect((error as ModelCallError).code).toBe("server_error");
    expect((error as ModelCallError).message).toContain(
      "The server had an error while processing your request.",
    );
    expect(seen).toHaveLength(1);
  });

  it("reassembles interleaved tool-call fragments (synthetic: the parallel fixture's chunks reordered)", async () => {
    // events: 0 role, 1 header0, 2-12 args0, 13 header1, 14-22 args1, 23 finish, 24 usage, 25 [DONE]
    const e = events("stream-parallel-tool-calls.sse");
    const args0 = e.slice(2, 13);
    const args1 = e.slice(14, 23);
    const mixed: string[] = [];
    for (let i = 0; i < Math.max(args0.length, args1.length); i++)
      mixed.push(...[args0[i], args1[i]].filter((x) => x !== undefined));
    const model = await open(sse([...e.slice(0, 2), e[13] ?? "", ...mixed, ...e.slice(23)]));
    const parts = await readParts(model.stream(request));
    expect(streamContractViolation(parts)).toBeUndefined();
    expect(parts.slice(0, 2).map((p) => p.type)).toEqual(["tool_call_start", "tool_call_start"]);
    expect(foldParts(parts).toolCalls.map((call) => call.arguments)).toEqual([
      weather.arguments,
      { ticker: "AAPL", exchange: "NASDAQ" },
    ]);
  });

  it("accepts compatible-server quirks: no index, header repeated, [DONE] without finish_reason (synthetic)", async () => {
    const fragment = (args: string) =>
      JSON.stringify({
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [{ id: "call_a", type: "function", function: { name: "lookup", arguments: args } }],
            },
            finish_reason: null,
          },
        ],
      });
    const model = await open(sse([fragment('{"q":'), fragment('"x"}'), "[DONE]"]));
    const parts = await readParts(model.stream(request));
    expect(streamContractViolation(parts)).toBeUndefined();
    const response = foldParts(parts);
    expect(response.toolCalls).toEqual([
      { id: "call_a", name: "lookup", arguments: { q: "x" }, rawArguments: '{"q":"x"}' },
    ]);
    expect(response.finishReason).toEqual({ unified: "other", raw: undefined });
    expect(response.usage).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
  });

  it("keeps invalid tool-call JSON as parseError instead of throwing (synthetic: fixture cut short)", async () => {
    const e = events("stream-tool-call.sse");
    // Drop the last arguments fragment ("\"}"), so the arguments are not valid JSON.
    const model = await open(sse([...e.slice(0, 7), ...e.slice(8)]));
    const response = foldParts(await readParts(model.stream(request)));
    expect(response.toolCalls[0]?.rawArguments).toBe('{"city":"New York City');
    expect(response.toolCalls[0]?.arguments).toBeUndefined();
    expect(response.toolCalls[0]?.parseError).toBeTypeOf("string");
  });
});
