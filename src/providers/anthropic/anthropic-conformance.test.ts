import { afterEach, describe, expect, it } from "vitest";
import { ModelCallError } from "../../errors/model-call-error.js";
import type { ModelRequest } from "../../models/model.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { foldParts, readParts, streamContractViolation } from "../openai/test-utils/stream-parts.js";
import { createAnthropic } from "./create-anthropic.js";
import {
  ERROR_FIXTURES,
  expectFolded,
  NOCK_PARALLEL_EXPECTED,
  NONSTREAM_EXPECTED,
  REQUEST_FIXTURES,
  STREAM_EXPECTED,
} from "./test-utils/expected-results.js";
import {
  listFixtures,
  NOCK_FIXTURE,
  readFixture,
  readNockEntries,
  streamBody,
} from "./test-utils/fixtures.js";
import { ANTHROPIC_OUTPUT_FIXTURES } from "./test-utils/output-fixtures.js";

const request: ModelRequest = { messages: [{ role: "user", content: "hi" }] };

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function model(baseURL: string) {
  return createAnthropic({ baseURL, apiKey: "test-key", retry: { baseDelayMs: 1 } })("claude-haiku-4-5");
}

describe("Anthropic Messages fixtures: conformance", () => {
  it("covers every file in test/fixtures/recorded/anthropic-messages", () => {
    const covered = [
      ...Object.keys(STREAM_EXPECTED),
      ...Object.keys(NONSTREAM_EXPECTED),
      ...ERROR_FIXTURES,
      ...REQUEST_FIXTURES,
      NOCK_FIXTURE,
      ...ANTHROPIC_OUTPUT_FIXTURES,
    ].sort();
    expect(listFixtures()).toEqual(covered);
  });

  describe.each(Object.entries(STREAM_EXPECTED))("stream %s", (name, expected) => {
    it("folds to the recorded answer, keeping the stream contract", async () => {
      server = await startFixtureServer({ body: streamBody(name) });
      const parts = await readParts(model(server.baseURL).stream(request));
      expect(streamContractViolation(parts)).toBeUndefined();
      expectFolded(name, foldParts(parts), expected);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]?.url).toBe("/v1/messages");
    });
  });

  it("emits parts in wire order for a text block followed by a tool_use block", async () => {
    server = await startFixtureServer({ body: streamBody("stream-tool-use.sse") });
    const parts = await readParts(model(server.baseURL).stream(request));
    const id = "toolu_01NRLabsLyVHZPKxbKvkfSMn";
    expect(parts).toEqual([
      { type: "text_delta", delta: "I" },
      { type: "text_delta", delta: "'ll check the current weather in Paris for you." },
      { type: "tool_call_start", id, name: "get_weather" },
      { type: "tool_call_delta", id, delta: '{"locati' },
      { type: "tool_call_delta", id, delta: 'on": "P' },
      { type: "tool_call_delta", id, delta: "ar" },
      { type: "tool_call_delta", id, delta: 'is"}' },
      {
        type: "tool_call_end",
        toolCall: {
          id,
          name: "get_weather",
          arguments: { location: "Paris" },
          rawArguments: '{"location": "Paris"}',
        },
      },
      {
        type: "finish",
        usage: {
          inputTokens: 377,
          outputTokens: 65,
          totalTokens: 442,
          cachedInputTokens: 0,
          cacheWriteTokens: 0,
        },
        finishReason: { unified: "tool_calls", raw: "tool_use" },
        model: "claude-sonnet-4-20250514",
      },
    ]);
  });

  it("streams thinking as reasoning deltas, then the provider data, then finish", async () => {
    server = await startFixtureServer({ body: streamBody("stream-thinking-then-tool-use.sse") });
    const parts = await readParts(model(server.baseURL).stream(request));
    expect(parts.map((part) => part.type)).toEqual([
      "reasoning_delta",
      "reasoning_delta",
      "tool_call_start",
      "tool_call_end",
      "provider_data",
      "finish",
    ]);
    expect(parts[0]).toEqual({ type: "reasoning_delta", delta: "The user wants me to:\n1" });
  });

  it("ends a tool_use cut off by max_tokens (no content_block_stop) with its partial input, without crashing", async () => {
    server = await startFixtureServer({ body: streamBody("stream-max-tokens-partial-tool-input.sse") });
    const parts = await readParts(model(server.baseURL).stream(request));
    const end = parts.find((part) => part.type === "tool_call_end");
    expect(end?.type === "tool_call_end" && end.toolCall.parseError).toMatch(/JSON/);
    expect(parts.at(-1)?.type).toBe("finish");
  });

  describe.each(Object.entries(NONSTREAM_EXPECTED))("generate %s", (name, expected) => {
    it("parses the recorded body", async () => {
      const body = readFixture(name);
      server = await startFixtureServer({ body, contentType: "application/json" });
      const response = await model(server.baseURL).generate(request);
      expectFolded(name, response, expected);
      expect(response.raw).toEqual(JSON.parse(body.toString("utf8")));
      expect(server.requests).toHaveLength(1);
    });
  });

  describe(`generate ${NOCK_FIXTURE}`, () => {
    const entries = readNockEntries();

    it("has 10 recorded 200 responses", () => {
      expect(entries).toHaveLength(10);
      expect(entries.every((entry) => entry.status === 200)).toBe(true);
    });

    it("parses entry 2: text and two parallel tool_use blocks", async () => {
      server = await startFixtureServer({
        body: JSON.stringify(entries[2]?.response),
        contentType: "application/json",
      });
      expectFolded("nock#2", await model(server.baseURL).generate(request), NOCK_PARALLEL_EXPECTED);
    });

    it.each(entries.map((entry, index) => [index, entry] as const))(
      "parses entry %i",
      async (_index, entry) => {
        server = await startFixtureServer({
          body: JSON.stringify(entry.response),
          contentType: "application/json",
        });
        const response = await model(server.baseURL).generate(request);
        const content = entry.response.content ?? [];
        expect(response.text).toBe(
          content.map((block) => (block.type === "text" ? block.text : "")).join(""),
        );
        expect(response.toolCalls).toEqual(
          content
            .filter((block) => block.type === "tool_use")
            .map((block) => ({
              id: block.id,
              name: block.name,
              arguments: block.input,
              rawArguments: JSON.stringify(block.input),
            })),
        );
        const usage = entry.response.usage ?? {};
        expect(response.usage.inputTokens).toBe(usage.input_tokens);
        expect(response.usage.outputTokens).toBe(usage.output_tokens);
        expect(response.finishReason.raw).toBe(entry.response.stop_reason);
        expect(response.providerData).toBeUndefined();
      },
    );
  });

  describe.each(ERROR_FIXTURES)("error %s served as 400", (name) => {
    const check = (error: unknown) => {
      expect(ModelCallError.isInstance(error)).toBe(true);
      const callError = error as ModelCallError;
      expect(callError.status).toBe(400);
      expect(callError.isRetryable).toBe(false);
      expect(callError.code).toBe("invalid_request_error");
      expect(callError.message).toContain(
        "answered 400: messages.1: `tool_use` ids were found without `tool_result` blocks immediately after",
      );
      expect(callError.body).toBe(readFixture(name).toString("utf8"));
      expect(server?.requests).toHaveLength(1);
    };

    it("generate rejects with a non-retryable ModelCallError after one request", async () => {
      server = await startFixtureServer({ status: 400, body: readFixture(name) });
      check(
        await model(server.baseURL)
          .generate(request)
          .catch((error: unknown) => error),
      );
    });

    it("stream throws the same error after one request", async () => {
      server = await startFixtureServer({ status: 400, body: readFixture(name) });
      check(await readParts(model(server.baseURL).stream(request)).catch((error: unknown) => error));
    });
  });
});
