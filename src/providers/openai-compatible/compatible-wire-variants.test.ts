import { afterEach, describe, expect, it } from "vitest";
import { Agent } from "../../agent.js";
import type { AgentEventOf } from "../../loop/agent-event.js";
import { compatibleChunks, readCompatibleFixture, sseOf } from "../openai/test-utils/compatible-fixtures.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { foldParts, readParts } from "../openai/test-utils/stream-parts.js";
import { compatibleModel } from "./test-utils/compatible-model.js";

// Variants of the recordings, each derived from a recorded file by removing or changing one field (so labelled
// synthetic), for shapes the servers send that the collection has no recording of: DeepSeek's cache counts
// without `prompt_tokens_details`, Groq's usage only under `x_groq`, an OpenRouter error chunk with a transient
// upstream status.

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const hi = { messages: [{ role: "user" as const, content: "hi" }] };

describe("usage", () => {
  it("DeepSeek: prompt_cache_hit_tokens counts as cache reads when prompt_tokens_details is absent", async () => {
    const recorded = JSON.parse(
      readCompatibleFixture("deepseek-nonstream-reasoning-tool-call.json").toString(),
    ) as {
      usage: Record<string, unknown>;
    };
    delete recorded.usage.prompt_tokens_details;
    server = await startFixtureServer({ body: JSON.stringify(recorded), contentType: "application/json" });
    const response = await compatibleModel({ preset: "deepseek", baseURL: server.baseURL }).generate(hi);
    expect(response.usage).toEqual({
      inputTokens: 339,
      outputTokens: 92,
      totalTokens: 431,
      cachedInputTokens: 320,
      reasoningTokens: 48,
    });
  });

  it("Groq: the usage under x_groq is read when the top-level one is missing", async () => {
    const chunks = compatibleChunks("groq-stream-tool-call.chunks.txt").map((chunk) => {
      const { usage: _usage, ...rest } = chunk;
      return rest;
    });
    server = await startFixtureServer({ body: sseOf(chunks) });
    const parts = await readParts(compatibleModel({ preset: "groq", baseURL: server.baseURL }).stream(hi));
    expect(foldParts(parts).usage).toEqual({ inputTokens: 210, outputTokens: 15, totalTokens: 225 });
  });
});

describe("OpenRouter: an error chunk with a transient upstream status", () => {
  /** The recorded error stream with its in-chunk error code changed from 400 to 502. */
  const body502 = Buffer.from(
    readCompatibleFixture("openrouter-stream-error-in-chunk.sse")
      .toString("utf8")
      .replace(
        '"error":{"code":400,"message":"Token limit reached"}',
        '"error":{"code":502,"message":"Upstream error"}',
      ),
  );

  it("is retryable, and the agent's retry gets the next answer (the retry event tells to drop the partial one)", async () => {
    expect(body502.toString()).toContain('"code":502');
    server = await startFixtureServer([
      { body: body502 },
      { body: readCompatibleFixture("openrouter-stream-reasoning.sse") },
    ]);
    const agent = new Agent({
      model: compatibleModel({ preset: "openrouter", baseURL: server.baseURL }),
      retry: { maxRetries: 1, baseDelayMs: 1 },
    });
    const result = await agent.stream("2+2?").result;
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("2 + 2 = 4");
    const retries = result.events.filter((e): e is AgentEventOf<"retry"> => e.type === "retry");
    expect(retries.map((r) => [r.data.attempt, r.data.source])).toEqual([[1, "stream"]]);
    expect(retries[0]?.data.error).toContain("Upstream error");
    expect(server.requests).toHaveLength(2);
  });

  it("the recorded 400 (Token limit reached) is not retried: the run ends with that error", async () => {
    server = await startFixtureServer({
      body: readCompatibleFixture("openrouter-stream-error-in-chunk.sse"),
    });
    const agent = new Agent({
      model: compatibleModel({ preset: "openrouter", baseURL: server.baseURL }),
      retry: { maxRetries: 2, baseDelayMs: 1 },
    });
    const result = await agent.stream("hello").result;
    expect(result.stopReason).toBe("error");
    expect(result.error?.message).toMatch(/reported an error: Token limit reached$/);
    expect(server.requests).toHaveLength(1);
  });
});
