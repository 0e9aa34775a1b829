import { afterEach, describe, expect, it } from "vitest";
import { ModelCallError } from "../../errors/model-call-error.js";
import { StreamInterruptedError } from "../../errors/stream-interrupted-error.js";
import type { ModelRequest } from "../../models/model.js";
import { createOpenAI } from "../openai/create-openai.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { foldParts, readParts, streamContractViolation } from "../openai/test-utils/stream-parts.js";
import type { OpenAIResponsesProviderData } from "./openai-responses-wire-types.js";
import {
  comparable,
  coveredFixtures,
  ERROR_EXPECTED,
  MULTISTEP_SUMMARY,
  NONSTREAM_EXPECTED,
  STREAM_ERROR_FIXTURE,
  streamCases,
} from "./test-utils/responses-expected.js";
import {
  completedResponse,
  listResponsesFixtures,
  MULTISTEP,
  readResponsesFixture,
  reasoningItemOf,
  responsesStreamBody,
} from "./test-utils/responses-fixtures.js";

const request: ModelRequest = { messages: [{ role: "user", content: "hi" }] };
const CASES = streamCases();

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function model(baseURL: string) {
  return createOpenAI({ baseURL, apiKey: "sk-test", retry: { baseDelayMs: 1 } }).responses("gpt-5");
}

async function streamOf(body: Buffer) {
  server = await startFixtureServer({ body });
  const parts = await readParts(model(server.baseURL).stream(request));
  return { parts, response: foldParts(parts) };
}

function outputOf(data: Record<string, unknown> | undefined) {
  return (data as OpenAIResponsesProviderData | undefined)?.openaiResponses.output;
}

describe("OpenAI Responses fixtures: conformance", () => {
  it("covers every file in test/fixtures/recorded/openai-responses", () => {
    expect(listResponsesFixtures()).toEqual(coveredFixtures());
  });

  describe.each(Object.entries(CASES))("stream %s", (_name, { body, expected }) => {
    it("folds to the recorded answer, keeping the stream contract, after one POST /v1/responses", async () => {
      const { parts, response } = await streamOf(body);
      expect(streamContractViolation(parts)).toBeUndefined();
      expect(comparable(response)).toEqual(expected);
      expect(server?.requests).toHaveLength(1);
      expect(server?.requests[0]?.url).toBe("/v1/responses");
      expect(server?.requests[0]?.body).toMatchObject({ model: "gpt-5", stream: true, store: false });
    });
  });

  describe.each(Object.keys(CASES).filter((name) => name.endsWith(".sse")))(
    "generate on the final response object of %s",
    (name) => {
      it("parses to the same answer as the stream", async () => {
        const body = JSON.stringify(completedResponse(name));
        server = await startFixtureServer({ body, contentType: "application/json" });
        const response = await model(server.baseURL).generate(request);
        expect(comparable(response)).toEqual(CASES[name]?.expected);
        expect(server.requests[0]?.body).not.toHaveProperty("stream");
      });
    },
  );

  it("keeps reasoning items with the LAST encrypted_content (response.completed), call_id as the id", async () => {
    const name = "stream-reasoning-function-call.sse";
    const { response } = await streamOf(responsesStreamBody(name));
    const output = outputOf(response.providerData);
    const recorded = completedResponse(name).output;
    expect(output).toEqual(recorded);
    const reasoning = output?.[0];
    expect(reasoning?.type).toBe("reasoning");
    expect(reasoning?.encrypted_content).toBe(recorded?.[0]?.encrypted_content);
    expect(reasoning?.encrypted_content).not.toBe(
      reasoningItemOf(name, "response.output_item.added").encrypted_content,
    );
    expect(reasoning?.encrypted_content).not.toBe(
      reasoningItemOf(name, "response.output_item.done").encrypted_content,
    );
    expect(output?.[1]).toMatchObject({ type: "function_call", id: expect.stringMatching(/^fc_/) });
    expect(response.toolCalls[0]?.id).toMatch(/^call_/);
  });

  it("streams commentary text and a function call of one response in wire order", async () => {
    const { parts, response } = await streamOf(
      responsesStreamBody("stream-commentary-then-function-call.sse"),
    );
    const shape = parts.map((part) => part.type).filter((type, i, all) => type !== all[i - 1]);
    expect(shape).toEqual([
      "text_delta",
      "tool_call_start",
      "tool_call_delta",
      "tool_call_end",
      "provider_data",
      "finish",
    ]);
    expect(outputOf(response.providerData)?.map((item) => item.type)).toEqual([
      "reasoning",
      "message",
      "function_call",
    ]);
    expect(outputOf(response.providerData)?.[1]).toMatchObject({ phase: "commentary" });
  });

  it("delivers split numbers as separate deltas and parses the joined arguments", async () => {
    const { parts, response } = await streamOf(responsesStreamBody("stream-function-call-seqnum.sse"));
    const deltas = parts.flatMap((part) => (part.type === "tool_call_delta" ? [part.delta] : []));
    expect(deltas.slice(2, 5)).toEqual(['":', "123", "1"]);
    expect(response.toolCalls[0]?.arguments).toEqual({ a: 1231, b: 2331 });
  });

  it("streams the reasoning summary of the multistep fixture's first response as reasoning deltas", async () => {
    const first = CASES[`${MULTISTEP}#1`];
    const { parts } = await streamOf(first?.body ?? Buffer.from(""));
    const reasoning = parts.flatMap((part) => (part.type === "reasoning_delta" ? [part.delta] : []));
    expect(reasoning.join("")).toBe(MULTISTEP_SUMMARY);
  });

  it("reads one response per stream: the multistep file served whole folds to its first response", async () => {
    const { response } = await streamOf(responsesStreamBody(MULTISTEP));
    expect(comparable(response)).toEqual(CASES[`${MULTISTEP}#1`]?.expected);
  });

  describe.each(Object.entries(NONSTREAM_EXPECTED))("generate %s", (name, expected) => {
    it("parses the recorded body", async () => {
      const body = readResponsesFixture(name);
      server = await startFixtureServer({ body, contentType: "application/json" });
      const response = await model(server.baseURL).generate(request);
      expect(comparable(response)).toEqual(expected);
      expect(response.raw).toEqual(JSON.parse(body.toString("utf8")));
      expect(server.requests).toHaveLength(1);
    });
  });

  describe.each(Object.entries(ERROR_EXPECTED))("error %s", (name, { status, code, message }) => {
    const check = (error: unknown) => {
      expect(ModelCallError.isInstance(error)).toBe(true);
      const callError = error as ModelCallError;
      expect(callError.status).toBe(status);
      expect(callError.isRetryable).toBe(false);
      expect(callError.code).toBe(code);
      expect(callError.message).toContain(message);
      expect(callError.body).toBe(readResponsesFixture(name).toString("utf8"));
      expect(server?.requests).toHaveLength(1);
    };

    it(`generate rejects (served as ${status}) with a non-retryable ModelCallError after one request`, async () => {
      server = await startFixtureServer({ status, body: readResponsesFixture(name) });
      check(
        await model(server.baseURL)
          .generate(request)
          .catch((error: unknown) => error),
      );
    });

    it("stream throws the same error after one request", async () => {
      server = await startFixtureServer({ status, body: readResponsesFixture(name) });
      check(await readParts(model(server.baseURL).stream(request)).catch((error: unknown) => error));
    });
  });

  it(`turns the in-stream error event of ${STREAM_ERROR_FIXTURE} into a final ModelCallError`, async () => {
    server = await startFixtureServer({ body: responsesStreamBody(STREAM_ERROR_FIXTURE) });
    const parts: string[] = [];
    const error = await (async () => {
      for await (const part of model(server?.baseURL ?? "").stream(request)) parts.push(part.type);
    })().catch((caught: unknown) => caught);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(StreamInterruptedError.isInstance(error)).toBe(false);
    const callError = error as ModelCallError;
    expect(callError.code).toBe("insufficient_quota");
    expect(callError.isRetryable).toBe(false);
    expect(callError.message).toContain("You exceeded your current quota");
    expect(parts).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });
});
