import { afterEach, describe, expect, it } from "vitest";
import { ModelCallError } from "../../errors/model-call-error.js";
import type { ModelRequest } from "../../models/model.js";
import { createOpenAI } from "./create-openai.js";
import {
  ERROR_FIXTURES,
  expectFolded,
  NONSTREAM_EXPECTED,
  REQUEST_FIXTURES,
  STREAM_EXPECTED,
  weather,
} from "./test-utils/expected-results.js";
import { type FixtureServer, startFixtureServer } from "./test-utils/fixture-server.js";
import { listFixtures, readFixture, streamBody } from "./test-utils/fixtures.js";
import { CHAT_OUTPUT_FIXTURES } from "./test-utils/output-fixtures.js";
import { foldParts, readParts, streamContractViolation } from "./test-utils/stream-parts.js";

const request: ModelRequest = { messages: [{ role: "user", content: "hi" }] };

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function model(baseURL: string) {
  return createOpenAI({ baseURL, apiKey: "sk-test", retry: { baseDelayMs: 1 } })("gpt-4o");
}

describe("OpenAI Chat fixtures: conformance", () => {
  it("covers every file in test/fixtures/recorded/openai-chat", () => {
    const covered = [
      ...Object.keys(STREAM_EXPECTED),
      ...Object.keys(NONSTREAM_EXPECTED),
      ...ERROR_FIXTURES,
      ...REQUEST_FIXTURES,
      ...CHAT_OUTPUT_FIXTURES,
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
    });
  });

  it("emits tool-call parts in wire order for parallel calls (start, deltas, start, deltas, ends, finish)", async () => {
    server = await startFixtureServer({ body: streamBody("stream-parallel-tool-calls.sse") });
    const parts = await readParts(model(server.baseURL).stream(request));
    const shape = parts.map((part) => (part.type === "tool_call_delta" ? "d" : part.type));
    expect(shape.join(" ")).toBe(
      `tool_call_start ${"d ".repeat(11)}tool_call_start ${"d ".repeat(9)}tool_call_end tool_call_end finish`,
    );
    expect(parts[0]).toEqual({ type: "tool_call_start", id: weather.id, name: "GetWeatherArgs" });
    expect(parts.slice(1, 4)).toEqual([
      { type: "tool_call_delta", id: weather.id, delta: '{"ci' },
      { type: "tool_call_delta", id: weather.id, delta: 'ty": ' },
      { type: "tool_call_delta", id: weather.id, delta: '"Edinb' },
    ]);
  });

  it("emits text deltas for the text stream, then one finish", async () => {
    server = await startFixtureServer({ body: streamBody("stream-finish-length.sse") });
    const parts = await readParts(model(server.baseURL).stream(request));
    expect(parts).toEqual([
      { type: "text_delta", delta: '{"' },
      {
        type: "finish",
        usage: { inputTokens: 79, outputTokens: 1, totalTokens: 80, reasoningTokens: 0 },
        finishReason: { unified: "length", raw: "length" },
        model: "gpt-4o-2024-08-06",
      },
    ]);
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

  describe.each(ERROR_FIXTURES)("error %s served as 400", (name) => {
    const check = (error: unknown) => {
      expect(ModelCallError.isInstance(error)).toBe(true);
      const callError = error as ModelCallError;
      expect(callError.status).toBe(400);
      expect(callError.isRetryable).toBe(false);
      expect(callError.code).toBe("unsupported_parameter");
      expect(callError.message).toContain(
        "Unsupported parameter: 'max_tokens' is not supported with this model",
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
