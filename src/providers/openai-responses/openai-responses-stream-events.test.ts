import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../agent.js";
import type { AgentEvent, AgentEventOf } from "../../loop/agent-event.js";
import { tool } from "../../tools/tool.js";
import { createOpenAI } from "../openai/create-openai.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { randomSplits } from "../openai/test-utils/fixtures.js";
import { MULTISTEP_SUMMARY } from "./test-utils/responses-expected.js";
import {
  completedResponse,
  fixtureEvents,
  MULTISTEP,
  multistepBodies,
} from "./test-utils/responses-fixtures.js";

// The recorded four-response agent loop of the Responses API (reasoning summary, three calculator calls, the
// answer) through a local HTTP server (re-chunked at random byte boundaries), an `Agent` and `agent.stream()`.

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const calculator = tool({
  name: "calculator",
  description: "Arithmetic",
  parameters: z.object({ a: z.number(), b: z.number(), op: z.string() }),
  execute: ({ a, b, op }) => String(op === "add" ? a + b : a * b),
});

/** The recorded calls: call id → argument fragments joined (from `function_call_arguments.delta` events). */
function recordedArguments(): Map<string, string> {
  const byItem = new Map<string, string>();
  const callIds = new Map<string, string>();
  for (const event of fixtureEvents(MULTISTEP)) {
    const item = event.item as { type?: string; id?: string; call_id?: string } | undefined;
    if (event.type === "response.output_item.added" && item?.type === "function_call") {
      callIds.set(String(item.id), String(item.call_id));
    }
    if (event.type === "response.function_call_arguments.delta") {
      const key = String(event.item_id);
      byItem.set(key, (byItem.get(key) ?? "") + String(event.delta));
    }
  }
  return new Map([...byItem].map(([itemId, args]) => [callIds.get(itemId) ?? itemId, args]));
}

describe.each([1, 2, 3])(
  "Responses reasoning summaries and function calls through agent.stream (seed %i)",
  (seed) => {
    it("yields the summary as reasoning_delta events and each call's fragments as tool_call_delta events", async () => {
      server = await startFixtureServer(
        multistepBodies().map((body) => ({ body, splitAt: randomSplits(body.length, seed, 40) })),
      );
      const agent = new Agent({
        model: createOpenAI({ baseURL: server.baseURL, apiKey: "k" }).responses("gpt-5.1-codex-max"),
        tools: [calculator],
      });
      const stream = agent.stream("What is (12 + 7) * 3 * 10?");
      const events: AgentEvent[] = [];
      for await (const event of stream) events.push(event);
      expect((await stream.result).stopReason).toBe("completed");
      const reasoning = events.filter(
        (e): e is AgentEventOf<"reasoning_delta"> => e.type === "reasoning_delta",
      );
      expect(reasoning.map((e) => e.data.delta).join("")).toBe(MULTISTEP_SUMMARY);
      expect(new Set(reasoning.map((e) => e.turn))).toEqual(new Set([1]));
      const deltas = events.filter((e): e is AgentEventOf<"tool_call_delta"> => e.type === "tool_call_delta");
      const joined = new Map<string, string>();
      for (const { data } of deltas) {
        expect(data.toolName).toBe("calculator");
        joined.set(data.toolCallId, (joined.get(data.toolCallId) ?? "") + data.delta);
      }
      expect(joined).toEqual(recordedArguments());
      expect(joined.size).toBe(3);
      // Each call is announced with an empty fragment before its arguments stream.
      for (const id of joined.keys())
        expect(deltas.find((e) => e.data.toolCallId === id)?.data.delta).toBe("");
    });
  },
);

describe("Responses without streaming", () => {
  it("reports the reasoning summary as `reasoning`, like the stream", async () => {
    server = await startFixtureServer({
      body: JSON.stringify(completedResponse(MULTISTEP, 0)),
      contentType: "application/json",
    });
    const model = createOpenAI({ baseURL: server.baseURL, apiKey: "k" }).responses("gpt-5.1-codex-max");
    const response = await model.generate({ messages: [{ role: "user", content: "go" }] });
    expect(response.reasoning).toBe(MULTISTEP_SUMMARY);
  });
});
