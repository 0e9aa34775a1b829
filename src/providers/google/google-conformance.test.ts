import { afterEach, describe, expect, it } from "vitest";
import { ModelCallError } from "../../errors/model-call-error.js";
import type { ModelRequest } from "../../models/model.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { foldParts, readParts, streamContractViolation } from "../openai/test-utils/stream-parts.js";
import { createGoogle } from "./create-google.js";
import {
  BLOCKED_FIXTURES,
  ERROR_FIXTURES,
  expectFolded,
  NONSTREAM_EXPECTED,
  REQUEST_FIXTURES,
  STREAM_EXPECTED,
} from "./test-utils/expected-results.js";
import { listFixtures, readFixture, streamBody, streamContentType } from "./test-utils/fixtures.js";

const request: ModelRequest = { messages: [{ role: "user", content: "hi" }] };

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function model(baseURL: string) {
  return createGoogle({ baseURL, apiKey: "test-key", retry: { baseDelayMs: 1 } })("gemini-2.5-flash");
}

describe("Gemini fixtures: conformance", () => {
  it("covers every file in test/fixtures/recorded/google-gemini", () => {
    const covered = [
      ...Object.keys(STREAM_EXPECTED),
      ...Object.keys(NONSTREAM_EXPECTED),
      ...BLOCKED_FIXTURES,
      ...ERROR_FIXTURES,
      ...REQUEST_FIXTURES,
    ].sort();
    expect(listFixtures()).toEqual(covered);
  });

  describe.each(Object.entries(STREAM_EXPECTED))("stream %s", (name, expected) => {
    it("folds to the recorded answer, keeping the stream contract", async () => {
      server = await startFixtureServer({ body: streamBody(name), contentType: streamContentType(name) });
      const parts = await readParts(model(server.baseURL).stream(request));
      expect(streamContractViolation(parts)).toBeUndefined();
      expectFolded(foldParts(parts), expected);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]?.url).toBe("/v1/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
      expect(server.requests[0]?.headers["x-goog-api-key"]).toBe("test-key");
    });
  });

  describe.each(Object.entries(NONSTREAM_EXPECTED))("generate %s", (name, expected) => {
    it("parses the recorded body", async () => {
      const body = readFixture(name);
      server = await startFixtureServer({ body, contentType: "application/json" });
      const response = await model(server.baseURL).generate(request);
      expectFolded(response, expected);
      expect(response.raw).toEqual(JSON.parse(body.toString("utf8")));
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]?.url).toBe("/v1/models/gemini-2.5-flash:generateContent");
    });

    it("streams to the same answer when served as one SSE event", async () => {
      const body = `data: ${JSON.stringify(JSON.parse(readFixture(name).toString("utf8")))}\r\n\r\n`;
      server = await startFixtureServer({ body });
      const parts = await readParts(model(server.baseURL).stream(request));
      expect(streamContractViolation(parts)).toBeUndefined();
      expectFolded(foldParts(parts), expected);
    });
  });

  it("streams a recorded call in wire order: start, its arguments, end, provider data, finish", async () => {
    server = await startFixtureServer({ body: streamBody("stream-function-call.sse") });
    const parts = await readParts(model(server.baseURL).stream(request));
    const id = "call_1lpeaMTxIpW1nvgP-O3vwQY_0";
    expect(parts.map((part) => part.type)).toEqual([
      "tool_call_start",
      "tool_call_delta",
      "tool_call_end",
      "provider_data",
      "finish",
    ]);
    expect(parts.slice(0, 2)).toEqual([
      { type: "tool_call_start", id, name: "get_capital" },
      { type: "tool_call_delta", id, delta: '{"country":"France"}' },
    ]);
  });

  it("streams thought summaries as reasoning deltas before the answer's text", async () => {
    server = await startFixtureServer({ body: streamBody("stream-thinking.sse") });
    const parts = await readParts(model(server.baseURL).stream(request));
    const kinds = parts.map((part) => part.type);
    expect(kinds.slice(0, 5)).toEqual([
      "reasoning_delta",
      "reasoning_delta",
      "reasoning_delta",
      "reasoning_delta",
      "text_delta",
    ]);
    expect(kinds.filter((kind) => kind === "text_delta")).toHaveLength(19);
    expect(kinds.slice(-2)).toEqual(["provider_data", "finish"]);
  });

  it("announces each of three streamed Vertex calls when it starts and ends it at its empty functionCall", async () => {
    const name = "stream-vertex-parallel-partial-args.chunks.txt";
    server = await startFixtureServer({ body: streamBody(name) });
    const parts = await readParts(model(server.baseURL).stream(request));
    const calls = parts.filter((part) => part.type.startsWith("tool_call"));
    expect(calls.map((part) => part.type)).toEqual(
      Array.from({ length: 4 }, () => ["tool_call_start", "tool_call_delta", "tool_call_end"]).flat(),
    );
  });

  describe.each(BLOCKED_FIXTURES)("blocked prompt %s", (name) => {
    const check = (error: unknown) => {
      expect(ModelCallError.isInstance(error)).toBe(true);
      const callError = error as ModelCallError;
      expect(callError.code).toBe("prompt_blocked");
      expect(callError.errorType).toBe("MODEL_ARMOR");
      expect(callError.isRetryable).toBe(false);
      expect(callError.message).toContain(
        "Gemini blocked the prompt (MODEL_ARMOR): The prompt violated Prompt Injection and Jailbreak filters.",
      );
      expect(server?.requests).toHaveLength(1);
    };

    it("generate rejects with a non-retryable prompt_blocked error after one request", async () => {
      server = await startFixtureServer({ body: readFixture(name), contentType: "application/json" });
      check(
        await model(server.baseURL)
          .generate(request)
          .catch((error: unknown) => error),
      );
    });

    it("stream throws the same error (the block as the only event)", async () => {
      server = await startFixtureServer({ body: `data: ${readFixture(name).toString("utf8")}\r\n\r\n` });
      check(await readParts(model(server.baseURL).stream(request)).catch((error: unknown) => error));
    });
  });

  describe.each(ERROR_FIXTURES)("error %s served as 400", (name) => {
    const check = (error: unknown) => {
      expect(ModelCallError.isInstance(error)).toBe(true);
      const callError = error as ModelCallError;
      expect(callError.status).toBe(400);
      expect(callError.isRetryable).toBe(false);
      expect(callError.code).toBe("INVALID_ARGUMENT");
      expect(callError.errorType).toBe("INVALID_ARGUMENT");
      expect(callError.errorCode).toBe(400);
      expect(callError.message).toContain(
        `answered 400: Invalid JSON payload received. Unknown name "mediaResolution" at 'contents[0].parts[1]': Cannot find field.`,
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
