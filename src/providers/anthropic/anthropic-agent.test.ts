import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../agent.js";
import type { AgentEventOf } from "../../loop/agent-event.js";
import { tool } from "../../tools/tool.js";
import type { AnthropicWireBlock, AnthropicWireResponse } from "./anthropic-wire-types.js";
import { createAnthropic } from "./create-anthropic.js";
import { type AnthropicMockServer, startAnthropicMockServer } from "./test-utils/anthropic-mock-server.js";

// The agent end to end: Agent → loop → Anthropic provider → node:http → a local server speaking the Messages
// wire format (JSON, or SSE when the request says stream: true).

/** Turn 1: thinking (with its signature), a text block and two parallel tool_use blocks. */
const turn1Blocks: AnthropicWireBlock[] = [
  {
    type: "thinking",
    thinking: "The user wants two words looked up. I'll call lookup for both — in parallel.",
    signature: "EqQBCkYIBxgCKkB0ZXN0LXNpZ25hdHVyZS1ub3QtcmVhbA==",
  },
  { type: "text", text: "Looking both up." },
  { type: "tool_use", id: "toolu_a", name: "lookup", input: { word: "loop" } },
  { type: "tool_use", id: "toolu_b", name: "lookup", input: { word: "agent" } },
];
const usage = {
  input_tokens: 120,
  cache_read_input_tokens: 30,
  cache_creation_input_tokens: 0,
  output_tokens: 60,
};
const turn1: AnthropicWireResponse = { id: "msg_1", content: turn1Blocks, stop_reason: "tool_use", usage };
const turn2: AnthropicWireResponse = {
  id: "msg_2",
  content: [{ type: "text", text: "A loop repeats; an agent acts." }],
  stop_reason: "end_turn",
  usage: { ...usage, input_tokens: 200, output_tokens: 12 },
};

let server: AnthropicMockServer | undefined;
let executions: string[];

const lookup = tool({
  name: "lookup",
  description: "Look a word up",
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => {
    executions.push(word);
    return `definition of ${word}`;
  },
});

function agentFor(baseURL: string) {
  return new Agent({
    model: createAnthropic({ baseURL, apiKey: "test", retry: { baseDelayMs: 1 } })("claude-haiku-4-5"),
    tools: [lookup],
    system: "Be brief.",
    retry: { baseDelayMs: 1 },
  });
}

beforeEach(() => {
  executions = [];
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each([false, true])("Agent over the Anthropic provider (stream: %s)", (streaming) => {
  const runIt = (agent: Agent, input: string) => (streaming ? agent.stream(input).result : agent.run(input));

  it("runs a multi-turn tool run: thinking sent back unchanged, both tool results in ONE user message", async () => {
    server = await startAnthropicMockServer([{ message: turn1 }, { message: turn2 }]);
    const result = await runIt(agentFor(server.baseURL), "Define loop and agent.");
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("A loop repeats; an agent acts.");
    expect(executions.sort()).toEqual(["agent", "loop"]);
    expect(server.requests).toHaveLength(2);

    const [first, second] = server.requests;
    expect(first?.headers["x-api-key"]).toBe("test");
    expect(first?.headers["anthropic-version"]).toBe("2023-06-01");
    expect(Boolean(first?.body?.stream)).toBe(streaming);
    expect(first?.body?.max_tokens).toBe(4096);
    // Prompt caching is on by default: the system prompt and the last block carry a breakpoint.
    const breakpoint = { type: "ephemeral" };
    expect(second?.body?.system).toEqual([{ type: "text", text: "Be brief.", cache_control: breakpoint }]);
    const messages = second?.body?.messages ?? [];
    expect(messages).toHaveLength(3);
    // The first request's last block keeps its breakpoint (a read of the first turn's cache entry).
    const marked = { type: "text", text: "Define loop and agent.", cache_control: breakpoint };
    expect(first?.body?.messages).toEqual([{ role: "user", content: [marked] }]);
    expect(messages[0]).toEqual({ role: "user", content: [marked] });
    // The thinking block (signature included) and every other block come back exactly as received.
    expect(messages[1]).toEqual({ role: "assistant", content: turn1Blocks });
    expect(JSON.stringify(messages[1])).toBe(JSON.stringify({ role: "assistant", content: turn1Blocks }));
    expect(messages[2]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_a", content: "definition of loop" },
        {
          type: "tool_result",
          tool_use_id: "toolu_b",
          content: "definition of agent",
          cache_control: breakpoint,
        },
      ],
    });
    // Whole-prompt usage: input_tokens + cache reads (+ cache writes) per call.
    expect(result.usage.inputTokens).toBe(150 + 230);
    expect(result.usage.cachedInputTokens).toBe(60);
    expect(result.usage.outputTokens).toBe(72);
  });

  it("keeps the provider data on the assistant message of the result", async () => {
    server = await startAnthropicMockServer([{ message: turn1 }, { message: turn2 }]);
    const result = await runIt(agentFor(server.baseURL), "Define loop and agent.");
    const assistant = result.messages.find((message) => message.role === "assistant");
    expect(assistant?.role === "assistant" && assistant.providerData).toEqual({
      anthropic: { content: turn1Blocks },
    });
  });
});

describe("Agent over the Anthropic provider: broken streams", () => {
  it("retries a stream that reports overloaded_error mid-way; the tools run exactly once", async () => {
    server = await startAnthropicMockServer([
      { message: turn1, streamError: { afterEvents: 6, type: "overloaded_error", message: "Overloaded" } },
      { message: turn1 },
      { message: turn2 },
    ]);
    const result = await agentFor(server.baseURL).stream("Define loop and agent.").result;
    expect(result.stopReason).toBe("completed");
    expect(executions.sort()).toEqual(["agent", "loop"]);
    const retry = result.events.find((e): e is AgentEventOf<"retry"> => e.type === "retry");
    expect(retry?.data.source).toBe("stream");
    expect(retry?.data.error).toMatch(/Overloaded/);
    expect(server.requests).toHaveLength(3);
  });

  it("ends with a clear error, one request, on 401", async () => {
    server = await startAnthropicMockServer([
      {
        status: 401,
        errorBody: '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}',
      },
    ]);
    const result = await agentFor(server.baseURL).run("hi");
    expect(result.stopReason).toBe("error");
    expect(result.error?.message).toMatch(/401: invalid x-api-key/);
    expect(server.requests).toHaveLength(1);
  });
});
