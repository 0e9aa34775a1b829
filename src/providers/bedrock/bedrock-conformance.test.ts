import { afterEach, describe, expect, it } from "vitest";
import { isContextLengthError } from "../../errors/is-context-length-error.js";
import { ModelCallError } from "../../errors/model-call-error.js";
import type { ModelRequest, ModelResponse } from "../../models/model.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { foldParts, readParts, streamContractViolation } from "../openai/test-utils/stream-parts.js";
import { signatureProblem, testBedrockModel } from "./test-utils/bedrock-test-model.js";
import {
  ERROR_FIXTURES,
  type Expected,
  NONSTREAM_EXPECTED,
  REQUEST_FIXTURES,
  STREAM_EXPECTED,
} from "./test-utils/expected-results.js";
import { listFixtures, readFixture, readRecordedError, streamBody } from "./test-utils/fixtures.js";

const request: ModelRequest = { messages: [{ role: "user", content: "hi" }] };
const EVENT_STREAM = "application/vnd.amazon.eventstream";
const PATH = "/v1/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0";

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function withoutRaw(response: ModelResponse): Expected {
  const { raw: _raw, ...rest } = response;
  return rest;
}

describe("Bedrock Converse fixtures: conformance", () => {
  it("covers every file in test/fixtures/recorded/amazon-bedrock", () => {
    const covered = [
      ...Object.keys(STREAM_EXPECTED),
      ...Object.keys(NONSTREAM_EXPECTED),
      ...ERROR_FIXTURES,
      ...REQUEST_FIXTURES,
    ].sort();
    expect(listFixtures()).toEqual(covered);
  });

  describe.each(Object.entries(STREAM_EXPECTED))("stream %s", (name, expected) => {
    it("folds to the recorded answer, keeping the stream contract, from a signed request", async () => {
      server = await startFixtureServer({ body: streamBody(name), contentType: EVENT_STREAM });
      const parts = await readParts(testBedrockModel(server.baseURL).stream(request));
      expect(streamContractViolation(parts)).toBeUndefined();
      expect(withoutRaw(foldParts(parts))).toEqual(expected);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]?.url).toBe(`${PATH}/converse-stream`);
      expect(signatureProblem(server.requests[0])).toBeUndefined();
    });
  });

  describe.each(Object.entries(NONSTREAM_EXPECTED))("non-streaming %s", (name, expected) => {
    it("parses to the recorded answer", async () => {
      server = await startFixtureServer({ body: readFixture(name), contentType: "application/json" });
      const response = await testBedrockModel(server.baseURL).generate(request);
      expect(withoutRaw(response)).toEqual(expected);
      expect(response.raw).toEqual(JSON.parse(readFixture(name).toString("utf8")));
      expect(server.requests[0]?.url).toBe(`${PATH}/converse`);
      expect(signatureProblem(server.requests[0])).toBeUndefined();
    });
  });

  it("emits parts in wire order for text then a tool call (Nova, no contentBlockStart for the text)", async () => {
    server = await startFixtureServer({
      body: streamBody("converse-stream-text-then-tool-use.eventstream"),
      contentType: EVENT_STREAM,
    });
    const parts = await readParts(testBedrockModel(server.baseURL).stream(request));
    const types = parts.map((part) => part.type);
    expect(types.filter((type) => type === "text_delta")).toHaveLength(19);
    const id = "tooluse_lAG_zP8QRHmSYOwZzzaCqA";
    expect(parts.slice(19)).toEqual([
      { type: "tool_call_start", id, name: "get_temperature" },
      { type: "tool_call_delta", id, delta: '{"city":"Paris"}' },
      {
        type: "tool_call_end",
        toolCall: {
          id,
          name: "get_temperature",
          arguments: { city: "Paris" },
          rawArguments: '{"city":"Paris"}',
        },
      },
      {
        type: "finish",
        usage: { inputTokens: 471, outputTokens: 91, totalTokens: 562 },
        finishReason: { unified: "tool_calls", raw: "tool_use" },
      },
    ]);
  });

  it("streams reasoning as reasoning_delta parts before the answer", async () => {
    server = await startFixtureServer({
      body: streamBody("converse-stream-reasoning.eventstream"),
      contentType: EVENT_STREAM,
    });
    const parts = await readParts(testBedrockModel(server.baseURL).stream(request));
    const kinds = [...new Set(parts.map((part) => part.type))];
    expect(kinds).toEqual(["reasoning_delta", "text_delta", "provider_data", "finish"]);
    expect(parts.filter((part) => part.type === "reasoning_delta")).toHaveLength(14);
  });

  it("error-400-validation.json: a final ModelCallError with the type from x-amzn-errortype", async () => {
    const recorded = readRecordedError("error-400-validation.json");
    server = await startFixtureServer({
      status: recorded.status,
      headers: recorded.headers,
      body: JSON.stringify(recorded.body),
    });
    const error = await testBedrockModel(server.baseURL)
      .generate(request)
      .catch((e: unknown) => e);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 400,
      isRetryable: false,
      code: "ValidationException",
      errorType: "ValidationException",
    });
    expect((error as Error).message).toContain(
      "answered 400: The content field in the Message object at messages.1 is empty.",
    );
    expect(isContextLengthError(error)).toBe(false);
    expect(server.requests).toHaveLength(1); // not retried
  });
});
