import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../agent.js";
import type { AgentEvent, AgentEventOf } from "../../loop/agent-event.js";
import { tool } from "../../tools/tool.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { randomSplits } from "../openai/test-utils/fixtures.js";
import { createAnthropic } from "./create-anthropic.js";
import { readFixture, streamBody } from "./test-utils/fixtures.js";

// Recorded Anthropic streams through a local HTTP server (re-chunked at random byte boundaries), an `Agent`
// and `agent.stream()`: thinking streams as `reasoning_delta` events, tool input as `tool_call_delta` events.

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The `data:` payloads of a recorded `.sse` fixture, parsed. */
function payloads(name: string): Array<Record<string, unknown>> {
  return readFixture(name)
    .toString("utf8")
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

/** The concatenated `delta[field]` of every `content_block_delta` of type `type` in a fixture. */
function recordedDeltas(name: string, type: string, field: string): string {
  let text = "";
  for (const payload of payloads(name)) {
    const delta = payload.delta as Record<string, unknown> | undefined;
    if (payload.type === "content_block_delta" && delta?.type === type) text += String(delta[field]);
  }
  return text;
}

const getWeather = tool({
  name: "get_weather",
  description: "The weather at a location",
  parameters: z.object({ location: z.string() }),
  execute: ({ location }) => `Sunny in ${location}`,
});
const fixedVersion = tool({
  name: "fixed_version",
  description: "The version",
  parameters: z.object({}),
  execute: () => "1.2.3",
});

async function streamed(turns: string[], seed: number): Promise<AgentEvent[]> {
  server = await startFixtureServer(
    turns.map((name) => {
      const body = streamBody(name);
      return { body, splitAt: randomSplits(body.length, seed, 40) };
    }),
  );
  const agent = new Agent({
    model: createAnthropic({ baseURL: server.baseURL, apiKey: "k" })("claude-sonnet-4-5"),
    tools: [getWeather, fixedVersion],
  });
  const stream = agent.stream("Go");
  const events: AgentEvent[] = [];
  for await (const event of stream) events.push(event);
  expect((await stream.result).stopReason).toBe("completed");
  return events;
}

const reasoningOf = (events: AgentEvent[]) =>
  events
    .filter((e): e is AgentEventOf<"reasoning_delta"> => e.type === "reasoning_delta")
    .map((e) => e.data.delta)
    .join("");
const toolDeltasOf = (events: AgentEvent[]) =>
  events.filter((e): e is AgentEventOf<"tool_call_delta"> => e.type === "tool_call_delta").map((e) => e.data);

describe.each([1, 2])("Anthropic streams through agent.stream (seed %i)", (seed) => {
  it("stream-thinking.sse: the thinking streams as reasoning_delta events", async () => {
    const events = await streamed(["stream-thinking.sse"], seed);
    const thinking = recordedDeltas("stream-thinking.sse", "thinking_delta", "thinking");
    expect(thinking.length).toBeGreaterThan(100);
    expect(reasoningOf(events)).toBe(thinking);
    const types = events.map((e) => e.type);
    expect(types.lastIndexOf("reasoning_delta")).toBeLessThan(types.indexOf("text_delta"));
  });

  it("stream-tool-use.sse: input_json_delta fragments as tool_call_delta events, named from the start", async () => {
    const events = await streamed(["stream-tool-use.sse", "stream-text.sse"], seed);
    const deltas = toolDeltasOf(events);
    const id = deltas[0]?.toolCallId;
    expect(deltas[0]).toEqual({ toolCallId: id, toolName: "get_weather", delta: "" });
    expect(deltas.every((d) => d.toolCallId === id && d.toolName === "get_weather")).toBe(true);
    const recorded = recordedDeltas("stream-tool-use.sse", "input_json_delta", "partial_json");
    expect(deltas.map((d) => d.delta).join("")).toBe(recorded);
    expect(JSON.parse(recorded)).toEqual({ location: "Paris" });
  });

  it("stream-thinking-then-tool-use.sse: reasoning, then the no-argument call announced", async () => {
    const events = await streamed(["stream-thinking-then-tool-use.sse", "stream-text.sse"], seed);
    const name = "stream-thinking-then-tool-use.sse";
    expect(reasoningOf(events)).toBe(recordedDeltas(name, "thinking_delta", "thinking"));
    expect(toolDeltasOf(events)).toEqual([
      { toolCallId: "toolu_01825dXWLSoJwCst1qTsiWdb", toolName: "fixed_version", delta: "" },
    ]);
  });
});
