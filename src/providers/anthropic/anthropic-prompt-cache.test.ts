import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../agent.js";
import type { AgentOptions } from "../../agent-options.js";
import type { AgentEventOf } from "../../loop/agent-event.js";
import type { Message } from "../../models/message.js";
import { tool } from "../../tools/tool.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { randomSplits } from "../openai/test-utils/fixtures.js";
import type { AnthropicWireResponse } from "./anthropic-wire-types.js";
import { createAnthropic } from "./create-anthropic.js";
import { type AnthropicMockServer, startAnthropicMockServer } from "./test-utils/anthropic-mock-server.js";
import { encodeAnthropicSse } from "./test-utils/encode-anthropic-sse.js";
import { readFixture } from "./test-utils/fixtures.js";

// Prompt caching end to end: Agent → loop → Anthropic provider → node:http → a local server answering the
// recorded prompt-cache response (claude-sonnet-4-5, 2nd turn: 3 uncached + 1111 read + 418 written tokens).

const RECORDED = readFixture("nonstream-prompt-cache.json");
const recorded = JSON.parse(RECORDED.toString("utf8")) as AnthropicWireResponse;
const BP = { type: "ephemeral" };

/** The recorded usage as `result.usage`: input is the whole prompt, reads and writes part of it. */
const RECORDED_USAGE = {
  inputTokens: 3 + 1111 + 418,
  outputTokens: 33,
  totalTokens: 1532 + 33,
  cachedInputTokens: 1111,
  cacheWriteTokens: 418,
};
// Priced as the responding model claude-sonnet-4-5-20250929 → "claude-sonnet-4-5" in the table:
// $3 input, $0.30 cache reads, $3.75 cache writes, $15 output per million tokens.
const RECORDED_COST_USD = (3 * 3 + 1111 * 0.3 + 418 * 3.75 + 33 * 15) / 1_000_000; // 0.0024048

let server: FixtureServer | undefined;
let mock: AnthropicMockServer | undefined;
afterEach(async () => {
  await server?.close();
  await mock?.close();
  server = undefined;
  mock = undefined;
});

function agentFor(baseURL: string, options: Pick<AgentOptions, "tools"> = {}) {
  return new Agent({
    model: createAnthropic({ baseURL, apiKey: "test", retry: { baseDelayMs: 1 } })("claude-sonnet-4-5"),
    system: "You are a helpful assistant.",
    retry: { baseDelayMs: 1 },
    ...options,
  });
}

/**
 * The recorded message as an SSE stream (`message_start` carries the input and cache counts). `oldStyle`:
 * `message_delta.usage` carries only `output_tokens`, as older recordings do; else it repeats every count, as
 * `stream-text.chunks.txt` does.
 */
function recordedStream(oldStyle: boolean): string {
  const sse = encodeAnthropicSse({ message: recorded, chunkChars: 7 });
  if (!oldStyle) return sse;
  return sse.replace(/^data: (\{"type":"message_delta".*)$/m, (_line, json: string) => {
    const event = JSON.parse(json) as { usage: unknown };
    return `data: ${JSON.stringify({ ...event, usage: { output_tokens: 33 } })}`;
  });
}

describe("Anthropic prompt caching, replayed", () => {
  it("reports cache reads and writes in result.usage and prices them at the cache rates", async () => {
    server = await startFixtureServer({ body: RECORDED, contentType: "application/json" });
    const result = await agentFor(server.baseURL).run("Can you summarize that in one sentence?");
    expect(result.text).toBe(recorded.content?.[0]?.text);
    expect(result.usage).toEqual(RECORDED_USAGE);
    expect(result.costUsd).toBeCloseTo(RECORDED_COST_USD, 12);
    expect(result.costUsd).toBeCloseTo(0.0024048, 12);
    // The request carried the breakpoints: the system prompt and the last (only) message.
    const sent = server.requests[0]?.body as { system: unknown; messages: unknown[] };
    expect(sent.system).toEqual([{ type: "text", text: "You are a helpful assistant.", cache_control: BP }]);
    expect(sent.messages).toEqual([
      {
        role: "user",
        content: [{ type: "text", text: "Can you summarize that in one sentence?", cache_control: BP }],
      },
    ]);
  });

  it.each([
    ["message_delta repeats the cache fields", false],
    ["message_delta carries only output_tokens", true],
  ])("streams the same usage when %s, re-chunked at random byte boundaries", async (_name, oldStyle) => {
    const body = Buffer.from(recordedStream(oldStyle));
    expect(body.toString().includes('"usage":{"output_tokens":33}')).toBe(oldStyle);
    for (const seed of [1, 2, 3]) {
      server = await startFixtureServer({ body, splitAt: randomSplits(body.length, seed, 29) });
      const result = await agentFor(server.baseURL).stream("Can you summarize that in one sentence?").result;
      expect(result.usage).toEqual(RECORDED_USAGE);
      expect(result.costUsd).toBeCloseTo(RECORDED_COST_USD, 12);
      await server.close();
      server = undefined;
    }
  });

  it("sums cache reads and writes over a run's calls, and prices each call at its own mix", async () => {
    const lookup = tool({
      name: "lookup",
      description: "Look a word up",
      parameters: z.object({ word: z.string() }),
      execute: ({ word }) => `definition of ${word}`,
    });
    const call = { type: "tool_use", id: "toolu_1", name: "lookup", input: { word: "cache" } };
    mock = await startAnthropicMockServer([
      {
        message: {
          model: "claude-sonnet-4-5-20250929",
          content: [call],
          stop_reason: "tool_use",
          usage: {
            input_tokens: 3,
            cache_creation_input_tokens: 1500,
            cache_read_input_tokens: 0,
            output_tokens: 20,
          },
        },
      },
      {
        message: {
          model: "claude-sonnet-4-5-20250929",
          content: [{ type: "text", text: "A cache keeps things." }],
          stop_reason: "end_turn",
          usage: {
            input_tokens: 5,
            cache_creation_input_tokens: 80,
            cache_read_input_tokens: 1500,
            output_tokens: 7,
          },
        },
      },
    ]);
    const result = await agentFor(mock.baseURL, { tools: [lookup] }).run("Define cache.");
    expect(result.stopReason).toBe("completed");
    expect(result.usage).toEqual({
      inputTokens: 1503 + 1585,
      outputTokens: 27,
      totalTokens: 1503 + 1585 + 27,
      cachedInputTokens: 1500,
      cacheWriteTokens: 1580,
    });
    // claude-sonnet-4-5: $3 input, $0.30 reads, $3.75 writes, $15 output per million tokens.
    const first = (3 * 3 + 1500 * 3.75 + 20 * 15) / 1e6; // 0.005934
    const second = (5 * 3 + 1500 * 0.3 + 80 * 3.75 + 7 * 15) / 1e6; // 0.00087
    const calls = result.events.filter((e): e is AgentEventOf<"model_call"> => e.type === "model_call");
    expect(calls.map((e) => e.data.costUsd)).toEqual([expect.closeTo(first, 12), expect.closeTo(second, 12)]);
    expect(result.costUsd).toBeCloseTo(0.006804, 12);

    // The second request: breakpoints on the tool, the system prompt, the tool result (moving) and the first
    // user message (where the first request's moving breakpoint was): 4, the API's limit.
    const next = mock.requests[1]?.body as {
      tools: Record<string, unknown>[];
      messages: { content: Record<string, unknown>[] }[];
    };
    expect(JSON.stringify(next).split('"cache_control"')).toHaveLength(5);
    expect(next.tools[0]?.cache_control).toEqual(BP);
    expect(next.messages[0]?.content).toEqual([{ type: "text", text: "Define cache.", cache_control: BP }]);
    expect(next.messages[2]?.content).toEqual([
      { type: "tool_result", tool_use_id: "toolu_1", content: "definition of cache", cache_control: BP },
    ]);
    expect(mock.requests[0]?.body?.messages).toEqual(next.messages.slice(0, 1));
  });

  it("sends the recorded request's top-level automatic cache_control when asked to, and no block breakpoints", async () => {
    const request = JSON.parse(readFixture("nonstream-prompt-cache.request.json").toString("utf8")) as {
      cache_control: unknown;
      system: string;
      stream: boolean;
      messages: { role: "user" | "assistant"; content: { type: "text"; text: string }[] }[];
    };
    server = await startFixtureServer({ body: RECORDED, contentType: "application/json" });
    const model = createAnthropic({
      baseURL: server.baseURL,
      apiKey: "test",
      extraBody: { cache_control: request.cache_control },
    })("claude-sonnet-4-5");
    const messages: Message[] = [
      { role: "system", content: request.system },
      ...request.messages.map(({ role, content }) => ({ role, content: content[0]?.text ?? "" })),
    ];
    const response = await model.generate({ messages });
    expect(response.usage).toEqual(RECORDED_USAGE);
    const sent = server.requests[0]?.body as Record<string, unknown> & { messages: { content: unknown }[] };
    // Our plain-string contents are the recorded single text blocks; `stream: false` is left out.
    const { stream: _stream, ...expected } = request;
    const normalized = {
      ...sent,
      messages: sent.messages.map((m) => ({
        ...m,
        content: typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content,
      })),
    };
    expect(normalized).toEqual(expected);
  });
});
