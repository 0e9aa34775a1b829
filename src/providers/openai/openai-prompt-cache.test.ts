import { afterEach, describe, expect, it } from "vitest";
import { Agent } from "../../agent.js";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { mapOpenAIResponsesUsage } from "../openai-responses/map-openai-responses.js";
import { readResponsesFixture } from "../openai-responses/test-utils/responses-fixtures.js";
import { createOpenAI } from "./create-openai.js";
import { mapOpenAIUsage } from "./map-openai-usage.js";
import { type FixtureServer, startFixtureServer } from "./test-utils/fixture-server.js";
import { readFixture } from "./test-utils/fixtures.js";

// Prompt caching over OpenAI Chat, end to end: Agent → loop → provider → node:http → a local server answering
// the two recorded calls of pydantic-ai's prompt-cache test (gpt-5.6-sol, 2026-07): the first writes 4012
// prompt tokens to the cache, the identical second one reads them.

const recordedRequest = JSON.parse(readFixture("nonstream-prompt-cache.request.json").toString("utf8")) as {
  model: string;
  prompt_cache_key: string;
  prompt_cache_options: unknown;
};

/**
 * gpt-5.6-sol is in no built-in table (its page showed a promotional price): priced here through `pricing`,
 * at the list price OpenAI announced ($5 input, $30 output), reads at 0.1 × and writes at 1.25 × input.
 */
const SOL_PRICE = { inputPerMTok: 5, outputPerMTok: 30, cachedInputPerMTok: 0.5, cacheWritePerMTok: 6.25 };

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("OpenAI Chat prompt caching, replayed", () => {
  it("reports the write then the read in result.usage, priced at the write and read rates", async () => {
    server = await startFixtureServer([
      { body: readFixture("nonstream-prompt-cache-write.json"), contentType: "application/json" },
      { body: readFixture("nonstream-prompt-cache-read.json"), contentType: "application/json" },
    ]);
    const openai = createOpenAI({
      baseURL: server.baseURL,
      apiKey: "sk-test",
      promptCacheKey: recordedRequest.prompt_cache_key,
      extraBody: { prompt_cache_options: recordedRequest.prompt_cache_options },
    });
    const agent = new Agent({ model: openai(recordedRequest.model), pricing: { "gpt-5.6-sol": SOL_PRICE } });

    const written = await agent.run("Reply with exactly: OK");
    expect(written.text).toBe("OK");
    expect(written.usage).toEqual({
      inputTokens: 4020,
      outputTokens: 4,
      totalTokens: 4024,
      cachedInputTokens: 0,
      cacheWriteTokens: 4012,
      reasoningTokens: 0,
    });
    // 8 uncached × $5 + 4012 written × $6.25 + 4 output × $30, per million.
    expect(written.costUsd).toBeCloseTo((8 * 5 + 4012 * 6.25 + 4 * 30) / 1e6, 12);
    expect(written.costUsd).toBeCloseTo(0.025235, 12);

    const read = await agent.run("Reply with exactly: OK");
    expect(read.usage).toMatchObject({ inputTokens: 4020, cachedInputTokens: 4012, cacheWriteTokens: 0 });
    // 8 uncached × $5 + 4012 read × $0.50 + 4 output × $30, per million.
    expect(read.costUsd).toBeCloseTo(0.002166, 12);

    // Both requests carried the recorded request's cache fields.
    for (const request of server.requests) {
      const body = request.body as Record<string, unknown>;
      expect(body.model).toBe(recordedRequest.model);
      expect(body.prompt_cache_key).toBe(recordedRequest.prompt_cache_key);
      expect(body.prompt_cache_options).toEqual(recordedRequest.prompt_cache_options);
    }
  });

  it("sends prompt_cache_key and prompt_cache_retention to Chat and Responses, and neither unless set", async () => {
    server = await startFixtureServer([
      { body: readFixture("nonstream-text.json"), contentType: "application/json" },
      { body: readResponsesFixture("nonstream-function-call.json"), contentType: "application/json" },
      { body: readFixture("nonstream-text.json"), contentType: "application/json" },
    ]);
    const cached = createOpenAI({
      baseURL: server.baseURL,
      apiKey: "k",
      promptCacheKey: "user-42",
      promptCacheRetention: "24h",
    });
    const request = { messages: [{ role: "user" as const, content: "hi" }] };
    await cached("gpt-5.5").generate(request);
    await cached.responses("gpt-5.5").generate(request);
    await createOpenAI({ baseURL: server.baseURL, apiKey: "k" })("llama3.2").generate(request);
    const [chat, responses, plain] = server.requests.map((r) => r.body as Record<string, unknown>);
    expect(server.requests.map((r) => r.url)).toEqual([
      "/v1/chat/completions",
      "/v1/responses",
      "/v1/chat/completions",
    ]);
    for (const body of [chat, responses]) {
      expect(body).toMatchObject({ prompt_cache_key: "user-42", prompt_cache_retention: "24h" });
    }
    expect(plain).not.toHaveProperty("prompt_cache_key");
    expect(plain).not.toHaveProperty("prompt_cache_retention");
  });

  it("lets a request's providerOptions override the provider's key", async () => {
    server = await startFixtureServer({
      body: readFixture("nonstream-text.json"),
      contentType: "application/json",
    });
    const model = createOpenAI({ baseURL: server.baseURL, apiKey: "k", promptCacheKey: "tenant" })("gpt-5.5");
    await model.generate({
      messages: [{ role: "user", content: "hi" }],
      providerOptions: { prompt_cache_key: "conversation-7" },
    });
    expect(server.requests[0]?.body).toMatchObject({ prompt_cache_key: "conversation-7" });
  });

  it("refuses an empty key, a non-string retention, and a field set both as option and in extraBody", () => {
    expect(() => createOpenAI({ promptCacheKey: "" })).toThrow(InvalidArgumentError);
    expect(() => createOpenAI({ promptCacheRetention: 24 as unknown as "24h" })).toThrow(
      /promptCacheRetention/,
    );
    expect(() => createOpenAI({ promptCacheKey: "a", extraBody: { prompt_cache_key: "b" } })).toThrow(
      /prompt_cache_key is also set in extraBody/,
    );
  });
});

describe("OpenAI usage: cache reads and writes", () => {
  it("maps Chat prompt_tokens_details.cache_write_tokens and leaves both counts out when not reported", () => {
    expect(
      mapOpenAIUsage({
        prompt_tokens: 100,
        completion_tokens: 5,
        prompt_tokens_details: { cached_tokens: 60, cache_write_tokens: 30 },
      }),
    ).toEqual({
      inputTokens: 100,
      outputTokens: 5,
      totalTokens: 105,
      cachedInputTokens: 60,
      cacheWriteTokens: 30,
    });
    const plain = mapOpenAIUsage({ prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 });
    expect(plain).not.toHaveProperty("cachedInputTokens");
    expect(plain).not.toHaveProperty("cacheWriteTokens");
  });

  it("maps Responses input_tokens_details.cached_tokens and cache_write_tokens (part of input_tokens)", () => {
    expect(
      mapOpenAIResponsesUsage({
        input_tokens: 3215,
        output_tokens: 9,
        input_tokens_details: { cached_tokens: 0, cache_write_tokens: 3207 },
      }),
    ).toEqual({
      inputTokens: 3215,
      outputTokens: 9,
      totalTokens: 3224,
      cachedInputTokens: 0,
      cacheWriteTokens: 3207,
    });
  });
});
