import { readdirSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { ModelCallError } from "../../errors/model-call-error.js";
import type { ModelRequest } from "../../models/model.js";
import type { ModelStreamPart } from "../../models/model-stream-part.js";
import {
  compatibleStreamBody,
  OPENAI_COMPATIBLE_FIXTURES,
  readChatFixture,
  readCompatibleFixture,
} from "../openai/test-utils/compatible-fixtures.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { randomSplits } from "../openai/test-utils/fixtures.js";
import { foldParts, readParts, streamContractViolation } from "../openai/test-utils/stream-parts.js";
import { COMPATIBLE_CASES, type CompatibleExpected } from "./test-utils/compatible-cases.js";
import { compatibleModel } from "./test-utils/compatible-model.js";

// Every recorded answer of an OpenAI-compatible server, replayed through the preset of the server that
// recorded it (a real local HTTP server; streams re-chunked at random byte boundaries), to the result read off
// the file by hand.

const request: ModelRequest = { messages: [{ role: "user", content: "hi" }] };

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The folded answer without `providerData` (checked by the agent tests) and `raw`. */
function folded(response: ReturnType<typeof foldParts>): CompatibleExpected {
  const { raw: _raw, providerData: _data, ...rest } = response;
  return rest;
}

function expectAnswer(name: string, actual: CompatibleExpected, expected: CompatibleExpected): void {
  if (name === "ollama-nonstream-reasoning-tool-call.json") {
    expect(actual.reasoning).toHaveLength(763);
    expect(
      actual.reasoning?.startsWith('The conversation: user asked "What is the capital of France?"'),
    ).toBe(true);
    expect(actual.reasoning?.endsWith("We need to provide answer in JSON format. Let's do that.")).toBe(true);
    expect({ ...actual, reasoning: expected.reasoning }).toEqual(expected);
  } else {
    expect(actual).toEqual(expected);
  }
}

const entries = Object.entries(COMPATIBLE_CASES);

describe("OpenAI-compatible fixtures: conformance through the presets", () => {
  it("covers every file in test/fixtures/recorded/openai-compatible", () => {
    expect(readdirSync(OPENAI_COMPATIBLE_FIXTURES).sort()).toEqual(Object.keys(COMPATIBLE_CASES).sort());
  });

  describe.each(entries.filter(([, c]) => c.kind === "stream"))("stream %s", (name, c) => {
    const body = compatibleStreamBody(name);
    it.each([0, 1, 2, 3])(
      "re-chunked (seed %i; 0: as recorded) folds to the recorded answer",
      async (seed) => {
        server = await startFixtureServer({
          body,
          splitAt: seed === 0 ? [] : randomSplits(body.length, seed, 23),
        });
        const parts = await readParts(
          compatibleModel({ preset: c.preset, baseURL: server.baseURL }).stream(request),
        );
        expect(streamContractViolation(parts)).toBeUndefined();
        if (c.kind !== "stream") throw new Error("unreachable");
        expectAnswer(name, folded(foldParts(parts)), c.expected);
        const reasoning = parts.flatMap((p) => (p.type === "reasoning_delta" ? [p.delta] : [])).join("");
        expect(reasoning).toBe(c.expected.reasoning ?? "");
        expect(server.requests).toHaveLength(1);
        expect(server.requests[0]?.url).toBe("/v1/chat/completions");
      },
    );
  });

  describe.each(entries.filter(([, c]) => c.kind === "generate"))("generate %s", (name, c) => {
    it("parses the recorded body", async () => {
      const body = readCompatibleFixture(name);
      server = await startFixtureServer({ body, contentType: "application/json" });
      const response = await compatibleModel({ preset: c.preset, baseURL: server.baseURL }).generate(request);
      if (c.kind !== "generate") throw new Error("unreachable");
      expectAnswer(name, folded(response), c.expected);
      expect(response.raw).toEqual(JSON.parse(body.toString("utf8")));
    });
  });

  describe.each(entries.filter(([, c]) => c.kind === "stream-error"))(
    "error inside the stream %s",
    (name, c) => {
      const body = compatibleStreamBody(name);
      it.each([0, 1, 2])(
        "surfaces as a clear ModelCallError after the streamed reasoning (seed %i)",
        async (seed) => {
          if (c.kind !== "stream-error") throw new Error("unreachable");
          server = await startFixtureServer({
            body,
            splitAt: seed === 0 ? [] : randomSplits(body.length, seed, 29),
          });
          const parts: ModelStreamPart[] = [];
          const model = compatibleModel({ preset: c.preset, baseURL: server.baseURL });
          const error = await (async () => {
            for await (const part of model.stream(request)) parts.push(part);
          })().catch((caught: unknown) => caught);
          expect(ModelCallError.isInstance(error)).toBe(true);
          const callError = error as ModelCallError;
          expect(callError.message).toMatch(c.message);
          expect(callError.errorCode).toBe(c.errorCode);
          expect(callError.isRetryable).toBe(c.retryable);
          expect(parts.map((p) => p.type).every((t) => t === "reasoning_delta")).toBe(true);
          expect(parts.map((p) => (p.type === "reasoning_delta" ? p.delta : "")).join("")).toBe(
            c.reasoningBefore,
          );
          expect(server.requests).toHaveLength(1);
        },
      );
    },
  );

  describe.each(entries.filter(([, c]) => c.kind === "status-error"))("error body %s", (name, c) => {
    if (c.kind !== "status-error") throw new Error("unreachable");
    const error = { status: c.status, body: readCompatibleFixture(name) };
    const text = { body: readChatFixture("nonstream-text.json"), contentType: "application/json" };

    it(`served as ${c.status}: a ModelCallError with the server's code and message`, async () => {
      server = await startFixtureServer(error);
      const caught = await readParts(
        compatibleModel({ preset: c.preset, baseURL: server.baseURL }).stream(request),
      ).catch((e: unknown) => e);
      expect(ModelCallError.isInstance(caught)).toBe(true);
      const callError = caught as ModelCallError;
      expect(callError.status).toBe(c.status);
      expect(callError.code).toBe(c.code);
      expect(callError.message).toMatch(c.message);
      expect(callError.isRetryable).toBe(c.retryable);
      expect(callError.body).toBe(error.body.toString("utf8"));
    });

    it(`is ${c.retryable ? "retried: the next attempt answers" : "not retried"}`, async () => {
      server = await startFixtureServer([error, text]);
      const model = compatibleModel({
        preset: c.preset,
        baseURL: server.baseURL,
        retry: { baseDelayMs: 1, maxRetries: 2 },
      });
      const outcome = await model.generate(request).then(
        () => "answered",
        () => "failed",
      );
      expect(outcome).toBe(c.retryable ? "answered" : "failed");
      expect(server.requests).toHaveLength(c.retryable ? 2 : 1);
    });
  });
});
