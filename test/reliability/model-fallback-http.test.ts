// Model fallback from the outside: two real HTTP providers (OpenAI Chat and Anthropic) against local servers.
// The primary answers the first turn, then its server fails (a 503 storm, a 400, a stream that breaks off);
// the turn moves to the fallback provider, the history it sends is valid for that provider, no tool runs twice.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../src/agent.js";
import type { AgentEvent } from "../../src/loop/agent-event.js";
import { createAnthropic } from "../../src/providers/anthropic/create-anthropic.js";
import {
  type AnthropicMockServer,
  startAnthropicMockServer,
} from "../../src/providers/anthropic/test-utils/anthropic-mock-server.js";
import { createOpenAI } from "../../src/providers/openai/create-openai.js";
import {
  type FixtureServer,
  startFixtureServer,
} from "../../src/providers/openai/test-utils/fixture-server.js";
import { tool } from "../../src/tools/tool.js";

let servers: Array<FixtureServer | AnthropicMockServer> = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

let runs = 0;
const lookup = tool({
  name: "lookup",
  description: "Looks a word up.",
  parameters: z.object({ word: z.string() }),
  execute: async ({ word }) => {
    runs++;
    return `${word}: a small fruit`;
  },
});

/** An OpenAI Chat completion calling lookup(word), as JSON. */
const openAIToolCall = JSON.stringify({
  id: "chatcmpl-1",
  object: "chat.completion",
  model: "gpt-4o-mini",
  choices: [
    {
      index: 0,
      finish_reason: "tool_calls",
      message: {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "lookup", arguments: '{"word":"kiwi"}' } },
        ],
      },
    },
  ],
  usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
});

const anthropicAnswer = {
  id: "msg_1",
  type: "message" as const,
  role: "assistant" as const,
  model: "claude-sonnet-4-5",
  content: [{ type: "text" as const, text: "A kiwi is a small fruit." }],
  stop_reason: "end_turn" as const,
  stop_sequence: null,
  usage: { input_tokens: 30, output_tokens: 8 },
};

async function agentWith(primaryScript: Parameters<typeof startFixtureServer>[0]) {
  const primary = await startFixtureServer(primaryScript);
  const fallback = await startAnthropicMockServer([{ message: anthropicAnswer }]);
  servers.push(primary, fallback);
  const agent = new Agent({
    model: [
      createOpenAI({ baseURL: primary.baseURL, apiKey: "k" })("gpt-4o-mini"),
      createAnthropic({ baseURL: fallback.baseURL, apiKey: "k", promptCaching: "off" })("claude-sonnet-4-5"),
    ],
    tools: [lookup],
    retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 },
  });
  return { agent, primary, fallback };
}

describe("model fallback over real HTTP providers", () => {
  it("a 503 storm past the retries moves the turn to Anthropic with a valid converted history", async () => {
    runs = 0;
    const { agent, primary, fallback } = await agentWith([
      { status: 200, contentType: "application/json", body: openAIToolCall },
      { status: 503, body: '{"error":{"message":"overloaded","type":"server_error"}}' },
    ]);
    const result = await agent.run("What is a kiwi?");
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("A kiwi is a small fruit.");
    expect(primary.requests).toHaveLength(4); // turn 1, then turn 2 and its 2 retries
    expect(fallback.requests).toHaveLength(1);
    expect(runs).toBe(1);
    // Anthropic got the whole conversation in its own format: the tool call and its result.
    const sent = fallback.requests[0]?.body?.messages as Array<{ role: string; content: unknown }>;
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(sent[1]?.content)).toContain('"type":"tool_use"');
    expect(JSON.stringify(sent[2]?.content)).toContain('"tool_use_id":"call_1"');
    const fell = result.events.find((e) => e.type === "model_fallback");
    expect(fell?.data).toMatchObject({ from: "openai:gpt-4o-mini", to: "anthropic:claude-sonnet-4-5" });
    expect(result.events.filter((e) => e.type === "model_call").map((e) => e.data.model)).toEqual([
      "openai:gpt-4o-mini",
      "anthropic:claude-sonnet-4-5",
    ]);
  });

  it("a non-retryable 400 falls back at once (no retries of the primary)", async () => {
    const { agent, primary, fallback } = await agentWith({
      status: 400,
      body: '{"error":{"message":"model not found","type":"invalid_request_error"}}',
    });
    const result = await agent.run("What is a kiwi?");
    expect(result.text).toBe("A kiwi is a small fruit.");
    expect(primary.requests).toHaveLength(1);
    expect(fallback.requests).toHaveLength(1);
  });

  it("streaming: a stream that breaks after text is voided (retry source stream) and answered by the fallback", async () => {
    const broken =
      'data: {"id":"c","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":[{"index":0,"delta":{"role":"assistant","content":"Half an"},"finish_reason":null}]}\n\n';
    const { agent } = await agentWith({ status: 200, body: broken, destroyAfterBytes: broken.length });
    const events: AgentEvent[] = [];
    const stream = agent.stream("What is a kiwi?");
    for await (const event of stream) events.push(event);
    const fell = events.findIndex((e) => e.type === "model_fallback");
    expect(fell).toBeGreaterThan(0);
    expect(events[fell - 1]).toMatchObject({ type: "retry", data: { source: "stream" } });
    const text = events
      .slice(fell)
      .filter((e) => e.type === "text_delta")
      .map((e) => (e.data as { delta: string }).delta)
      .join("");
    expect(text).toBe("A kiwi is a small fruit.");
    expect((await stream.result).text).toBe("A kiwi is a small fruit.");
  });
});
