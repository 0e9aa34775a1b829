import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "./agent.js";
import type { AgentEventOf } from "./loop/agent-event.js";
import { createOpenAI } from "./providers/openai/create-openai.js";
import { type MockOpenAIServer, startMockOpenAIServer } from "./testing/mock-openai-server.js";
import { tool } from "./tools/tool.js";

// The agent end to end: Agent → loop → OpenAI provider → node:http → a real local OpenAI-compatible server.

let server: MockOpenAIServer;
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

const agentFor = (retry = { baseDelayMs: 1 }) =>
  new Agent({
    model: createOpenAI({ baseURL: server.url, apiKey: "test-key", retry })("gpt-4o-mini"),
    tools: [lookup],
    system: "Be brief.",
    retry,
  });

beforeEach(async () => {
  executions = [];
  server = await startMockOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

const script = [
  { text: "Looking up.", toolCalls: [{ id: "call_a", name: "lookup", arguments: { word: "loop" } }] },
  { text: "A loop repeats." },
];

describe.each([false, true])("Agent over the OpenAI provider (stream: %s)", (streaming) => {
  const runIt = (agent: Agent, input: string) => (streaming ? agent.stream(input).result : agent.run(input));

  it("runs a tool round trip with the wire protocol", async () => {
    server.setScript(script);
    const result = await runIt(agentFor(), "What is a loop?");
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("A loop repeats.");
    expect(executions).toEqual(["loop"]);
    const second = server.requests[1]?.body as { messages: unknown[]; tools: unknown[]; stream?: boolean };
    expect(second.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "What is a loop?" },
      {
        role: "assistant",
        content: "Looking up.",
        tool_calls: [
          { id: "call_a", type: "function", function: { name: "lookup", arguments: '{"word":"loop"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_a", content: "definition of loop" },
    ]);
    expect(second.tools).toHaveLength(1);
    expect(Boolean(second.stream)).toBe(streaming);
    expect(server.requests[0]?.headers.authorization).toBe("Bearer test-key");
    expect(result.usage.totalTokens).toBeGreaterThan(0);
  });

  it("retries 429 (Retry-After) and reports each retry as an event", async () => {
    server.setScript([
      { fault: { status: 429, retryAfter: "0" } },
      { fault: { status: 429, retryAfter: "0" } },
      ...script,
    ]);
    const result = await runIt(agentFor(), "What is a loop?");
    expect(result.stopReason).toBe("completed");
    const retries = result.events.filter((e): e is AgentEventOf<"retry"> => e.type === "retry");
    expect(retries.map((e) => [e.data.attempt, e.data.source])).toEqual([
      [1, "request"],
      [2, "request"],
    ]);
    expect(retries[0]?.data.error).toMatch(/429/);
    expect(server.requests).toHaveLength(4);
  });

  it("ends with a clear error, one request, on 401", async () => {
    server.setScript([{ fault: { status: 401 } }]);
    const result = await runIt(agentFor(), "hi");
    expect(result.stopReason).toBe("error");
    expect(result.error?.message).toMatch(/401/);
    expect(server.requests).toHaveLength(1);
    expect(result.events.at(-1)?.type).toBe("loop_end");
  });
});

describe("Agent over the OpenAI provider: broken streams", () => {
  it("retries a stream dropped mid-way; the tool runs exactly once", async () => {
    server.setScript([
      { ...script[0], fault: { type: "drop_mid_stream", afterEvents: 2 } },
      script[0] as (typeof script)[0],
      script[1] as (typeof script)[1],
    ]);
    const result = await agentFor().stream("What is a loop?").result;
    expect(result.stopReason).toBe("completed");
    expect(executions).toEqual(["loop"]);
    const retry = result.events.find((e): e is AgentEventOf<"retry"> => e.type === "retry");
    expect(retry?.data.source).toBe("stream");
    expect(server.requests).toHaveLength(3);
  });

  it("retries a stream dropped in the middle of a tool call's arguments, never executing the partial call", async () => {
    server.setScript([
      { ...script[0], fault: { type: "drop_mid_stream", afterEvents: 4 } },
      script[0] as (typeof script)[0],
      script[1] as (typeof script)[1],
    ]);
    const result = await agentFor().stream("What is a loop?").result;
    expect(result.stopReason).toBe("completed");
    expect(executions).toEqual(["loop"]);
  });

  it("retries a stream that ends without its final event", async () => {
    server.setScript([
      { text: "partial", fault: { type: "end_without_done" } },
      script[1] as (typeof script)[1],
    ]);
    const result = await agentFor().stream("hi").result;
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("A loop repeats.");
  });

  it("aborts a hanging model call from the caller's signal", async () => {
    server.setScript([{ fault: { type: "hang" } }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    const result = await agentFor().run("hi", { signal: controller.signal });
    expect(result.stopReason).toBe("aborted");
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
